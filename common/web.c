/* task-web's front door (web.h): who is asking, what they may do, and the
 * answers every route shares.  No request is answered without a token: a
 * bearer token (its SHA-256 looked up among the store's, compared in
 * constant time) or a session cookie, which only the one-time login link
 * (or a token given in the login form) hands out.  A session's forms carry
 * its CSRF token.  Failed logins are counted per address: past
 * WEB_FAIL_MAX in a minute that address is answered 429 until the minute
 * is over, whatever it sends. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_web.h"
#include "task_json.h"
#include "web_crypto.h"
#include "web.h"
#include "web_api.h"
#include "web_hook.h"
#include "web_http.h"
#include "web_layout.h"
#include "web_page.h"

int
web_new(struct store *st, const struct web_opts *o, struct web **out, struct err *e)
{
	struct web *w = xcalloc(1, sizeof *w);
	(void)e;
	w->st = st;
	w->zs = zones_new();
	w->read_only = o->read_only;
	w->hook_rate = o->hook_rate > 0 ? o->hook_rate : 60;
	snprintf(w->status_tool, sizeof w->status_tool, "%s%stask-status", o->bin_dir ? o->bin_dir : "",
	    o->bin_dir ? "/" : "");
	*out = w;
	return ST_OK;
}

void
web_free(struct web *w)
{
	if (!w)
		return;
	zones_free(w->zs);
	explicit_bzero(w, sizeof *w);
	free(w);
}

int
web_login_key(struct web *w, char key[65], struct err *e)
{
	if (random_hex(key, 32))
		return err_set(e, ST_ERR, "no randomness for the login key");
	if (sha256_hex(key, w->login))
		return err_set(e, ST_ERR, "cannot hash the login key: %s cannot be loaded", CRYPTO_LIB_SONAME);
	return ST_OK;
}

int
web_token_name_ok(const char *name, struct err *e)
{
	size_t n = strlen(name);
	if (n == 0 || n > 64 || name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-@")])
		return err_set(e, ST_INVALID, "bad token name '%s': 1 to 64 letters, digits and . _ - @",
		    name);
	return ST_OK;
}

int
web_token_new(struct store *st, const char *name, int read_only, int64_t now, char tok[65],
    struct err *e)
{
	struct web_token t = {.read_only = read_only, .created_at = now};
	int rc = web_token_name_ok(name, e);
	if (rc)
		return rc;
	if (random_hex(tok, 32))
		return err_set(e, ST_ERR, "no randomness for the token");
	snprintf(t.name, sizeof t.name, "%s", name);
	if (sha256_hex(tok, t.hash))
		return err_set(e, ST_ERR, "cannot hash the token: %s cannot be loaded", CRYPTO_LIB_SONAME);
	return store_token_add(st, &t, e);
}

static int
count_one(const struct web_token *t, void *arg)
{
	(void)t;
	*(int *)arg = 1;
	return 1;
}

int
web_tokens_exist(struct store *st, int *any, struct err *e)
{
	*any = 0;
	return store_token_list(st, count_one, any, e);
}

static const char *
cookie_value(const char *cookies, const char *name, char *out, size_t n)
{
	size_t l = strlen(name);
	for (const char *p = cookies; p && *p;) {
		p += strspn(p, " ;");
		if (strncmp(p, name, l) == 0 && p[l] == '=') {
			size_t v = strcspn(p + l + 1, ";");
			if (v >= n)
				return NULL;
			memcpy(out, p + l + 1, v);
			out[v] = 0;
			return out;
		}
		p += strcspn(p, ";");
	}
	return NULL;
}

static const struct web_session *
session_find(struct web *w, const char *id)
{
	const struct web_session *found = NULL;
	int64_t now = mono_ms();
	for (int i = 0; i < WEB_SESSIONS; i++) {
		struct web_session *s = &w->sess[i];
		if (s->id[0] && s->expires < now)
			memset(s, 0, sizeof *s);
		if (s->id[0] && ct_equal(s->id, 64, id, strlen(id)) && !found)
			found = s;
	}
	return found;
}

static int
session_new(struct web *w, const char *name, int read_only, struct web_resp *rs, struct err *e)
{
	struct web_session *slot = &w->sess[0];
	for (int i = 0; i < WEB_SESSIONS; i++) {
		if (!w->sess[i].id[0]) {
			slot = &w->sess[i];
			break;
		}
		if (w->sess[i].expires < slot->expires)
			slot = &w->sess[i];
	}
	memset(slot, 0, sizeof *slot);
	if (random_hex(slot->id, 32) || random_hex(slot->csrf, 32))
		return err_set(e, ST_ERR, "no randomness for a session");
	snprintf(slot->name, sizeof slot->name, "%s", name);
	slot->read_only = read_only;
	slot->expires = mono_ms() + (int64_t)WEB_SESSION_SECS * 1000;
	snprintf(rs->set_cookie, sizeof rs->set_cookie,
	    "agentcron_session=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=%d", slot->id,
	    WEB_SESSION_SECS);
	return ST_OK;
}

/* GET /login?key=K (the link printed at start, once) or POST /login with
 * a token: a session, and back to the overview. */
