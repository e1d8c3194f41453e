/* store_web.h: task-web's access tokens in the store, so every host that
 * serves the same store accepts the same tokens.  Only a token's SHA-256
 * (hex) is kept; the token itself is shown once, when it is made. */
#ifndef AC_STORE_WEB_H
#define AC_STORE_WEB_H

#include <stdint.h>

#include "store.h"
#include "store_sql.h"
#include "task_fields.h"

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
/* The body_sha256 of the bodiless events' keys recorded in their old raw
 * form (the key as sent, the hash of the empty body), which could equal
 * another event's stored form ("key:K"); keys recorded since are in a
 * form of their kind (fire_input.h), bodiless ones with no hash. */
#define WEB_HOOK_RAW_SHA "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
/* Record an event's key (its stored form) for task_id; *dup = 1 (nothing
 * written) when it was seen.  A row of that key in the old raw form is
 * another event's, aging out: taken over, not a duplicate. */
int store_hook_event(struct store *st, const char *task_id, const char *key, const char *body_sha256,
    int64_t now, int *dup, struct err *e);
/* Whether task_id's key was recorded with that body_sha256 (*found). */
int store_hook_find(struct store *st, const char *task_id, const char *key,
    const char *body_sha256, int *found, struct err *e);
/* Forget the event keys recorded before `before`, at most limit of them
 * (the oldest), in one unit of work; *n of them. */
int store_hook_prune(struct store *st, int64_t before, long limit, long *n, struct err *e);

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

/* The tasks page's search for a text too short for the trigram index
 * (under three characters), which would otherwise read every task: a
 * walk of the tasks in next-run order after `from` (a keyset: the order's
 * key and insertion sequence; WEB_KEYSET_START for the first), reading at
 * most `examine` tasks, giving fn those f selects (at most f->limit).
 * *cut = 1 when the walk stopped before the end of the tasks, and `next`
 * is then where to go on from (after the last task given when f->limit
 * were, else after the last task read). */
struct web_keyset {
	int64_t key;             /* next_run_at, or INT64_MAX when it has none */
	int64_t seq;             /* insertion order */
};
#define WEB_KEYSET_START ((struct web_keyset){INT64_MIN, INT64_MIN})
#define WEB_WALK_EXAMINE 5000    /* tasks a short text's search reads, at most */
#define WEB_WALK_EXAMINE_TEXT "5,000"
int store_web_task_walk(struct store *st, const struct task_filter *f, struct web_keyset from,
    long examine, task_fn fn, void *arg, int *cut, struct web_keyset *next, struct err *e);

/* The tasks page's listing of f's tasks (at most f->limit, a page):
 * store_task_list, but on PostgreSQL planned for that page, not as a
 * cursor that walks the tasks in order (which, for a text the trigram
 * index finds in a thousand tasks, read half the tasks to fill a page). */
int store_web_task_page(struct store *st, const struct task_filter *f, task_fn fn, void *arg,
    struct err *e);

/* Task id's place in the next-run order, for a walk to go on after it.
 * ST_NOTFOUND: no such task. */
int store_web_task_keyset(struct store *st, const char *id, struct web_keyset *k, struct err *e);

/* The tasks page's listing of f's tasks (at most f->limit) in another
 * order than next-run: by name (ASCII case folded, then id), by status
 * then name, or by last run (latest first, never run last, then name);
 * the whole listing's order, not a page's. */
enum { WEB_SORT_NAME = 1, WEB_SORT_STATUS, WEB_SORT_LAST };
int store_web_task_sorted(struct store *st, const struct task_filter *f, int by, task_fn fn,
    void *arg, struct err *e);

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
	int (*hook_find)(struct store *st, const char *task_id, const char *key,
	    const char *body_sha256, int *found, struct err *e);
	int (*hook_prune)(struct store *st, int64_t before, long limit, long *n, struct err *e);
	int (*herd)(struct store *st, int64_t until, web_herd_fn fn, void *arg, struct err *e);
	const struct sql_dialect *(*dialect)(struct store *st);
	/* The first row of sql (freed; parameters p): two integers and a
	 * count; *found = 0 when it has none. */
	int (*keyset)(struct store *st, char *sql, const struct row *p, struct web_keyset *k,
	    long *n, int *found, struct err *e);
	/* The tasks of sql (freed; parameters p), each row task_read's
	 * columns then its keyset, into fn; how many it was given and the
	 * keyset of the last. */
	int (*tasks)(struct store *st, char *sql, const struct row *p, long limit, task_fn fn,
	    void *arg, struct web_keyset *last, long *given, struct err *e);
	/* store_web_task_page; NULL: store_task_list is planned so already. */
	int (*task_page)(struct store *st, const struct task_filter *f, task_fn fn, void *arg,
	    struct err *e);
};

#endif
