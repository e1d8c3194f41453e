/* Attachments: files and URLs handed to the model with the prompt.  The
 * kind is read from the bytes (an image's magic number, else UTF-8 text),
 * never from a name or a Content-Type that may lie. */
#define _DEFAULT_SOURCE /* realpath, O_NOFOLLOW, O_DIRECTORY */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "llm_impl.h"
#include "utf8.h"

struct fetch {
	struct buf b;
	int too_big;
	const struct llm_attach_rules *rules;
};

static size_t
on_data(const char *p, size_t n, void *arg)
{
	struct fetch *f = arg;
	if (f->b.len + n > (size_t)LLM_ATTACH_MAX) {
		f->too_big = 1;
		return 0;
	}
	buf_add(&f->b, p, n);
	return n;
}

static void
on_header(const char *line, size_t n, void *arg)
{
	/* A redirect's body is not the attachment. */
	struct fetch *f = arg;
	if (n > 5 && strncmp(line, "HTTP/", 5) == 0)
		f->b.len = 0;
}

/* ---- where an agent's URL may lead ---- */

/* An address as 16 bytes (IPv4 as ::ffff:a.b.c.d) and its port. */
struct addr {
	unsigned char b[16];
	int port;
};

static int
addr_of(const struct sockaddr *sa, struct addr *a)
{
	memset(a, 0, sizeof *a);
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		a->b[10] = a->b[11] = 0xff;
		memcpy(a->b + 12, &in->sin_addr, 4);
		a->port = ntohs(in->sin_port);
		return 1;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
		memcpy(a->b, &in6->sin6_addr, 16);
		a->port = ntohs(in6->sin6_port);
		return 1;
	}
	return 0;
}

static int
prefix_eq(const unsigned char *x, const unsigned char *y, int bits)
{
	int whole = bits / 8, rest = bits % 8;
	if (memcmp(x, y, (size_t)whole) != 0)
		return 0;
	return !rest || ((x[whole] ^ y[whole]) & (0xff << (8 - rest))) == 0;
}

/* Loopback, link-local, private, shared, multicast, reserved or
 * unspecified: anything but the public internet. */
static int
inside(const struct addr *a)
{
	static const struct {
		unsigned char b[16];
		int bits;
	} v4[] = {
		{{0}, 8}, {{10}, 8}, {{100, 64}, 10}, {{127}, 8}, {{169, 254}, 16}, {{172, 16}, 12},
		{{192, 0, 0}, 24}, {{192, 168}, 16}, {{198, 18}, 15}, {{224}, 3},
	}, v6[] = {
		{{0}, 127}, {{0xfc}, 7}, {{0xfe, 0x80}, 10}, {{0xfe, 0xc0}, 10}, {{0xff}, 8},
	};
	static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	static const unsigned char nat64[12] = {0, 0x64, 0xff, 0x9b};
	static const unsigned char compat[12] = {0};
	const unsigned char *p4 = NULL;
	if (memcmp(a->b, mapped, 12) == 0 || memcmp(a->b, nat64, 12) == 0 ||
	    (memcmp(a->b, compat, 12) == 0 && (a->b[12] | a->b[13])))
		p4 = a->b + 12;
	if (p4) {
		for (size_t i = 0; i < sizeof v4 / sizeof v4[0]; i++)
			if (prefix_eq(p4, v4[i].b, v4[i].bits))
				return 1;
		return 0;
	}
	for (size_t i = 0; i < sizeof v6 / sizeof v6[0]; i++)
		if (prefix_eq(a->b, v6[i].b, v6[i].bits))
			return 1;
	return 0;
}

/* "ADDR", "ADDR/BITS", "ADDR:PORT" or "[V6]:PORT" to an address, its
 * prefix length and port (0: any). */
