/* web_impl.h: what web.c, web_api.c and web_page.c share.  Not for cmd/. */
#ifndef AC_WEB_IMPL_H
#define AC_WEB_IMPL_H

#include <cjson/cJSON.h>

#include "task.h"
#include "web.h"

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

/* web.c */
const char *web_arg(const struct web_kv *kv, size_t n, const char *key); /* first value or NULL */
/* The form fields of an application/x-www-form-urlencoded body; free with web_kv_free. */
struct web_kv *web_form_parse(const char *body, size_t n, size_t *count);
void web_kv_free(struct web_kv *kv, size_t n);
void web_error(struct web_resp *rs, int status, int json, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void web_json(struct web_resp *rs, int status, cJSON *j);      /* takes j */
void html_esc(struct buf *b, const char *s);                   /* text and attribute values */

/* web_api.c: GET /api/... and the POST actions */
int web_api_get(struct web *w, const struct web_req *rq, const struct web_who *who,
    struct web_resp *rs);                                      /* 0: no such route */
int web_action(struct web *w, const struct web_req *rq, const struct web_who *who,
    const struct web_kv *form, size_t nform, struct web_resp *rs); /* 0: no such route */

/* ?status=LIST and ?scope= of a listing into f; -1 on a bad status. */
int web_task_filter(const struct web_req *rq, struct task_filter *f);

/* web_hook.c: POST /hooks/TASK */
void web_hook(struct web *w, const struct web_req *rq, struct web_resp *rs);

/* web.c */
void web_failed(struct web *w, const struct web_req *rq, struct web_resp *rs, const char *how);

/* web_trail.c: budgets as task-status says them, and a task's audit trail */
struct status;
/* The tasks over budget of task-status's facts (a section, when any) into b. */
void web_over_budget(const struct status *s, struct buf *b);
/* t's budget row of its settings table, when it has one or is held. */
int web_task_budget(struct web *w, const struct task *t, int64_t now, struct buf *b, struct err *e);
/* t's newest changes: when, who (the actor), the action, before and after. */
int web_task_trail(struct web *w, const struct task *t, struct buf *b, struct err *e);

/* web_page.c: the pages and their static files */
int web_page(struct web *w, const struct web_req *rq, const struct web_who *who,
    struct web_resp *rs);                                      /* 0: no such route */
void web_login_page(struct web_resp *rs, int status, const char *why);

#endif
