/* store_backend.h: what a backend of the store provides (store_sqlite*.c,
 * store_pg*.c) and the state store.c keeps for every store.  store.c builds
 * the atomic operations of store.h (claims, ends of runs, recovery) from
 * these primitives inside one unit of work; a backend's part of the
 * contract is that a row it reads for writing inside a unit (task_get,
 * claim_scan) stays as read until the unit ends.  A backend speaks of
 * storage only: it returns rows, counts and flags, and ST_NOTFOUND (no
 * such row) and ST_REFUSED (a unique key refused it) bare, without a
 * message; store.c says what they mean.  Not for cmd/. */
#ifndef AC_STORE_BACKEND_H
#define AC_STORE_BACKEND_H

#include "store.h"
#include "store_history.h"
#include "store_deliver.h"
#include "store_chain.h"

struct store_ops;
struct web_store_ops;
struct audit_ops;
struct store_audit_hooks;

/* The ids a prefix stands for: every id from `from` (the prefix, lower
 * case) up to `to`, not included. */
struct id_range {
	char from[37], to[38];
};

struct store {
	const struct store_ops *ops;
	void *be;                 /* the backend's own state */
	char *name;               /* for messages */
	char *locator;            /* for TASK_DB */
	char *password;           /* the URI's, for executors' PGPASSWORD; NULL if none */
	int flags;                /* STORE_* */
	char *standin;            /* read in an empty stand-in: where the real store would be */
	int depth;                /* units of work open (0 or 1) */
	unsigned long unit;       /* units of work begun */
	unsigned long unfollowed; /* the unit that found no task following another */
	char *audit_actor;        /* store_audit_by's: who the changes are audited as, or NULL */
	const struct store_audit_hooks *audit; /* installed by store_audit_by, else NULL */
	char *audit_action;       /* store_audit_action's, for the next entry */
	struct zones *audit_zones; /* the zones audit entries describe schedules in */
	int has_owner;
	struct owner self;        /* the registered owner of claims */
	int64_t skew_ms;
	int64_t deadline_ms;      /* store_deadline's: mono_ms, 0: none */
	int64_t op_ms;            /* and each statement's; 0: none */
	int commit_unknown;       /* the last commit failed with the connection: made or not */
};

struct store_ops {
	void (*close)(struct store *st);
	int (*refresh)(struct store *st, char *what, size_t n, struct err *e);
	/* of_runs: a unit that claims or ends runs, a few rows each by a key */
	int (*begin)(struct store *st, int of_runs, struct err *e);
	int (*commit)(struct store *st, struct err *e);
	void (*rollback)(struct store *st);

	/* Tasks; store.c wraps task_add in a unit when the caller has none. */
	int (*task_find_twin)(struct store *st, const struct task *t, int *found, char id[37],
	    struct err *e);
	int (*task_insert)(struct store *st, const struct task *t, struct err *e);
	int (*task_prefix)(struct store *st, const struct id_range *ids, int trashed,
	    char (*found)[37], int max, int *n, struct err *e);
	int (*task_get)(struct store *st, const char *id, struct task *t, struct err *e);
	/* task_get that holds nothing in a unit (NULL: task_get holds nothing
	 * a claim passes over). */
	int (*task_look)(struct store *st, const char *id, struct task *t, struct err *e);
	int (*task_put)(struct store *st, const struct task *t, struct err *e);
	int (*task_list)(struct store *st, const struct task_filter *f, task_fn fn, void *arg,
	    struct err *e);
	int (*task_count)(struct store *st, const struct task_filter *f, long *n, struct err *e);
	int (*task_trash)(struct store *st, const char *id, int64_t now, struct err *e);
	int (*trash_restore)(struct store *st, const char *id, char restored[37], struct err *e);
	int (*trash_purge)(struct store *st, long *n, struct err *e);
	int (*task_queue)(struct store *st, const char *id, int64_t now, struct err *e);

	int (*setting_get)(struct store *st, const char *key, char **value, struct err *e);
	int (*setting_set)(struct store *st, const char *key, const char *value, struct err *e);

	int (*run_list)(struct store *st, const struct run_filter *f, run_fn fn, void *arg,
	    struct err *e);
	/* Up to 2 runs whose id is in ids. */
	int (*run_prefix)(struct store *st, const struct id_range *ids, struct run *r, int *n,
	    struct err *e);

	int (*owner_start)(struct store *st, struct err *e);
	int (*owner_beat)(struct store *st, int *alive, struct err *e);
	void (*owner_stop)(struct store *st);
	/* Declare owner_id dead if it has been silent stale_after seconds (0:
	 * at once); *dead = 0 when it has not. */
	int (*owner_bury)(struct store *st, const char *owner_id, int64_t stale_after, int *dead,
	    struct err *e);