static int
allow_parse(const char *entry, struct addr *a, int *bits)
{
	char host[64];
	const char *port = NULL, *slash;
	size_t n;
	memset(a, 0, sizeof *a);
	if (entry[0] == '[') {
		const char *end = strchr(entry, ']');
		if (!end || (end[1] && end[1] != ':'))
			return 0;
		n = (size_t)(end - entry - 1);
		if (n >= sizeof host)
			return 0;
		memcpy(host, entry + 1, n);
		host[n] = 0;
		port = end[1] ? end + 2 : NULL;
	} else {
		const char *colon = strchr(entry, ':');
		int v4 = colon && !strchr(colon + 1, ':');
		n = v4 ? (size_t)(colon - entry) : strlen(entry);
		if (n >= sizeof host)
			return 0;
		memcpy(host, entry, n);
		host[n] = 0;
		port = v4 ? colon + 1 : NULL;
	}
	*bits = -1;
	if ((slash = strchr(host, '/'))) {
		char *end;
		long b = strtol(slash + 1, &end, 10);
		if (end == slash + 1 || *end || b < 0 || b > 128 || port)
			return 0;
		*bits = (int)b;
		host[slash - host] = 0;
	}
	struct in_addr in;
	if (inet_pton(AF_INET, host, &in) == 1) {
		a->b[10] = a->b[11] = 0xff;
		memcpy(a->b + 12, &in, 4);
		if (*bits > 32)
			return 0;
		*bits = *bits < 0 ? 128 : 96 + *bits;
	} else if (inet_pton(AF_INET6, host, a->b) == 1) {
		if (*bits < 0)
			*bits = 128;
	} else {
		return 0;
	}
	if (port) {
		char *end;
		long p = strtol(port, &end, 10);
		if (end == port || *end || p < 1 || p > 65535)
			return 0;
		a->port = (int)p;
	}
	return 1;
}

int
llm_attach_allow_ok(const char *entry)
{
	struct addr a;
	int bits;
	return allow_parse(entry, &a, &bits);
}

static int
may_connect(const struct sockaddr *sa, char *why, size_t n, void *arg)
{
	const struct llm_attach_rules *r = ((struct fetch *)arg)->rules;
	struct addr a, w;
	int bits;
	char text[INET6_ADDRSTRLEN] = "?";
	if (!addr_of(sa, &a)) {
		snprintf(why, n, "refused to connect: not an internet address");
		return 0;
	}
	if (!inside(&a))
		return 1;
	for (size_t i = 0; i < r->nallow; i++)
		if (allow_parse(r->allow[i], &w, &bits) && prefix_eq(a.b, w.b, bits) &&
		    (!w.port || w.port == a.port))
			return 1;
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, a.b + 12, text, sizeof text);
	else
		inet_ntop(AF_INET6, a.b, text, sizeof text);
	snprintf(why, n, "refused to connect to %s, a loopback, link-local or private address "
	    "(an agent's task reaches only public ones, or those of agent_url_allow)", text);
	return 0;
}

static int
fetch_url(struct http *h, const char *url, long timeout_ms, const struct llm_attach_rules *rules,
    struct buf *out, struct err *e)
{
	static const char *const headers[] = {"User-Agent: agentcron-llm-call/" AC_VERSION, NULL};
	struct fetch f = {.rules = rules};
	struct http_request rq = {
		.url = url, .headers = headers, .follow = 1, .connect_timeout_ms = 10000L,
		.timeout_ms = timeout_ms > 0 ? timeout_ms : 60000L,
		.on_header = on_header, .on_data = on_data, .arg = &f,
		.may_connect = rules && rules->agent_made ? may_connect : NULL,
	};
	struct http_result res;
	int hc = http_perform(h, &rq, &res);
	int rc = ST_OK;
	if (f.too_big)
		rc = err_set(e, ST_INVALID, "attachment '%s' is larger than %ld MiB", url,
		    LLM_ATTACH_MAX >> 20);
	else if (hc != HTTP_OK)
		rc = err_set(e, ST_ERR, "cannot fetch attachment '%s': %s", url, res.error);
	else if (res.status >= 400)
		rc = err_set(e, ST_ERR, "cannot fetch attachment '%s': HTTP %ld", url, res.status);
	if (rc) {
		buf_free(&f.b);
		return rc;
	}
	buf_add(&f.b, "", 0);
	*out = f.b;
	return ST_OK;
}

/* The file as opened, by its device and inode, and where it resolves to. */
static int
guarded(const struct guard *g, const char *path, int fd)
{
	struct stat sb;
	if (!g)
		return 0;
	if (fstat(fd, &sb) != 0)
		return 1;
	char *r = realpath(path, NULL);
	int no = guard_refuses(g, r, &sb);
	free(r);
	return no;
}

/* path opened beneath dir: each component by itself, relative to the
 * one before, never through a link, never "..", so a directory swapped
 * for a link since the task was saved leads nowhere.  -1, errno set. */
static int
open_beneath(const char *dir, const char *rest, int flags)
{
	int at = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd = -1;
	const char *p = rest + strspn(rest, "/");
	while (at >= 0) {
		char name[NAME_MAX + 1];
		size_t len = strcspn(p, "/");
		if (!len || len > NAME_MAX) {
			errno = len ? ENAMETOOLONG : EISDIR;
			break;
		}
		memcpy(name, p, len);
		name[len] = 0;
		p += len;
		p += strspn(p, "/");
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
			errno = EACCES;
			break;
		}
		if (!*p) {
			fd = openat(at, name, flags | O_NOFOLLOW);
			break;
		}
		int sub = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat sb;
		/* A link to a directory is "not a directory" to O_NOFOLLOW: say link. */
		if (sub < 0 && errno == ENOTDIR && fstatat(at, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(sb.st_mode))
			errno = ELOOP;
		int saved = errno;
		close(at);
		errno = saved;
		at = sub;
	}
	int saved = errno;
	if (at >= 0)
		close(at);
	errno = saved;
	return fd;
}