static void
login(struct web *w, const struct web_req *rq, struct web_resp *rs)
{
	struct err e = {{0}};
	struct web_who who = {.bearer = 0};
	int ok = 0, rc = ST_OK;
	if (strcmp(rq->method, "GET") == 0) {
		const char *key = web_arg(rq->query, rq->nquery, "key");
		if (!key) {
			web_login_page(rs, 200, NULL);
			return;
		}
		char h[65];
		if (w->login[0] && !sha256_hex(key, h) && ct_equal(w->login, 64, h, 64)) {
			ok = 1;
			w->login[0] = 0; /* once */
			snprintf(who.name, sizeof who.name, "login");
			who.read_only = w->read_only;
		}
	} else {
		size_t n;
		int nul;
		struct web_kv *f = web_form_parse(rq->body, rq->nbody, &n, &nul);
		const char *tok = nul ? NULL : web_arg(f, n, "token");
		if (tok && (rc = web_bearer(w, str_trim((char *)tok), &who, &e)) == ST_OK)
			ok = 1;
		web_kv_free(f, n);
	}
	if (rc != ST_OK && rc != ST_NOTFOUND) {
		web_error(rs, 503, 0, "%s", e.msg);
		return;
	}
	if (!ok) {
		web_failed(w, rq, rs, "a wrong or used login key or token");
		web_login_page(rs, 401, "That link or token is not valid (a login link works once).");
		return;
	}
	if (session_new(w, who.name, who.read_only || w->read_only, rs, &e)) {
		web_error(rs, 500, 0, "%s", e.msg);
		return;
	}
	rs->status = 303;
	snprintf(rs->location, sizeof rs->location, "/");
	snprintf(rs->log, sizeof rs->log, "%s logged in from %s", who.name, rq->addr);
}

static int
wants_json(const struct web_req *rq)
{
	return strncmp(rq->path, "/api/", 5) == 0 || strcmp(rq->path, "/api") == 0;
}

void
web_handle(struct web *w, const struct web_req *rq, struct web_resp *rs)
{
	struct web_who who = {.bearer = 0};
	struct err e = {{0}};
	int json = wants_json(rq);
	memset(rs, 0, sizeof *rs);
	struct web_fail *f = web_fail_slot(w, rq->addr, 0);
	if (f && f->n >= WEB_FAIL_MAX) {
		int64_t left = 60 - (mono_ms() - f->since) / 1000;
		rs->retry_after = left > 0 ? (int)left : 1;
		web_error(rs, 429, json, "too many failed logins from %s; try again in %d s", rq->addr,
		    rs->retry_after);
		return;
	}
	if (strcmp(rq->path, "/login") == 0 && (!strcmp(rq->method, "GET") || !strcmp(rq->method,
	    "POST"))) {
		login(w, rq, rs);
		return;
	}
	if (strncmp(rq->path, "/hooks/", 7) == 0 && strcmp(rq->method, "POST") == 0) {
		web_hook(w, rq, rs);
		return;
	}
	/* Who: a bearer token, else a session. */
	int rc = ST_NOTFOUND;
	const char *auth = rq->authorization;
	if (auth && strncasecmp(auth, "Bearer ", 7) == 0) {
		rc = web_bearer(w, auth + 7 + strspn(auth + 7, " "), &who, &e);
		json = 1;
	} else if (auth) {
		rc = ST_INVALID;
	} else {
		char sid[80];
		if (cookie_value(rq->cookie, "agentcron_session", sid, sizeof sid) &&
		    (who.sess = session_find(w, sid))) {
			snprintf(who.name, sizeof who.name, "%s", who.sess->name);
			who.read_only = who.sess->read_only;
			rc = ST_OK;
		}
	}
	if (rc != ST_OK && rc != ST_NOTFOUND && rc != ST_INVALID) {
		web_error(rs, 503, json, "%s", e.msg);
		return;
	}
	if (rc != ST_OK) {
		if (auth)
			web_failed(w, rq, rs, "a wrong token");
		if (json) {
			web_error(rs, 401, 1, "a token is needed: Authorization: Bearer TOKEN (task-web --new-token)");
		} else if (strcmp(rq->method, "GET") == 0) {
			web_login_page(rs, 401, NULL);
		} else {
			web_error(rs, 401, 0, "log in first");
		}
		return;
	}
	if (w->read_only)
		who.read_only = 1;
	if (strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0) {
		if (web_api_get(w, rq, &who, rs) || web_page(w, rq, &who, rs))
			return;
		web_error(rs, 404, json, "no such page: %s", rq->path);
		return;
	}
	if (strcmp(rq->method, "POST") != 0) {
		web_error(rs, 405, json, "method %s is not allowed here", rq->method);
		return;
	}
	size_t n = 0;
	int nul = 0;
	struct web_kv *form = NULL;
	if (!rq->content_type || strncasecmp(rq->content_type, "application/x-www-form-urlencoded",
	    33) == 0 || rq->nbody == 0)
		form = web_form_parse(rq->body ? rq->body : "", rq->nbody, &n, &nul);
	else if (!who.bearer) {
		web_error(rs, 415, json, "send the form as application/x-www-form-urlencoded");
		return;
	}
	if (nul) {
		web_kv_free(form, n);
		web_error(rs, 400, json, "a form field holds %%00 (NUL), which no field can hold");
		return;
	}
	/* A session's POST carries its CSRF token (a form field, or the header
	 * for the page's script); a bearer token cannot be sent by a browser
	 * on its own, so it needs none. */
	if (!who.bearer) {
		const char *c = web_arg(form, n, "csrf");
		if (!c)
			c = rq->csrf_header;
		if (!c || !ct_equal(who.sess->csrf, 64, c, strlen(c))) {
			web_kv_free(form, n);
			web_error(rs, 403, json, "missing or wrong CSRF token; reload the page");
			return;
		}
	}
	if (!web_action(w, rq, &who, form, n, rs))
		web_error(rs, 404, json, "no such action: %s", rq->path);
	web_kv_free(form, n);
}