	/* The candidates of a claim, read and held (up to req->max; 1 for
	 * CLAIM_ONE), with the attempt of each one's latest non-manual run;
	 * a DUE scan starts past req->cur. */
	int (*claim_scan)(struct store *st, const struct claim_req *req, struct task *tasks,
	    int *last_attempt, int *n, struct err *e);
	/* Insert r, running under the registered owner when running is set;
	 * *dup = 1 and nothing written when a unique index refuses it. */
	int (*run_insert)(struct store *st, const struct run *r, int running, int *dup,
	    struct err *e);
	/* End r if it is still running under owner_id; *ended says if it was. */
	int (*run_finish)(struct store *st, const struct run *r, const char *owner_id, int *ended,
	    struct err *e);
	int (*run_note)(struct store *st, const char *run_id, const char *note, struct err *e);
	/* store_run_gate's counts and claim, inside the caller's unit. */
	int (*run_gate)(struct store *st, const char *run_id, const char *model, int max_all,
	    int max_model, int64_t lease, int *got, struct err *e);
	/* Optional (NULL: one row at a time): several rows per statement.
	 * tasks_put_many writes every task (ST_NOTFOUND when one is not
	 * there): when before is given (each task as read and held since in
	 * this unit), only what changed; runs_finish_many is run_finish for
	 * each end, ends[i].ours set, and the task of each run it ended read
	 * and held, t[i] (found[i] set). */
	int (*tasks_put_many)(struct store *st, const struct task *const *t,
	    const struct task *const *before, size_t n, struct err *e);
	int (*runs_finish_many)(struct store *st, struct run_end *ends, size_t n, struct task *t,
	    int *found, struct err *e);
	/* run_insert for each r[i], running[i] its flag, dup[i] its *dup. */
	int (*runs_insert_many)(struct store *st, const struct run *const *r, const int *running,
	    size_t n, int *dup, struct err *e);
	int (*due_next)(struct store *st, int64_t *due, int *queued, struct err *e);
	int (*run_claims)(struct store *st, struct run_claim **out, size_t *n, struct err *e);

	void (*wake)(struct store *st);
	int (*wake_fd)(struct store *st, struct err *e);
	int (*wake_take)(struct store *st);

	/* The newest max messages (0: all), newest first. */
	int (*history_load)(struct store *st, const char *context, size_t max,
	    struct history_msg **out, size_t *n, struct err *e);
	int (*history_add)(struct store *st, const char *context, const char *role,
	    const char *content, const char *run_id, int64_t now, struct err *e);
	int (*history_clear)(struct store *st, const char *context, long *n, struct err *e);
	int (*call_add)(struct store *st, struct llm_call *c, struct err *e);
	int (*call_list)(struct store *st, const char *run_id, const char *task_id, long limit,
	    llm_call_fn fn, void *arg, struct err *e);
	int (*call_spend)(struct store *st, const char *task_id, int64_t since, double *dollars,
	    long long *tokens, struct err *e);
	int (*call_usage)(struct store *st, int64_t since, call_usage_fn fn, void *arg,
	    struct err *e);
	/* The spend ledger and the reservations of runs in flight (store.h). */
	int (*spend_add)(struct store *st, const char *task_id, const char *run_id, int64_t at,
	    double dollars, long long tokens, struct err *e);
	int (*spend_read)(struct store *st, const char *task_id, int64_t since, const char *except_run,
	    double *dollars, long long *tokens, struct err *e);
	int (*reserve)(struct store *st, const char *run_id, const char *task_id, int ran,
	    double *dollars, long long *tokens, struct err *e);
	int (*run_cost)(struct store *st, double *dollars, long long *tokens, int *known,
	    struct err *e);
	/* store_others_wrote; NULL: not known. */
	int (*others_wrote)(struct store *st, int64_t *version, struct err *e);
	/* store_durability and store_async_standbys; NULL: a file, which
	 * promises what its disk does. */
	int (*durability)(struct store *st, char *off, size_t n, struct err *e);
	int (*async_standbys)(struct store *st, long *n, struct err *e);
	/* store_idle_mark's note, inside its unit, nothing due before due;
	 * store_idle_passes, one note (which: 0 standing, 1 retired) at a
	 * time, 1 when it is there.  NULL: a store that keeps no such note. */
	int (*idle_mark)(struct store *st, const char *cfg, int64_t due, int64_t written, int *marked,
	    struct err *e);
	/* A server's: 1 with what the pass itself looked at, when its note
	 * may say so (no unit is opened then), else 0; NULL: a unit looks. */
	int (*idle_look)(struct store *st, struct claim_look *look);
	int (*idle_pass)(struct store *st, int which, struct pass *p, int64_t *written);