static int
open_file(const char *path, const struct llm_attach_rules *r, struct err *e)
{
	/* O_NONBLOCK: a FIFO opens at once, to be refused rather than waited on. */
	int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	if (!r || !r->agent_made)
		return open(path, flags);
	for (size_t i = 0; i < r->ndirs; i++) {
		size_t n = strlen(r->dirs[i]);
		int root = n == 1 && r->dirs[i][0] == '/';
		if (root || (strncmp(path, r->dirs[i], n) == 0 && path[n] == '/'))
			return open_beneath(r->dirs[i], path + (root ? 1 : n + 1), flags);
	}
	errno = 0;
	err_set(e, ST_INVALID, "attachment '%s' of an agent's task is not under a directory of "
	    "agent_attach_dirs", path);
	return -1;
}

static int
refuse_guarded(const char *path, struct err *e)
{
	return err_set(e, ST_INVALID, "attachment '%s' is never sent to a model: it is "
	    "agentcron's config or store, a key file, a PostgreSQL password or service file or a "
	    "file of /proc", path);
}

static int
read_file(const char *path, const struct guard *g, const struct llm_attach_rules *rules,
    struct buf *out, struct err *e)
{
	/* By name first: a file of /proc this user may not open is still refused as guarded. */
	char *resolved = g ? realpath(path, NULL) : NULL;
	int refused = resolved && guard_refuses(g, resolved, NULL);
	free(resolved);
	if (refused)
		return refuse_guarded(path, e);
	int fd = open_file(path, rules, e);
	if (fd < 0 && !errno)
		return ST_INVALID;
	if (fd < 0 && errno == ELOOP)
		return err_set(e, ST_INVALID, "cannot read attachment '%s': a link on its way, which "
		    "an agent's task never follows", path);
	if (fd < 0)
		return err_set(e, ST_INVALID, "cannot read attachment '%s': %s", path, strerror(errno));
	if (guarded(g, path, fd)) {
		close(fd);
		return refuse_guarded(path, e);
	}
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || fcntl(fd, F_SETFL, 0) != 0) {
		int err = errno;
		close(fd);
		return err_set(e, ST_INVALID, "cannot read attachment '%s': %s", path,
		    S_ISDIR(sb.st_mode) ? "it is a directory" : !S_ISREG(sb.st_mode)
		    ? "it is not a regular file" : strerror(err));
	}
	struct buf b = {0};
	errno = 0;
	int r = buf_read_fd(&b, fd, (size_t)LLM_ATTACH_MAX);
	int saved = errno;
	close(fd);
	if (r != 0) {
		buf_free(&b);
		return saved ? err_set(e, ST_INVALID, "cannot read attachment '%s': %s", path, strerror(saved))
			     : err_set(e, ST_INVALID, "attachment '%s' is larger than %ld MiB", path,
				 LLM_ATTACH_MAX >> 20);
	}
	*out = b;
	return ST_OK;
}

int
llm_attach_load(struct http *h, const char *spec, long timeout_ms, const struct guard *g,
    const struct llm_attach_rules *rules, struct llm_attachment *a, struct err *e)
{
	memset(a, 0, sizeof *a);
	struct buf b = {0};
	int url = str_casecmp_prefix(spec, "http://") == 0 || str_casecmp_prefix(spec, "https://") == 0;
	int rc = url ? fetch_url(h, spec, timeout_ms, rules, &b, e) : read_file(spec, g, rules, &b, e);
	if (rc)
		return rc;
	const unsigned char *p = (const unsigned char *)b.data;
	const char *mime = llm_image_type(p, b.len);
	if (!mime && (memchr(p, 0, b.len) || !utf8_valid(b.data, b.len))) {
		buf_free(&b);
		return err_set(e, ST_INVALID,
		    "attachment '%s' is neither UTF-8 text nor a PNG, JPEG, GIF or WebP image", spec);
	}
	a->name = xstrdup(spec);
	a->mime = mime;
	a->data = (unsigned char *)b.data;
	a->len = b.len;
	return ST_OK;
}

void
llm_attach_free(struct llm_attachment *a)
{
	free(a->name);
	free(a->data);
	memset(a, 0, sizeof *a);
}
