/* The secrets of a PostgreSQL URI, read as libpq reads it (its
 * conninfo_uri_parse_options): the user information runs to the first '@'
 * before any '/', the password after its first ':'; query keys and values
 * are percent-decoded, so "pass%77ord=" is password=.  Any key that
 * decodes to something holding "password" (sslpassword too), or does not
 * decode at all, is a secret parameter. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pg_uri.h"
#include "util.h"

/* s[0..n) percent-decoded into a new string; NULL if malformed. */
static char *
decode(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			*o++ = s[i];
			continue;
		}
		if (i + 2 >= n || !isxdigit((unsigned char)s[i + 1]) || !isxdigit((unsigned char)s[i + 2])) {
			free(out);
			return NULL;
		}
		char hex[3] = {s[i + 1], s[i + 2], 0};
		*o++ = (char)strtol(hex, NULL, 16);
		i += 2;
	}
	*o = 0;
	return out;
}

static int
secret_key(const char *key, size_t n)
{
	char *k = decode(key, n);
	if (!k)
		return 1;
	for (char *p = k; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	int secret = strstr(k, "password") != NULL;
	free(k);
	return secret;
}

/* ---- connection strings: key = value settings, as libpq's
 * conninfo_parse reads them (a value quoted in '' or bare up to a space,
 * a backslash taking the next character as it is) ---- */

/* fn for each setting of s: its key, the value as written (quotes
 * included) and as libpq reads it (decoded, to free). */
static void
conninfo_each(const char *s, void (*fn)(const char *key, size_t klen, const char *raw, size_t rlen,
    const char *val, void *arg), void *arg)
{
	while (*s) {
		s += strspn(s, " \t\n\r\f\v");
		if (!*s)
			break;
		const char *key = s;
		size_t klen = strcspn(s, "= \t\n\r\f\v");
		s += klen;
		s += strspn(s, " \t\n\r\f\v");
		if (*s != '=')
			break;
		s++;
		s += strspn(s, " \t\n\r\f\v");
		const char *raw = s;
		struct buf v = {0};
		buf_puts(&v, "");
		int quoted = *s == '\'';
		s += quoted;
		while (*s && (quoted ? *s != '\'' : !strchr(" \t\n\r\f\v", *s))) {
			if (*s == '\\' && s[1])
				s++;
			buf_add(&v, s++, 1);
		}
		s += quoted && *s == '\'';
		fn(key, klen, raw, (size_t)(s - raw), v.data, arg);
		buf_wipe(&v);
	}
}

struct conninfo_mask {
	struct buf *out;
	int n;
};

static void
mask_one(const char *key, size_t klen, const char *raw, size_t rlen, const char *val, void *arg)
{
	struct conninfo_mask *m = arg;
	(void)val;
	if (secret_key(key, klen))
		return;
	if (m->n++)
		buf_puts(m->out, " ");
	buf_add(m->out, key, klen);
	buf_puts(m->out, "=");
	buf_add(m->out, raw, rlen);
}

static void
password_one(const char *key, size_t klen, const char *raw, size_t rlen, const char *val, void *arg)
{
	char **pw = arg;
	(void)raw;
	(void)rlen;
	if (!*pw && klen == 8 && strncmp(key, "password", 8) == 0)
		*pw = xstrdup(val);
}

struct conninfo_secrets {
	void (*fn)(const char *s, size_t n, void *arg);
	void *arg;
};

static void
secret_one(const char *key, size_t klen, const char *raw, size_t rlen, const char *val, void *arg)
{
	struct conninfo_secrets *x = arg;
	if (!secret_key(key, klen))
		return;
	x->fn(raw, rlen, x->arg);
	x->fn(val, strlen(val), x->arg);
}

int
pg_conninfo_is(const char *s)
{
	s += strspn(s, " \t\n\r\f\v");
	size_t k = strspn(s, "abcdefghijklmnopqrstuvwxyz_");
	return k > 0 && s[k + strspn(s + k, " \t")] == '=';
}

/* The parts of a URI: where its user information and query begin. */
struct parts {
	const char *rest;       /* after "://" */
	const char *at;         /* the '@' ending the user information, or NULL */
	const char *colon;      /* the ':' before the password, or NULL */
	const char *query;      /* the '?', or NULL */
};

static int
split(const char *uri, struct parts *p)
{
	const char *s = strstr(uri, "://");
	if (!s)
		return -1;
	p->rest = s + 3;
	size_t to = strcspn(p->rest, "@/");
	p->at = p->rest[to] == '@' ? p->rest + to : NULL;
	p->colon = p->at ? memchr(p->rest, ':', (size_t)(p->at - p->rest)) : NULL;
	p->query = strchr(p->at ? p->at : p->rest, '?');
	return 0;
}

void
pg_uri_mask(const char *uri, char *buf, size_t n)
{
	struct parts p;
	struct buf b = {0};
	buf_puts(&b, "");
	if (pg_conninfo_is(uri)) {
		struct conninfo_mask m = {&b, 0};
		conninfo_each(uri, mask_one, &m);
	} else if (split(uri, &p) == 0) {
		buf_add(&b, uri, (size_t)(p.rest - uri));
		if (p.at) {
			buf_add(&b, p.rest, (size_t)((p.colon ? p.colon : p.at) - p.rest));
			buf_puts(&b, "@");
		}
		const char *host = p.at ? p.at + 1 : p.rest;
		buf_add(&b, host, p.query ? (size_t)(p.query - host) : strlen(host));
		int first = 1;
		for (const char *q = p.query ? p.query + 1 : ""; *q;) {
			size_t len = strcspn(q, "&"), key = strcspn(q, "=&");
			if (len && !secret_key(q, key)) {
				buf_puts(&b, first ? "?" : "&");
				buf_add(&b, q, len);
				first = 0;
			}
			q += len;
			q += *q == '&';
		}
	}
	snprintf(buf, n, "%s", b.data);
	buf_free(&b);
}

/* Every secret of uri, as given and decoded, for fn. */
static void
each_secret(const char *uri, void (*fn)(const char *s, size_t n, void *arg), void *arg)
{
	struct parts p;
	if (pg_conninfo_is(uri)) {
		struct conninfo_secrets x = {fn, arg};
		conninfo_each(uri, secret_one, &x);
		return;
	}
	if (split(uri, &p))
		return;
	struct span { const char *s; size_t n; } raw[64];
	int k = 0;
	if (p.colon)
		raw[k++] = (struct span){p.colon + 1, (size_t)(p.at - p.colon - 1)};
	for (const char *q = p.query ? p.query + 1 : ""; *q && k < 64;) {
		size_t len = strcspn(q, "&"), key = strcspn(q, "=&");
		if (key < len && secret_key(q, key))
			raw[k++] = (struct span){q + key + 1, len - key - 1};
		q += len;
		q += *q == '&';
	}
	for (int i = 0; i < k; i++) {
		fn(raw[i].s, raw[i].n, arg);
		char *d = decode(raw[i].s, raw[i].n);
		if (d)
			fn(d, strlen(d), arg);
		free(d);
	}
}

char *
pg_uri_password(const char *uri)
{
	struct parts p;
	char *pw = NULL;
	if (pg_conninfo_is(uri)) {
		conninfo_each(uri, password_one, &pw);
		return pw;
	}
	if (split(uri, &p))
		return NULL;
	if (p.colon) {
		pw = decode(p.colon + 1, (size_t)(p.at - p.colon - 1));
		if (pw)
			return pw;
	}
	/* Else the first password= parameter that decodes. */
	for (const char *q = p.query ? p.query + 1 : ""; *q;) {
		size_t len = strcspn(q, "&"), key = strcspn(q, "=&");
		char *k = key < len ? decode(q, key) : NULL;
		if (k && strcmp(k, "password") == 0)
			pw = decode(q + key + 1, len - key - 1);
		free(k);
		if (pw)
			return pw;
		q += len;
		q += *q == '&';
	}
	return NULL;
}

/* s with every occurrence of what (n bytes) replaced by with. */
static void
replace(struct buf *s, const char *what, size_t n, const char *with)
{
	if (!n || !s->data)
		return;
	struct buf b = {0};
	buf_puts(&b, "");
	for (const char *p = s->data; *p;) {
		if (strncmp(p, what, n) == 0) {
			buf_puts(&b, with);
			p += n;
		} else {
			buf_add(&b, p++, 1);
		}
	}
	buf_wipe(s);
	*s = b;
}

static void
scrub_one(const char *s, size_t n, void *arg)
{
	replace(arg, s, n, "***");
}

void
pg_uri_scrub(char *msg, size_t cap, const char *uri)
{
	char masked[2048];
	struct buf b = {0};
	buf_puts(&b, msg);
	pg_uri_mask(uri, masked, sizeof masked);
	replace(&b, uri, strlen(uri), masked);
	each_secret(uri, scrub_one, &b);
	if (cap)
		snprintf(msg, cap, "%s", b.data);
	buf_wipe(&b);
}
