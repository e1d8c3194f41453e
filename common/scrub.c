/* Secrets out of text (scrub.h).  A secret matches wherever each of its
 * bytes appears as itself, as a JSON escape (\u00XX, or \ and the byte)
 * or as %XX: a model that repeats a key escaped, or a page that carries it
 * in a URL, is caught like one that repeats it plainly. */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "config.h"
#include "pg_uri.h"
#include "scrub.h"
#include "store.h"

static const char mark[] = "[redacted]";

void
scrub_init(struct scrub *s)
{
	memset(s, 0, sizeof *s);
}

void
scrub_free(struct scrub *s)
{
	for (size_t i = 0; i < s->n; i++) {
		explicit_bzero(s->secrets[i], strlen(s->secrets[i]));
		free(s->secrets[i]);
	}
	free(s->secrets);
	memset(s, 0, sizeof *s);
}

void
scrub_add(struct scrub *s, const char *secret)
{
	size_t n = secret ? strlen(secret) : 0;
	if (n < SCRUB_MIN)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->secrets[i], secret) == 0)
			return;
	s->secrets = xrealloc(s->secrets, (s->n + 1) * sizeof *s->secrets);
	s->secrets[s->n++] = xstrdup(secret);
	/* Each byte at most as "\u00XX". */
	if (n * 6 > s->longest)
		s->longest = n * 6;
}

void
scrub_load(struct scrub *s, const struct config *cf, const char *store, const char *key_file)
{
	static const char *const envs[] = {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PGPASSWORD"};
	for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++)
		scrub_add(s, getenv(envs[i]));
	size_t pos = 0;
	const char *v;
	while ((v = config_secret_next(cf, &pos)))
		scrub_add(s, v);
	if (store && store_is_uri(store)) {
		char *pw = pg_uri_password(store);
		scrub_add(s, pw);
		if (pw) {
			explicit_bzero(pw, strlen(pw));
			free(pw);
		}
	}
	struct buf b = {0};
	unsigned mode;
	struct err e;
	if (key_file && config_read_private("key file", key_file, 16384, &b, &mode, &e) == ST_OK) {
		char *nl = strchr(b.data, '\n');
		if (nl)
			*nl = 0;
		str_trim(b.data);
		scrub_add(s, b.data);
	}
	buf_wipe(&b);
}

static int
hex(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* One byte of the text at p (end e): its value and how many bytes of
 * text it took, in any of the forms; 0 when p is at the end. */
static size_t
byte_at(const char *p, const char *e, int *c)
{
	if (p >= e)
		return 0;
	if (*p == '%' && e - p >= 3 && hex(p[1]) >= 0 && hex(p[2]) >= 0) {
		*c = hex(p[1]) * 16 + hex(p[2]);
		return 3;
	}
	if (*p == '\\' && e - p >= 6 && p[1] == 'u' && p[2] == '0' && p[3] == '0' &&
	    hex(p[4]) >= 0 && hex(p[5]) >= 0) {
		*c = hex(p[4]) * 16 + hex(p[5]);
		return 6;
	}
	if (*p == '\\' && e - p >= 2 && strchr("\"\\/", p[1])) {
		*c = (unsigned char)p[1];
		return 2;
	}
	*c = (unsigned char)*p;
	return 1;
}

/* How many bytes of text at p spell secret: 0 if they do not; -1 if the
 * text ends while they still could. */
static long
match(const char *p, const char *e, const char *secret)
{
	const char *q = p;
	for (const char *k = secret; *k; k++) {
		int c;
		size_t n = byte_at(q, e, &c);
		if (!n)
			return -1;
		/* An escape cut short at the end may still be this byte. */
		if (n == 1 && (*q == '%' || *q == '\\') && e - q < 6 && (unsigned char)*k != (unsigned char)*q)
			return -1;
		if (c != (unsigned char)*k)
			return 0;
		q += n;
	}
	return (long)(q - p);
}

/* text[0..n) into out; with partial, a secret's possible start at the
 * end is left out and its offset returned, else n. */
static size_t
scrub_into(const struct scrub *s, const char *text, size_t n, struct buf *out, int partial)
{
	const char *p = text, *e = text + n;
	while (p < e) {
		long best = 0;
		int cut = 0;
		for (size_t i = 0; i < s->n; i++) {
			long m = match(p, e, s->secrets[i]);
			if (m > best)
				best = m;
			cut |= m < 0;
		}
		if (best > 0) {
			buf_puts(out, mark);
			p += best;
		} else if (cut && partial) {
			return (size_t)(p - text);
		} else {
			buf_add(out, p++, 1);
		}
	}
	return n;
}

char *
scrub_text(const struct scrub *s, const char *text, size_t n)
{
	struct buf b = {0};
	if (!text)
		return NULL;
	scrub_into(s, text, n, &b, 0);
	buf_add(&b, "", 0);
	return b.data ? b.data : xstrdup("");
}

void
scrub_in_place(const struct scrub *s, char **text)
{
	if (!*text || !s->n)
		return;
	char *clean = scrub_text(s, *text, strlen(*text));
	free(*text);
	*text = clean;
}

static void
scrub_tree(const struct scrub *s, cJSON *j)
{
	for (cJSON *c = j->child; c; c = c->next) {
		if (cJSON_IsString(c) && c->valuestring) {
			char *clean = scrub_text(s, c->valuestring, strlen(c->valuestring));
			if (clean && strcmp(clean, c->valuestring) != 0)
				cJSON_SetValuestring(c, clean);
			free(clean);
		}
		scrub_tree(s, c);
	}
}

void
scrub_json_in_place(const struct scrub *s, char **json)
{
	if (!*json || !s->n)
		return;
	cJSON *j = cJSON_Parse(*json);
	char *printed = NULL;
	if (j) {
		scrub_tree(s, j);
		printed = cJSON_PrintUnformatted(j);
		cJSON_Delete(j);
	}
	if (printed) {
		free(*json);
		*json = printed;
	}
	scrub_in_place(s, json);
}

void
scrub_stream_init(struct scrub_stream *st, const struct scrub *s)
{
	st->s = s;
	memset(&st->held, 0, sizeof st->held);
}

void
scrub_stream_put(struct scrub_stream *st, const char *p, size_t n, struct buf *out)
{
	buf_add(&st->held, p, n);
	size_t done = scrub_into(st->s, st->held.data, st->held.len, out, 1);
	memmove(st->held.data, st->held.data + done, st->held.len - done);
	st->held.len -= done;
}

void
scrub_stream_end(struct scrub_stream *st, struct buf *out)
{
	if (st->held.len)
		scrub_into(st->s, st->held.data, st->held.len, out, 0);
	buf_free(&st->held);
}
