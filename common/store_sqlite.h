/* store_sqlite.h: what the SQLite backend's files share (store_sqlite.c:
 * the file, transactions, wake-ups; store_sqlite_conn.c: statements, values
 * in and out; store_sqlite_schema.c: the schema; store_sqlite_tasks.c:
 * tasks, settings, owners; store_sqlite_runs.c: runs, claims,
 * conversations).  Not for cmd/. */
#ifndef AC_STORE_SQLITE_H
#define AC_STORE_SQLITE_H

#include "store_sqlite_conn.h"
#include "store_sqlite_schema.h"

/* store_sqlite_tasks.c */
int sq_task_find_twin(struct store *st, const struct task *t, int *found, char id[37], struct err *e);
int sq_task_insert(struct store *st, const struct task *t, struct err *e);
int sq_task_put(struct store *st, const struct task *t, struct err *e);
int sq_tasks_put_many(struct store *st, const struct task *const *t,
    const struct task *const *before, size_t n, struct err *e);
int sq_task_prefix(struct store *st, const struct id_range *ids, int trashed, char (*found)[37],
    int max, int *n, struct err *e);
int sq_task_get(struct store *st, const char *id, struct task *t, struct err *e);
int sq_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e);
/* The tasks of statement s (each row task_read's columns, then, when tail
 * is not NULL, two integers it keeps of the last row given) into fn, at
 * most limit (<= 0: all); how many in *given (may be NULL).  Finalizes s. */
int sq_task_rows(struct store *st, sqlite3_stmt *s, long limit, task_fn fn, void *arg,
    int64_t tail[2], long *given, struct err *e);
int sq_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e);
int sq_task_trash(struct store *st, const char *id, int64_t now, struct err *e);
int sq_trash_restore(struct store *st, const char *id, char restored[37], struct err *e);
int sq_trash_purge(struct store *st, long *n, struct err *e);
int sq_task_queue(struct store *st, const char *id, int64_t now, struct err *e);
int sq_setting_get(struct store *st, const char *key, char **value, struct err *e);
int sq_setting_set(struct store *st, const char *key, const char *value, struct err *e);
int sq_owner_start(struct store *st, struct err *e);
int sq_owner_beat(struct store *st, int *alive, struct err *e);
void sq_owner_stop(struct store *st);
int sq_owner_bury(struct store *st, const char *owner_id, int64_t stale_after, int *dead, struct err *e);

/* store_sqlite_runs.c */
int sq_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e);
int sq_run_prefix(struct store *st, const struct id_range *ids, struct run *r, int *n,
    struct err *e);
int sq_claim_scan(struct store *st, const struct claim_req *req, struct task *tasks,
    int *last_attempt, int *n, struct err *e);
int sq_run_insert(struct store *st, const struct run *r, int running, int *dup, struct err *e);
int sq_run_finish(struct store *st, const struct run *r, const char *owner_id, int *ended,
    struct err *e);
int sq_run_note(struct store *st, const char *run_id, const char *note, struct err *e);
int sq_due_next(struct store *st, int64_t *due, int *queued, struct err *e);
int sq_run_gate(struct store *st, const char *run_id, const char *model, int max_all, int max_model,
    int64_t lease, int *got, struct err *e);
int sq_run_claims(struct store *st, struct run_claim **out, size_t *n, struct err *e);
int sq_history_load(struct store *st, const char *context, size_t max, struct history_msg **out,
    size_t *n, struct err *e);
int sq_history_add(struct store *st, const char *context, const char *role, const char *content,
    const char *run_id, int64_t now, struct err *e);
int sq_history_clear(struct store *st, const char *context, long *n, struct err *e);
int sq_call_add(struct store *st, struct llm_call *c, struct err *e);
int sq_others_wrote(struct store *st, int64_t *version, struct err *e);
int sq_call_spend(struct store *st, const char *task_id, int64_t since, double *dollars,
    long long *tokens, struct err *e);
int sq_spend_add(struct store *st, const char *task_id, const char *run_id, int64_t at,
    double dollars, long long tokens, struct err *e);
int sq_spend_read(struct store *st, const char *task_id, int64_t since, const char *except_run,
    double *dollars, long long *tokens, struct err *e);
int sq_reserve(struct store *st, const char *run_id, const char *task_id, int ran,
    double *dollars, long long *tokens, struct err *e);
int sq_run_cost(struct store *st, double *dollars, long long *tokens, int *known,
    struct err *e);
int sq_call_usage(struct store *st, int64_t since, call_usage_fn fn, void *arg, struct err *e);
int sq_call_list(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e);
extern const struct history_ops sq_history_ops;   /* store_sqlite_history.c */
struct audit_ops;
extern const struct web_store_ops sq_web_ops;     /* store_sqlite_web.c */
extern const struct audit_ops sq_audit_ops;       /* store_sqlite_audit.c */

#endif
