/* store_web.h: task-web's access tokens in the store, so every host that
 * serves the same store accepts the same tokens.  Only a token's SHA-256
 * (hex) is kept; the token itself is shown once, when it is made. */
#ifndef AC_STORE_WEB_H
#define AC_STORE_WEB_H

#include <stdint.h>

#include "store.h"

struct web_token {
	char name[65];
	char hash[65];         /* sha-256 of the token, hex */
	int read_only;
	int64_t created_at;
};
typedef int (*web_token_fn)(const struct web_token *t, void *arg); /* non-zero stops */

/* store_web.c */
int store_token_add(struct store *st, const struct web_token *t, struct err *e); /* ST_REFUSED: name taken */
int store_token_revoke(struct store *st, const char *name, struct err *e);       /* ST_NOTFOUND */
int store_token_list(struct store *st, web_token_fn fn, void *arg, struct err *e); /* by name */

/* A task's HTTP trigger (POST /hooks/TASK): a token's hash and an HMAC
 * secret, either or both; "" when unset. */
struct web_hook {
	char token_hash[65];
	char secret[65];
};
/* Set what is not NULL of a task's trigger, keeping the rest. */
int store_hook_set(struct store *st, const char *task_id, const char *token_hash,
    const char *secret, int64_t now, struct err *e);
int store_hook_get(struct store *st, const char *task_id, struct web_hook *h, struct err *e); /* ST_NOTFOUND */
/* Record an event's key for task_id; *dup = 1 (nothing written) when it was seen. */
int store_hook_event(struct store *st, const char *task_id, const char *key, const char *body_sha256,
    int64_t now, int *dup, struct err *e);

/* The timeline's herd: the pending enabled tasks whose next run is at or
 * before `until`, in groups that fire alike (the same kind, cron, zone,
 * interval, bounds and next run): fn gets a task holding only those
 * fields and how many tasks it stands for.  From an index of them alone. */
typedef int (*web_herd_fn)(const struct task *t, long n, void *arg); /* non-zero stops */
int store_web_herd(struct store *st, int64_t until, web_herd_fn fn, void *arg, struct err *e);

/* The herd's query, one for both backends but for its parameter; the
 * terms match the partial index tasks_herd's. */
#define WEB_HERD_SQL(until) "SELECT kind, cron, tz, every, anchor, not_before, ends_at," \
	" next_run_at, count(*) FROM tasks WHERE status = 'pending' AND enabled = 1" \
	" AND deleted_at IS NULL AND next_run_at IS NOT NULL AND next_run_at <= " until \
	" GROUP BY next_run_at, kind, cron, tz, every, anchor, not_before, ends_at"

/* What a backend provides for them (store_backend.h's store_ops.web). */
struct web_store_ops {
	int (*token_add)(struct store *st, const struct web_token *t, struct err *e);
	int (*token_del)(struct store *st, const char *name, int *found, struct err *e);
	int (*token_list)(struct store *st, web_token_fn fn, void *arg, struct err *e);
	int (*hook_set)(struct store *st, const char *task_id, const char *token_hash,
	    const char *secret, int64_t now, struct err *e);
	int (*hook_get)(struct store *st, const char *task_id, struct web_hook *h, int *found,
	    struct err *e);
	int (*hook_event)(struct store *st, const char *task_id, const char *key,
	    const char *body_sha256, int64_t now, struct err *e); /* ST_REFUSED: seen */
	int (*herd)(struct store *st, int64_t until, web_herd_fn fn, void *arg, struct err *e);
};

#endif
