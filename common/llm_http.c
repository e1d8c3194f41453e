/* The HTTP exchange under llm.c.  Plain http:// (a local server: Ollama,
 * llama.cpp, vLLM, the test provider) is spoken here directly: loading
 * libcurl and the thirty libraries it pulls in costs a short call most of
 * its time.  https:// and proxied requests go through libcurl, loaded with
 * dlopen(3) when first needed.
 *
 * The built-in client is HTTP/1.1 with "Connection: close": a request line,
 * headers and a Content-Length body out; a status line, headers and a body
 * (chunked, Content-Length or up to the close) in, handed over as it
 * arrives so a stream is shown as it comes. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "llm_impl.h"

static long
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* ---- the built-in client ---- */

struct url {
	char host[256], port[8];
	const char *path;
};

/* http://host[:port][/path]; 0 if the URL is one we speak. */
static int
parse_url(const char *u, struct url *out)
{
	if (strncasecmp(u, "http://", 7))
		return -1;
	const char *h = u + 7, *end;
	if (*h == '[') {
		end = strchr(h, ']');
		if (!end || (size_t)(end - h - 1) >= sizeof out->host)
			return -1;
		snprintf(out->host, sizeof out->host, "%.*s", (int)(end - h - 1), h + 1);
		end++;
	} else {
		end = h + strcspn(h, ":/?#@");
		if (*end == '@' || end == h || (size_t)(end - h) >= sizeof out->host)
			return -1;
		snprintf(out->host, sizeof out->host, "%.*s", (int)(end - h), h);
	}
	snprintf(out->port, sizeof out->port, "80");
	if (*end == ':') {
		size_t n = strspn(end + 1, "0123456789");
		if (n < 1 || n > 5)
			return -1;
		snprintf(out->port, sizeof out->port, "%.*s", (int)n, end + 1);
		end += 1 + n;
	}
	if (*end && *end != '/')
		return -1;
	out->path = *end ? end : "/";
	return 0;
}

static int
proxied(void)
{
	static const char *const vars[] = {"http_proxy", "all_proxy", "ALL_PROXY"};
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return 1;
	}
	return 0;
}