	const struct history_ops *history;  /* store_history.h, below */
	const struct deliver_ops *deliver;  /* store_deliver.h */
	const struct chain_ops *chain;      /* store_chain.h */
	const struct web_store_ops *web;    /* store_web.h: task-web's tokens */
	const struct audit_ops *audit;      /* store_audit.h: the audit trail */
};

/* The store_history.h functions, each as its store_* says, with two
 * counts (k of nth) in prune_bounds. */
struct history_ops {
	int (*pass_put)(struct store *st, const struct pass *p, struct err *e);
	int (*pass_list)(struct store *st, int (*fn)(const struct pass *p, void *arg), void *arg,
	    struct err *e);
	int (*task_tally)(struct store *st, struct task_tally *t, struct err *e);
	int (*task_due)(struct store *st, int64_t now, int64_t late, long *due, long *overdue,
	    struct err *e);
	int (*run_counts)(struct store *st, int64_t since,
	    void (*fn)(const char *status, long long n, void *arg), void *arg, struct err *e);
	int (*last_success)(struct store *st,
	    void (*fn)(const char *task_id, const char *name, int64_t at, void *arg), void *arg,
	    struct err *e);
	int (*budget_tasks)(struct store *st, void (*fn)(const char *task_id, void *arg), void *arg,
	    struct err *e);
	int (*call_tokens)(struct store *st, int64_t since, long long *in, long long *out,
	    struct err *e);
	int (*pruned_totals)(struct store *st, void (*fn)(const char *key, long long n, void *arg),
	    void *arg, struct err *e);
	int (*size)(struct store *st, int64_t *bytes, int64_t *free_bytes, struct err *e);
	int (*prune_tasks)(struct store *st, const char *after, int max, struct prune_task *out,
	    int *n, struct err *e);
	int (*prune_bounds)(struct store *st, const char *id, long nth0, long nth1, int64_t *oldest,
	    int64_t *at0, int64_t *at1, struct err *e);
	int (*prune_runs)(struct store *st, const char *id, int64_t before, long limit, int dry,
	    long *runs, long *calls, struct err *e);
	int (*prune_contexts)(struct store *st, const char *after, int max, char **out, int *n,
	    struct err *e);
	int (*prune_messages)(struct store *st, const char *context, long keep, long limit, int dry,
	    long *n, struct err *e);
	int (*prune_loose_calls)(struct store *st, int64_t before, long limit, int dry, long *n,
	    struct err *e);
	int (*vacuum)(struct store *st, int full, long max_pages, char *what, size_t n,
	    struct err *e);
	/* Before the trash is emptied: the model calls of its tasks removed,
	 * what they and the tasks' runs were added to the totals. */
	int (*forget_trash)(struct store *st, struct err *e);
};

/* The backends' openers: fill st->ops, st->be, st->name, st->locator. */
int store_sqlite_open(struct store *st, const char *path, struct err *e);
int store_pg_open(struct store *st, const char *uri, struct err *e);
/* The same for a pass from cron, unless the note an idle pass left holds
 * (idle_hint.h; cfg the config file read): then *done, the pass over. */
int store_sqlite_open_pass(struct store *st, const char *path, const char *cfg, int64_t now,
    int *done, struct err *e);
int store_pg_open_pass(struct store *st, const char *uri, const char *cfg, int64_t now, int *done,
    struct err *e);

/* store_claim.c, for the files that build store.h's operations (store.c,
 * store_calls.c): a unit of work (of_runs: one that claims or ends runs);
 * one around a few steps unless the caller has one already (own_end
 * commits it, or rolls it back on rc); a task written as the scheduler's
 * own move, never audited. */
int store_unit_begin(struct store *st, int of_runs, struct err *e);
int store_own_begin(struct store *st, int *own, struct err *e);
int store_own_end(struct store *st, int own, int rc, struct err *e);
int store_task_put_plain(struct store *st, const struct task *t, struct err *e);
/* The audit trail's steps in store.c's writes, each in the caller's unit
 * of work and a no-op while no actor is set: the layer above installs
 * them (store_audit_by), so the store calls no code above its own. */
struct store_audit_hooks {
	/* a task's change from a to b (NULL: none, before or after) */
	int (*task)(struct store *st, const struct task *a, const struct task *b, struct err *e);
	/* store_audit_note's entry */
	int (*note)(struct store *st, const char *action, const char *task_id, const char *before,
	    const char *after, struct err *e);
	/* one for each task in the trash, before it is emptied */
	int (*purge)(struct store *st, struct err *e);
};

#define STORE_LOCK_WAIT_MS 15000 /* how long a writer waits for another's lock */
#define STORE_IDLE_TX_MS 5000    /* a transaction idle this long on the client is ended */

#endif
