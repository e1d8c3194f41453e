/* One libcurl easy handle, reset before each request: curl_easy_reset
 * forgets the options but keeps the live connections, the TLS session
 * cache and the DNS cache, which is what makes the second request to a
 * server cost no connect and no handshake. */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "http.h"

struct http {
	CURL *h;
	long connections;
	char *cainfo, *capath;       /* from the environment, read once */
};

static const char *
env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

int
http_new(struct http **out, struct err *e)
{
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return err_set(e, ST_ERR, "cannot initialise libcurl");
	CURL *h = curl_easy_init();
	if (!h) {
		curl_global_cleanup();
		return err_set(e, ST_ERR, "cannot initialise libcurl");
	}
	struct http *x = xcalloc(1, sizeof *x);
	x->h = h;
	/* curl(1)'s reading: CURL_CA_BUNDLE wins over SSL_CERT_FILE. */
	const char *ca = env("CURL_CA_BUNDLE");
	if (ca) {
		x->cainfo = xstrdup(ca);
	} else {
		if ((ca = env("SSL_CERT_FILE")))
			x->cainfo = xstrdup(ca);
		if ((ca = env("SSL_CERT_DIR")))
			x->capath = xstrdup(ca);
	}
	*out = x;
	return ST_OK;
}

void
http_free(struct http *x)
{
	if (!x)
		return;
	curl_easy_cleanup(x->h);
	curl_global_cleanup();
	free(x->cainfo);
	free(x->capath);
	free(x);
}

long
http_connections(const struct http *x)
{
	return x->connections;
}

struct ctx {
	const struct http_request *rq;
	char refused[160];          /* why may_connect said no */
};

static curl_socket_t
on_open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct ctx *cx = arg;
	(void)purpose;
	if (!cx->rq->may_connect(&a->addr, cx->refused, sizeof cx->refused, cx->rq->arg))
		return CURL_SOCKET_BAD;
	return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

static size_t
on_data(char *p, size_t size, size_t nmemb, void *arg)
{
	const struct http_request *rq = ((struct ctx *)arg)->rq;
	return rq->on_data ? rq->on_data(p, size * nmemb, rq->arg) : size * nmemb;
}

static size_t
on_header(char *p, size_t size, size_t nmemb, void *arg)
{
	const struct http_request *rq = ((struct ctx *)arg)->rq;
	if (rq->on_header)
		rq->on_header(p, size * nmemb, rq->arg);
	return size * nmemb;
}

static int
outcome(CURLcode cc, int sent)
{
	switch (cc) {
	case CURLE_OK: return HTTP_OK;
	case CURLE_OPERATION_TIMEDOUT: return sent ? HTTP_TIMEOUT : HTTP_CONNECT;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SSL_CONNECT_ERROR: return HTTP_CONNECT;
	case CURLE_GOT_NOTHING: return HTTP_NOTHING;
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM: return HTTP_CUT;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE: return HTTP_CERT;
	case CURLE_WRITE_ERROR:
	case CURLE_FILESIZE_EXCEEDED: return HTTP_ABORTED;
	default: return HTTP_OTHER;
	}
}

/* The list holds the key: cleared before it is freed. */
static void
free_headers(struct curl_slist *hl)
{
	for (struct curl_slist *q = hl; q; q = q->next)
		explicit_bzero(q->data, strlen(q->data));
	curl_slist_free_all(hl);
}

