/* task-web's bounded search for short texts: see web_search.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "web_search.h"

int
web_search_short(const char *text)
{
	size_t chars = 0;
	for (const char *s = text; *s && chars < 3; s++)
		chars += ((unsigned char)*s & 0xC0) != 0x80;
	return chars < 3;
}

int
web_search_after(const struct web_req *rq, struct web_keyset *from)
{
	const char *s = web_arg(rq->query, rq->nquery, "after");
	*from = WEB_KEYSET_START;
	if (!s)
		return 1;
	char *end;
	errno = 0;
	long long key = strtoll(s, &end, 10);
	if (end == s || *end != '.' || errno)
		return 0;
	const char *q = end + 1;
	long long seq = strtoll(q, &end, 10);
	if (end == q || *end || errno)
		return 0;
	from->key = key;
	from->seq = seq;
	return 1;
}

/* s percent-encoded as a query's value. */
static void
url_arg(struct buf *b, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (isalnum(*c) || strchr("-._~", *c))
			buf_add(b, (const char *)c, 1);
		else
			buf_printf(b, "%%%02X", *c);
	}
}

void
web_search_next(struct buf *b, const char *path, const struct web_req *rq,
    const char *text, const char *const keep[], const char *sep, struct web_keyset next)
{
	buf_printf(b, "%s?q=", path);
	url_arg(b, text ? text : "");
	for (size_t i = 0; keep[i]; i++) {
		const char *v = web_arg(rq->query, rq->nquery, keep[i]);
		if (v && *v) {
			buf_printf(b, "%s%s=", sep, keep[i]);
			url_arg(b, v);
		}
	}
	buf_printf(b, "%safter=%lld.%lld", sep, (long long)next.key, (long long)next.seq);
}

void
web_search_here(struct buf *b, const char *path, const struct web_req *rq)
{
	buf_puts(b, path);
	for (size_t i = 0; i < rq->nquery; i++) {
		buf_puts(b, i ? "&" : "?");
		url_arg(b, rq->query[i].key);
		buf_puts(b, "=");
		url_arg(b, rq->query[i].value);
	}
}
