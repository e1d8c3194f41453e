/* store_pg.h: what the PostgreSQL backend's files share (store_pg_conn.c:
 * the connection, statements, transactions, wake-ups; store_pg_params.c:
 * values in and out; store_pg_schema.c: the schema; store_pg_tasks.c:
 * tasks, settings, owners; store_pg_runs.c: runs, claims, conversations;
 * store_pg_look.c: an idle pass's reads; store_pg.c: the table of them
 * all).  Not for cmd/. */
#ifndef AC_STORE_PG_H
#define AC_STORE_PG_H

#include "store_pg_conn.h"
#include "store_pg_schema.h"

/* store_pg_look.c: a pass's first look, in one statement: the server's
 * standbys and durability (checks), whether a task has a run in flight;
 * the pause and the next due task come with it, read ahead for the calls
 * that ask them next. */
struct pg_look {
	long standbys;             /* checks only */
	char durability[64];
	int in_flight;
};
int pg_look(struct store *st, int checks, struct pg_look *out, struct err *e);
int pg_durability(struct store *st, char *off, size_t n, struct err *e);  /* store_ops' */
int pg_async_standbys(struct store *st, long *n, struct err *e);
int pg_due_next(struct store *st, int64_t *due, int *queued, struct err *e);

/* store_pg_idle.c: store_ops' idle_look and idle_mark; and a pass from
 * cron on a new connection: 1 when the note held and the pass is done
 * (it recorded itself), 0 when it is to go on, the statement's failure
 * included (the opening that follows says what is wrong). */
int pg_idle_look(struct store *st, struct claim_look *look);
int pg_idle_take(struct store *st, const char *cfg, int64_t now);
int pg_idle_mark(struct store *st, const char *cfg, int64_t due, int64_t written, int *marked,
    struct err *e);

/* store_pg_tasks.c */
int pg_task_find_twin(struct store *st, const struct task *t, int *found, char id[37], struct err *e);
int pg_task_insert(struct store *st, const struct task *t, struct err *e);
int pg_task_put(struct store *st, const struct task *t, struct err *e);
int pg_task_prefix(struct store *st, const struct id_range *ids, int trashed, char (*found)[37],
    int max, int *n, struct err *e);
int pg_task_get(struct store *st, const char *id, struct task *t, struct err *e);
int pg_task_look(struct store *st, const char *id, struct task *t, struct err *e);
int pg_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e);
int pg_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e);
int pg_task_trash(struct store *st, const char *id, int64_t now, struct err *e);
int pg_trash_restore(struct store *st, const char *id, char restored[37], struct err *e);
int pg_trash_purge(struct store *st, long *n, struct err *e);
int pg_task_queue(struct store *st, const char *id, int64_t now, struct err *e);
int pg_setting_get(struct store *st, const char *key, char **value, struct err *e);
int pg_setting_set(struct store *st, const char *key, const char *value, struct err *e);
int pg_owner_start(struct store *st, struct err *e);
int pg_owner_beat(struct store *st, int *alive, struct err *e);
void pg_owner_stop(struct store *st);
int pg_owner_bury(struct store *st, const char *owner_id, int64_t stale_after, int *dead, struct err *e);

/* store_pg_batch.c: the batch primitives of store_backend.h */
int pg_runs_insert_many(struct store *st, const struct run *const *r, const int *running, size_t n,
    int *dup, struct err *e);
int pg_tasks_put_many(struct store *st, const struct task *const *t,
    const struct task *const *before, size_t n, struct err *e);
int pg_runs_finish_many(struct store *st, struct run_end *ends, size_t n, struct task *t,
    int *found, struct err *e);

/* store_pg_runs.c */
int pg_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e);
int pg_run_prefix(struct store *st, const struct id_range *ids, struct run *r, int *n,
    struct err *e);
int pg_claim_scan(struct store *st, const struct claim_req *req, struct task *tasks,
    int *last_attempt, int *n, struct err *e);
int pg_run_insert(struct store *st, const struct run *r, int running, int *dup, struct err *e);
int pg_run_finish(struct store *st, const struct run *r, const char *owner_id, int *ended,
    struct err *e);
int pg_run_note(struct store *st, const char *run_id, const char *note, struct err *e);
int pg_run_gate(struct store *st, const char *run_id, const char *model, int max_all, int max_model,
    int64_t lease, int *got, struct err *e);
int pg_run_claims(struct store *st, struct run_claim **out, size_t *n, struct err *e);
int pg_history_load(struct store *st, const char *context, size_t max, struct history_msg **out,
    size_t *n, struct err *e);
int pg_history_add(struct store *st, const char *context, const char *role, const char *content,
    const char *run_id, int64_t now, struct err *e);
int pg_history_clear(struct store *st, const char *context, long *n, struct err *e);
int pg_call_add(struct store *st, struct llm_call *c, struct err *e);
int pg_call_spend(struct store *st, const char *task_id, int64_t since, double *dollars,
    long long *tokens, struct err *e);
int pg_spend_add(struct store *st, const char *task_id, const char *run_id, int64_t at,
    double dollars, long long tokens, struct err *e);
int pg_spend_read(struct store *st, const char *task_id, int64_t since, const char *except_run,
    double *dollars, long long *tokens, struct err *e);
int pg_reserve(struct store *st, const char *run_id, const char *task_id, int ran,
    double *dollars, long long *tokens, struct err *e);
int pg_run_cost(struct store *st, double *dollars, long long *tokens, int *known,
    struct err *e);
int pg_call_usage(struct store *st, int64_t since, call_usage_fn fn, void *arg, struct err *e);
int pg_call_list(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e);
extern const struct history_ops pg_history_ops;   /* store_pg_history.c */
struct audit_ops;
extern const struct web_store_ops pg_web_ops;     /* store_pg_web.c */
extern const struct audit_ops pg_audit_ops;       /* store_pg_audit.c */

#endif