/* Waits for fd until deadline; 1 ready, 0 timed out, -1 error. */
static int
wait_fd(int fd, short events, long deadline)
{
	for (;;) {
		long left = deadline - now_ms();
		if (left <= 0)
			return 0;
		struct pollfd p = {.fd = fd, .events = events};
		int n = poll(&p, 1, (int)(left > 60000 ? 60000 : left));
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

static int
dial(const struct url *u, long connect_deadline, struct http_result *res)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai, *a;
	int gai = getaddrinfo(u->host, u->port, &hints, &ai);
	if (gai) {
		snprintf(res->error, sizeof res->error, "Could not resolve host: %.100s", u->host);
		return -1;
	}
	int fd = -1, err = 0, timed_out = 0;
	for (a = ai; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
			break;
		if (errno == EINPROGRESS) {
			int w = wait_fd(fd, POLLOUT, connect_deadline);
			socklen_t len = sizeof err;
			if (w == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
				break;
			if (w == 0)
				timed_out = 1;
		} else {
			err = errno;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0) {
		if (timed_out)
			snprintf(res->error, sizeof res->error, "Connection to %.100s port %s timed out",
			    u->host, u->port);
		else
			snprintf(res->error, sizeof res->error, "Failed to connect to %.100s port %s: %s",
			    u->host, u->port, strerror(err ? err : ECONNREFUSED));
	}
	return fd;
}

static int
send_all(int fd, const char *p, size_t n, long deadline)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -1;
			if (wait_fd(fd, POLLOUT, deadline) != 1)
				return -1;
			continue;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The reader's state: a head, then a body in one of three framings. */
struct reader {
	const struct http_request *rq;
	struct http_result *res;
	struct buf in;              /* bytes not yet used */
	int in_body;
	enum { BODY_LENGTH, BODY_CHUNKED, BODY_CLOSE } framing;
	long long left;             /* of the body or of the current chunk */
	int chunk_state;            /* 0 size line, 1 data, 2 CRLF after data, 3 trailers */
	int done;
	int aborted;
};

static int
deliver(struct reader *r, const char *p, size_t n)
{
	if (!n)
		return 0;
	if (r->rq->on_data(p, n, r->rq->arg) != n) {
		r->aborted = 1;
		return -1;
	}
	return 0;
}

/* Consumes the head from r->in once complete: 1 done, 0 need more, -1 bad. */
static int
read_head(struct reader *r)
{
	char *end = memmem(r->in.data, r->in.len, "\r\n\r\n", 4);
	if (!end)
		return r->in.len > 65536 ? -1 : 0;
	size_t headlen = (size_t)(end - r->in.data) + 4;
	long status = 0;
	long long length = -1;
	int chunked = 0;
	for (char *line = r->in.data; line < end + 2;) {
		char *nl = memmem(line, (size_t)(end + 2 - line), "\r\n", 2);
		size_t n = (size_t)(nl - line);
		if (line == r->in.data) {
			if (n < 12 || strncmp(line, "HTTP/1.", 7))
				return -1;
			status = strtol(line + 9, NULL, 10);
		} else if (n > 15 && strncasecmp(line, "content-length:", 15) == 0) {
			length = strtoll(line + 15, NULL, 10);
		} else if (n > 18 && strncasecmp(line, "transfer-encoding:", 18) == 0) {
			char v[64];
			snprintf(v, sizeof v, "%.*s", (int)(n - 18), line + 18);
			chunked = strcasestr(v, "chunked") != NULL;
		}
		r->rq->on_header(line, n + 2, r->rq->arg);
		line = nl + 2;
	}
	r->res->status = status;
	memmove(r->in.data, r->in.data + headlen, r->in.len - headlen + 1);
	r->in.len -= headlen;
	if (status >= 100 && status < 200)
		return 1;           /* an interim reply: another head follows */
	r->in_body = 1;
	if (chunked) {
		r->framing = BODY_CHUNKED;
	} else if (length >= 0) {
		r->framing = BODY_LENGTH;
		r->left = length;
		r->done = length == 0;
	} else {
		r->framing = BODY_CLOSE;
	}
	if (status == 204 || status == 304)
		r->done = 1;
	return 1;
}

/* Uses what r->in holds of the body; -1 on a framing error or an abort. */
static int
read_body(struct reader *r)
{
	if (r->framing != BODY_CHUNKED) {
		size_t n = r->in.len;
		if (r->framing == BODY_LENGTH && (long long)n > r->left)
			n = (size_t)r->left;
		if (deliver(r, r->in.data, n))
			return -1;
		if (r->framing == BODY_LENGTH) {
			r->left -= (long long)n;
			r->done = r->left == 0;
		}
		r->in.len = 0;
		return 0;
	}
	size_t pos = 0;
	while (!r->done && pos < r->in.len) {
		char *p = r->in.data + pos;
		size_t avail = r->in.len - pos;
		if (r->chunk_state == 0 || r->chunk_state == 2 || r->chunk_state == 3) {
			char *nl = memmem(p, avail, "\r\n", 2);
			if (!nl)
				break;
			size_t n = (size_t)(nl - p);
			pos += n + 2;
			if (r->chunk_state == 2) {
				if (n)
					return -1;
				r->chunk_state = 0;
			} else if (r->chunk_state == 3) {
				if (!n)
					r->done = 1;
			} else {
				char *e;
				r->left = strtoll(p, &e, 16);
				if (e == p || r->left < 0)
					return -1;
				r->chunk_state = r->left ? 1 : 3;
			}
		} else {
			size_t n = avail < (unsigned long long)r->left ? avail : (size_t)r->left;
			if (deliver(r, p, n))
				return -1;
			pos += n;
			r->left -= (long long)n;
			if (!r->left)
				r->chunk_state = 2;
		}
	}
	memmove(r->in.data, r->in.data + pos, r->in.len - pos + 1);
	r->in.len -= pos;
	return 0;
}

static int
builtin(const struct http_request *rq, const struct url *u, struct http_result *res)
{
	long start = now_ms();
	long deadline = start + rq->timeout_ms;
	long cdeadline = start + (rq->connect_timeout_ms < rq->timeout_ms ? rq->connect_timeout_ms
	    : rq->timeout_ms);
	int fd = dial(u, cdeadline, res);
	if (fd < 0)
		return HTTP_CONNECT;
	res->connected = 1;
	struct buf out = {0};
	int ipv6 = strchr(u->host, ':') != NULL;
	buf_printf(&out, "POST %s HTTP/1.1\r\nHost: %s%s%s%s%s\r\n", u->path, ipv6 ? "[" : "", u->host,
	    ipv6 ? "]" : "", strcmp(u->port, "80") ? ":" : "", strcmp(u->port, "80") ? u->port : "");
	for (const char *const *h = rq->headers; h && *h; h++) {
		size_t n = strlen(*h);
		if (n && (*h)[n - 1] != ':')        /* "Name:" removes a header in curl's terms */
			buf_printf(&out, "%s\r\n", *h);
	}
	buf_printf(&out, "Content-Length: %zu\r\nConnection: close\r\n\r\n", rq->len);
	int sent = send_all(fd, out.data, out.len, deadline) == 0 &&
	    send_all(fd, rq->body, rq->len, deadline) == 0;
	/* The head holds the key: leave no copy behind. */
	memset(out.data, 0, out.len);
	buf_free(&out);
	struct reader r = {.rq = rq, .res = res};
	int rc = HTTP_OK;
	size_t got = 0;
	if (!sent) {
		snprintf(res->error, sizeof res->error, "Failed sending the request: %s", strerror(errno));
		rc = HTTP_CUT;
		goto out;
	}
	char tmp[65536];
	while (!r.done) {
		int w = wait_fd(fd, POLLIN, deadline);
		if (w == 0) {
			snprintf(res->error, sizeof res->error,
			    "Operation timed out after %ld milliseconds with %zu bytes received",
			    now_ms() - start, got);
			rc = HTTP_TIMEOUT;
			goto out;
		}
		ssize_t n = w < 0 ? -1 : recv(fd, tmp, sizeof tmp, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			snprintf(res->error, sizeof res->error, "Failure when receiving data: %s",
			    strerror(errno));
			rc = got ? HTTP_CUT : HTTP_NOTHING;
			goto out;
		}
		if (n == 0) {
			if (r.in_body && r.framing == BODY_CLOSE)
				break;
			if (!got) {
				snprintf(res->error, sizeof res->error, "Empty reply from server");
				rc = HTTP_NOTHING;
			} else if (r.in_body && r.framing == BODY_LENGTH) {
				snprintf(res->error, sizeof res->error,
				    "transfer closed with %lld bytes remaining to read", r.left);
				rc = HTTP_CUT;
			} else {
				snprintf(res->error, sizeof res->error,
				    "transfer closed with outstanding read data remaining");
				rc = HTTP_CUT;
			}
			goto out;
		}
		got += (size_t)n;
		buf_add(&r.in, tmp, (size_t)n);
		while (!r.in_body && r.in.len) {
			int h = read_head(&r);
			if (h < 0) {
				snprintf(res->error, sizeof res->error, "not an HTTP/1.x reply");
				rc = HTTP_OTHER;
				goto out;
			}
			if (h == 0)
				break;
		}
		if (r.in_body && !r.done && read_body(&r)) {
			if (r.aborted) {
				rc = HTTP_ABORTED;
			} else {
				snprintf(res->error, sizeof res->error, "bad chunked encoding");
				rc = HTTP_CUT;
			}
			goto out;
		}
	}
out:
	buf_free(&r.in);
	close(fd);
	return rc;
}

/* ---- libcurl, loaded on first use ---- */

struct curl_api {
	void *dl;
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
};

static int
curl_load(struct curl_api *c, struct http_result *res)
{
	c->dl = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
	if (!c->dl) {
		snprintf(res->error, sizeof res->error, "https needs libcurl: %s", dlerror());
		return -1;
	}
	/* POSIX lets a data pointer hold a function pointer from dlsym. */
	*(void **)&c->easy_init = dlsym(c->dl, "curl_easy_init");
	*(void **)&c->easy_setopt = dlsym(c->dl, "curl_easy_setopt");
	*(void **)&c->easy_perform = dlsym(c->dl, "curl_easy_perform");
	*(void **)&c->easy_getinfo = dlsym(c->dl, "curl_easy_getinfo");
	*(void **)&c->easy_cleanup = dlsym(c->dl, "curl_easy_cleanup");
	*(void **)&c->easy_strerror = dlsym(c->dl, "curl_easy_strerror");
	*(void **)&c->slist_append = dlsym(c->dl, "curl_slist_append");
	*(void **)&c->slist_free_all = dlsym(c->dl, "curl_slist_free_all");
	if (!c->easy_init || !c->easy_setopt || !c->easy_perform || !c->easy_getinfo ||
	    !c->easy_cleanup || !c->easy_strerror || !c->slist_append || !c->slist_free_all) {
		snprintf(res->error, sizeof res->error, "libcurl.so.4 lacks a function llm-call needs");
		dlclose(c->dl);
		c->dl = NULL;
		return -1;
	}
	return 0;
}

struct curl_ctx {
	const struct http_request *rq;
	size_t got;
};

static size_t
curl_on_data(char *p, size_t size, size_t nmemb, void *arg)
{
	struct curl_ctx *cx = arg;
	cx->got += size * nmemb;
	return cx->rq->on_data(p, size * nmemb, cx->rq->arg);
}

static size_t
curl_on_header(char *p, size_t size, size_t nmemb, void *arg)
{
	struct curl_ctx *cx = arg;
	cx->rq->on_header(p, size * nmemb, cx->rq->arg);
	return size * nmemb;
}

static int
with_curl(const struct http_request *rq, struct http_result *res)
{
	struct curl_api c = {0};
	if (curl_load(&c, res))
		return HTTP_OTHER;
	CURL *h = c.easy_init();
	struct curl_slist *hl = NULL;
	for (const char *const *p = rq->headers; p && *p; p++)
		hl = c.slist_append(hl, *p);
	struct curl_ctx cx = {.rq = rq};
	char errbuf[CURL_ERROR_SIZE] = "";
	int rc = HTTP_OTHER;
	if (!h) {
		snprintf(res->error, sizeof res->error, "cannot initialise libcurl");
		goto out;
	}
	c.easy_setopt(h, CURLOPT_URL, rq->url);
	c.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	c.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	if (rq->body) {
		c.easy_setopt(h, CURLOPT_POST, 1L);
		c.easy_setopt(h, CURLOPT_POSTFIELDS, rq->body);
		c.easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)rq->len);
	} else {
		c.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
		c.easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
		c.easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	}
	c.easy_setopt(h, CURLOPT_HTTPHEADER, hl);
	c.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, rq->connect_timeout_ms);
	c.easy_setopt(h, CURLOPT_TIMEOUT_MS, rq->timeout_ms);
	c.easy_setopt(h, CURLOPT_WRITEFUNCTION, curl_on_data);
	c.easy_setopt(h, CURLOPT_WRITEDATA, &cx);
	c.easy_setopt(h, CURLOPT_HEADERFUNCTION, curl_on_header);
	c.easy_setopt(h, CURLOPT_HEADERDATA, &cx);
	c.easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	c.easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
	c.easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	CURLcode cc = c.easy_perform(h);
	c.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &res->status);
	curl_off_t connected = 0;
	c.easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &connected);
	res->connected = connected > 0 || res->status > 0;
	snprintf(res->error, sizeof res->error, "%s", *errbuf ? errbuf : c.easy_strerror(cc));
	switch (cc) {
	case CURLE_OK: rc = HTTP_OK; break;
	case CURLE_OPERATION_TIMEDOUT: rc = res->connected ? HTTP_TIMEOUT : HTTP_CONNECT; break;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SSL_CONNECT_ERROR: rc = HTTP_CONNECT; break;
	case CURLE_GOT_NOTHING: rc = HTTP_NOTHING; break;
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR: rc = HTTP_CUT; break;
	case CURLE_WRITE_ERROR: rc = HTTP_ABORTED; break;
	case CURLE_FILESIZE_EXCEEDED: rc = HTTP_ABORTED; break;
	default: rc = HTTP_OTHER; break;
	}
	if (rc == HTTP_OK)
		res->error[0] = 0;
out:
	if (h)
		c.easy_cleanup(h);
	/* The header list holds the key: clear it before freeing. */
	for (struct curl_slist *p = hl; p; p = p->next)
		memset(p->data, 0, strlen(p->data));
	c.slist_free_all(hl);
	dlclose(c.dl);
	return rc;
}

int
llm_http(const struct http_request *rq, struct http_result *res)
{
	memset(res, 0, sizeof *res);
	struct url u;
	const char *force = getenv("AGENTCRON_HTTP");
	if (rq->body && !(force && strcmp(force, "curl") == 0) && !proxied() && parse_url(rq->url, &u) == 0)
		return builtin(rq, &u, res);
	return with_curl(rq, res);
}
