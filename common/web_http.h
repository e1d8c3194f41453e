/* web_http.h: task-web's requests and answers as every route sees them,
 * the state the routes share (sessions, failed logins, hook rates), and
 * the helpers below the routes (web_http.c): arguments, escaping, JSON and
 * error answers, bearer tokens.  The program uses the request and answer;
 * the rest is for the routes in common/. */
#ifndef AC_WEB_HTTP_H
#define AC_WEB_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "task.h"
#include "util.h"

struct cJSON;

#define WEB_BODY_MAX (1 << 20)   /* bytes of a request's body, at most */
#define WEB_SESSION_SECS 43200   /* a session from the login link lasts 12 hours */
#define WEB_FAIL_MAX 10          /* failed logins from one address a minute before 429 */

struct web_kv {
	char *key, *value;
};

struct web_req {
	const char *method, *path;   /* path decoded, without the query */
	const char *addr;            /* the client's address, for the log */
	const char *authorization, *cookie, *content_type, *csrf_header;
	const char *hub_signature;   /* X-Hub-Signature-256 */
	const char *event_key;       /* Idempotency-Key, else X-GitHub-Delivery */
	struct web_kv *query;        /* the query's arguments */
	size_t nquery;
	const char *body;            /* POST: the raw body */
	size_t nbody;
};

struct web_resp {
	int status;
	const char *content_type;    /* a literal */
	struct buf body;
	char location[512];          /* a redirect's, or "" */
	char set_cookie[256];        /* or "" */
	char link_next[1024];        /* a Link header's next page, or "" */
	int retry_after;             /* seconds, 0: none */
	int cacheable;               /* a static file: may be kept an hour */
	char log[600];               /* a line task-web prints on stderr, or "" */
};

#define WEB_SESSIONS 32
#define WEB_FAIL_SLOTS 64

struct web_session {
	char id[65], csrf[65];
	char name[65];
	int read_only;
	int64_t expires;             /* mono_ms() */
};

struct web_fail {
	char addr[64];
	int n;
	int64_t since;               /* mono_ms() of the first in this minute */
};

#define WEB_HOOK_SLOTS 256

struct web_hook_rate {
	char task_id[37];
	int n;
	int64_t since;               /* mono_ms() of this minute's first */
};

struct web {
	struct store *st;
	struct zones *zs;
	int read_only;
	char status_tool[4096];      /* task-status's path */
	char login[65];              /* the one-time login key's hash, "" once used */
	struct web_session sess[WEB_SESSIONS];
	struct web_fail fail[WEB_FAIL_SLOTS];
	int hook_rate;
	struct web_hook_rate hooks[WEB_HOOK_SLOTS];
};

/* Who asks: a token's name or "login" for a session. */
struct web_who {
	char name[65];
	int read_only;
	int bearer;                  /* a bearer token: answers are JSON */
	const struct web_session *sess; /* a session: forms carry its CSRF token */
};

/* The first value of key, or NULL. */
const char *web_arg(const struct web_kv *kv, size_t n, const char *key);
/* The form fields of an application/x-www-form-urlencoded body; free with
 * web_kv_free.  *nul set when one held a NUL (%00), cut there: the form
 * is then to be refused, not read short. */
struct web_kv *web_form_parse(const char *body, size_t n, size_t *count, int *nul);
void web_kv_free(struct web_kv *kv, size_t n);
void web_error(struct web_resp *rs, int status, int json, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void web_json(struct web_resp *rs, int status, struct cJSON *j); /* takes j */
void html_esc(struct buf *b, const char *s);                   /* text and attribute values */
void web_resp_free(struct web_resp *rs);

/* A failed login from rq's address counted, and logged in rs. */
void web_failed(struct web *w, const struct web_req *rq, struct web_resp *rs, const char *how);
/* addr's count of failed logins this minute (made when make), or NULL. */
struct web_fail *web_fail_slot(struct web *w, const char *addr, int make);
/* Who tok (a bearer token) is: its name and rights into who.  ST_NOTFOUND
 * when no token of the store is it. */
int web_bearer(struct web *w, const char *tok, struct web_who *who, struct err *e);

#endif
