/* Attachments: files and URLs handed to the model with the prompt.  The
 * kind is read from the bytes (an image's magic number, else UTF-8 text),
 * never from a name or a Content-Type that may lie. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
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

static int
fetch_url(struct http *h, const char *url, long timeout_ms, struct buf *out, struct err *e)
{
	static const char *const headers[] = {"User-Agent: agentcron-llm-call/" AC_VERSION, NULL};
	struct fetch f = {0};
	struct http_request rq = {
		.url = url, .headers = headers, .follow = 1, .connect_timeout_ms = 10000L,
		.timeout_ms = timeout_ms > 0 ? timeout_ms : 60000L,
		.on_header = on_header, .on_data = on_data, .arg = &f,
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

static int
read_file(const char *path, const struct guard *g, struct buf *out, struct err *e)
{
	/* O_NONBLOCK: a FIFO opens at once, to be refused rather than waited on. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return err_set(e, ST_INVALID, "cannot read attachment '%s': %s", path, strerror(errno));
	if (guarded(g, path, fd)) {
		close(fd);
		return err_set(e, ST_INVALID, "attachment '%s' is never sent to a model: it is "
		    "agentcron's config or store, a key file, ~/.pgpass or a file of /proc", path);
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
    struct llm_attachment *a, struct err *e)
{
	memset(a, 0, sizeof *a);
	struct buf b = {0};
	int url = str_casecmp_prefix(spec, "http://") == 0 || str_casecmp_prefix(spec, "https://") == 0;
	int rc = url ? fetch_url(h, spec, timeout_ms, &b, e) : read_file(spec, g, &b, e);
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
