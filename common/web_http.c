/* task-web's requests and answers below the routes (web_http.h): form
 * and query arguments, HTML escaping, JSON and error answers, the failed
 * logins counted per address, and bearer tokens looked up in the store. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "err_line.h"
#include "store_web.h"
#include "task_json.h"
#include "web_crypto.h"
#include "web_http.h"

/* ---- forms, queries and answers ---- */

const char *
web_arg(const struct web_kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(kv[i].key, key) == 0)
			return kv[i].value;
	return NULL;
}

/* s[0..n) decoded; *nul set when it held a NUL (%00 or a byte), which
 * would end the C string there. */
static char *
url_decode(const char *s, size_t n, int *nul)
{
	char *out = xmalloc(n + 1), *o = out;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '+') {
			*o++ = ' ';
		} else if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2])) {
			char hex[3] = {s[i + 1], s[i + 2], 0};
			*o = (char)strtol(hex, NULL, 16);
			*nul |= !*o++;
			i += 2;
		} else {
			*nul |= !s[i];
			*o++ = s[i];
		}
	}
	*o = 0;
	return out;
}

struct web_kv *
web_form_parse(const char *body, size_t n, size_t *count, int *nul)
{
	struct web_kv *kv = NULL;
	size_t k = 0;
	*nul = 0;
	const char *p = body, *end = body + n;
	while (p < end) {
		const char *amp = memchr(p, '&', (size_t)(end - p));
		const char *stop = amp ? amp : end, *eq = memchr(p, '=', (size_t)(stop - p));
		if (stop > p) {
			kv = xrealloc(kv, (k + 1) * sizeof *kv);
			kv[k].key = url_decode(p, (size_t)((eq ? eq : stop) - p), nul);
			kv[k].value = eq ? url_decode(eq + 1, (size_t)(stop - eq - 1), nul) : xstrdup("");
			k++;
		}
		p = stop + 1;
	}
	*count = k;
	return kv;
}

void
web_kv_free(struct web_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void
html_esc(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		default: buf_add(b, s, 1);
		}
	}
}

void
web_json(struct web_resp *rs, int status, cJSON *j)
{
	char *s = json_print_line(j);
	cJSON_Delete(j);
	rs->status = status;
	rs->content_type = "application/json";
	buf_free(&rs->body);
	buf_puts(&rs->body, s);
	buf_puts(&rs->body, "\n");
	free(s);
}

void
web_error(struct web_resp *rs, int status, int json, const char *fmt, ...)
{
	struct err e;
	va_list ap;
	va_start(ap, fmt);
	err_vline(&e, status, fmt, ap);
	va_end(ap);
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "error", e.msg);
		web_json(rs, status, j);
		return;
	}
	rs->status = status;
	rs->content_type = "text/plain; charset=utf-8";
	buf_free(&rs->body);
	buf_printf(&rs->body, "%s\n", e.msg);
}

void
web_resp_free(struct web_resp *rs)
{
	buf_free(&rs->body);
}

/* ---- who is asking ---- */

struct web_fail *
web_fail_slot(struct web *w, const char *addr, int make)
{
	struct web_fail *oldest = &w->fail[0];
	int64_t now = mono_ms();
	for (int i = 0; i < WEB_FAIL_SLOTS; i++) {
		struct web_fail *f = &w->fail[i];
		if (f->n && now - f->since > 60000)
			f->n = 0;
		if (f->n && strcmp(f->addr, addr) == 0)
			return f;
		if (!f->n || f->since < oldest->since)
			oldest = f;
	}
	if (!make)
		return NULL;
	memset(oldest, 0, sizeof *oldest);
	snprintf(oldest->addr, sizeof oldest->addr, "%s", addr);
	oldest->since = now;
	return oldest;
}

void
web_failed(struct web *w, const struct web_req *rq, struct web_resp *rs, const char *how)
{
	struct web_fail *f = web_fail_slot(w, rq->addr, 1);
	f->n++;
	snprintf(rs->log, sizeof rs->log, "failed login from %s (%s)", rq->addr, how);
}

struct token_find {
	char hash[65];
	struct web_who *who;
	int found;
};

static int
token_match(const struct web_token *t, void *arg)
{
	struct token_find *tf = arg;
	/* Every token is compared, whichever matches. */
	if (ct_equal(t->hash, strlen(t->hash), tf->hash, 64) && !tf->found) {
		tf->found = 1;
		snprintf(tf->who->name, sizeof tf->who->name, "%s", t->name);
		tf->who->read_only = t->read_only;
	}
	return 0;
}

int
web_bearer(struct web *w, const char *tok, struct web_who *who, struct err *e)
{
	struct token_find tf = {.who = who};
	if (strlen(tok) != 64)
		return ST_NOTFOUND;
	if (sha256_hex(tok, tf.hash))
		return err_set(e, ST_ERR, "cannot hash the token: %s cannot be loaded", CRYPTO_LIB_SONAME);
	int rc = store_token_list(w->st, token_match, &tf, e);
	if (rc)
		return rc;
	who->bearer = 1;
	return tf.found ? ST_OK : ST_NOTFOUND;
}