int
http_perform(struct http *x, const struct http_request *rq, struct http_result *res)
{
	memset(res, 0, sizeof *res);
	CURL *h = x->h;
	struct curl_slist *hl = NULL;
	int bad = 0;
	for (const char *const *p = rq->headers; p && *p && !bad; p++) {
		struct curl_slist *n = curl_slist_append(hl, *p);
		if (n)
			hl = n;
		bad = !n;
	}
	struct ctx cx = {rq, ""};
	char errbuf[CURL_ERROR_SIZE] = "";
	curl_easy_reset(h);
	bad |= curl_easy_setopt(h, CURLOPT_URL, rq->url) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK;
	if (rq->body) {
		bad |= curl_easy_setopt(h, CURLOPT_POSTFIELDS, rq->body) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)rq->len) != CURLE_OK;
	}
	if (rq->method)
		bad |= curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, rq->method) != CURLE_OK;
	if (rq->follow) {
		bad |= curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") != CURLE_OK;
	}
	bad |= curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, rq->connect_timeout_ms) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, rq->timeout_ms) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_WRITEDATA, &cx) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_HEADERDATA, &cx) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "") != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L) != CURLE_OK;
	if (rq->may_connect) {
		bad |= curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, on_open_socket) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, &cx) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_PROXY, "") != CURLE_OK;
	}
	if (x->cainfo)
		bad |= curl_easy_setopt(h, CURLOPT_CAINFO, x->cainfo) != CURLE_OK;
	if (x->capath)
		bad |= curl_easy_setopt(h, CURLOPT_CAPATH, x->capath) != CURLE_OK;
	/* HTTP/2 where the server offers it in the TLS handshake; a libcurl
	 * built without it says no and speaks HTTP/1.1. */
	curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	if (bad) {
		snprintf(res->error, sizeof res->error, "libcurl refused an option or ran out of memory");
		free_headers(hl);
		return HTTP_OTHER;
	}
	CURLcode cc = curl_easy_perform(h);
	long connects = 0, reqsize = 0;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &res->status);
	if (curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK)
		x->connections += connects;
	curl_easy_getinfo(h, CURLINFO_REQUEST_SIZE, &reqsize);
	res->sent = reqsize > 0 || res->status > 0;
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, NULL);
	free_headers(hl);
	int rc = outcome(cc, res->sent);
	if (rc != HTTP_OK && *cx.refused)
		snprintf(res->error, sizeof res->error, "%s", cx.refused);
	else if (rc != HTTP_OK)
		snprintf(res->error, sizeof res->error, "%s", *errbuf ? errbuf : curl_easy_strerror(cc));
	return rc;
}

/* p[0..n) without the blanks at either end. */
static const char *
trim_slice(const char *p, size_t *n)
{
	while (*n && strchr(" \t\r\n", *p)) {
		p++;
		(*n)--;
	}
	while (*n && strchr(" \t\r\n", p[*n - 1]))
		(*n)--;
	return p;
}

int
http_line_read(const char *p, size_t n, struct http_line *l)
{
	memset(l, 0, sizeof *l);
	p = trim_slice(p, &n);
	if (n >= 5 && memcmp(p, "HTTP/", 5) == 0) {
		const char *sp = memchr(p, ' ', n), *end = p + n;
		for (const char *q = sp ? sp + 1 : end; q < end && *q >= '0' && *q <= '9'; q++) {
			l->status = l->status * 10 + (*q - '0');
			if (l->status > 999)
				break;
			l->value = q + 1;
		}
		l->nvalue = l->value ? (size_t)(end - l->value) : 0;
		l->value = l->value ? trim_slice(l->value, &l->nvalue) : "";
		return HTTP_LINE_STATUS;
	}
	const char *colon = memchr(p, ':', n);
	if (!colon)
		return HTTP_LINE_OTHER;
	l->name = p;
	l->nname = (size_t)(colon - p);
	l->name = trim_slice(l->name, &l->nname);
	l->nvalue = n - (size_t)(colon + 1 - p);
	l->value = trim_slice(colon + 1, &l->nvalue);
	return HTTP_LINE_FIELD;
}

int
http_line_is(const struct http_line *l, const char *name)
{
	return l->name && strlen(name) == l->nname && strncasecmp(l->name, name, l->nname) == 0;
}

char *
http_line_value(const struct http_line *l)
{
	return xstrndup(l->value ? l->value : "", l->nvalue);
}

int64_t
http_retry_after(const char *v, int64_t now)
{
	char *end;
	errno = 0;
	long long s = strtoll(v, &end, 10);
	if (end != v && !*end && s >= 0 && isdigit((unsigned char)*v))
		return errno ? INT32_MAX : s;
	/* curl_getdate reads the three forms RFC 9110 names (IMF-fixdate,
	 * RFC 850, asctime); a word alone is none of them. */
	time_t t = curl_getdate(v, NULL);
	if (t == (time_t)-1 || !strpbrk(v, " ,"))
		return -1;
	return (int64_t)t > now ? (int64_t)t - now : 0;
}
