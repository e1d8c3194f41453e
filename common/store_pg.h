/* store_pg.h: what the PostgreSQL backend's files share (store_pg.c: the
 * connection, statements, transactions, wake-ups; store_pg_params.c:
 * values in and out; store_pg_schema.c: the schema; store_pg_tasks.c:
 * tasks, settings, owners; store_pg_runs.c: runs, claims, conversations).
 * Not for cmd/. */
#ifndef AC_STORE_PG_H
#define AC_STORE_PG_H

#include "pq_lib.h"
#include "store_backend.h"
#include "store_sql.h"

#define PQ_MAXPARAMS ROW_MAX

/* The parameters of one statement, as text (NULL for SQL NULL). */
struct pq_params {
	const char *v[PQ_MAXPARAMS];
	char num[PQ_MAXPARAMS][24];
	char *owned[PQ_MAXPARAMS];  /* copies made valid UTF-8 */
	int n;
};
void pq_text(struct pq_params *p, const char *s);
void pq_int(struct pq_params *p, long long v);
void pq_time(struct pq_params *p, int64_t t);          /* TIME_NONE: NULL */
void pq_params_free(struct pq_params *p);

/* The libpq of st, loaded when it was opened. */
const struct pq_lib *pq_of(struct store *st);

/* Run sql (a string literal or a statement of pq_sql: prepared once per
 * connection, keyed by pointer) with p; *res is the result to PQclear.  ST_ERR says what failed
 * and where, never with a password; a unique violation is ST_REFUSED. */
int pq_exec(struct store *st, const char *sql, struct pq_params *p, PGresult **res,
    const char *what, struct err *e);
int pq_exec_dynamic(struct store *st, const char *sql, struct pq_params *p, PGresult **res,
    const char *what, struct err *e);      /* built at run time: not prepared */
int pq_do(struct store *st, const char *sql, struct pq_params *p, long *rows, const char *what,
    struct err *e);                        /* no rows wanted; *rows affected (may be NULL) */
/* Statements with no parameters and no rows, several at once allowed
 * (the schema's steps), by the simple protocol. */
int pq_simple(struct store *st, const char *sql, const char *what, struct err *e);
void pq_abort(struct store *st);           /* ROLLBACK, whatever became of the connection */
int pq_connected(struct store *st);        /* the connection is up */

char *pq_get_text(const struct pq_lib *pq, const PGresult *r, int row, int col);    /* malloc'd, NULL for NULL */
int64_t pq_get_time(const struct pq_lib *pq, const PGresult *r, int row, int col);  /* TIME_NONE for NULL */
long long pq_get_int(const struct pq_lib *pq, const PGresult *r, int row, int col); /* 0 for NULL */
void pq_get_copy(const struct pq_lib *pq, const PGresult *r, int row, int col, char *dst, size_t n);

/* the statements of store_sql.h (store_pg.c), and rows in and out (store_pg_params.c) */
struct store_sql *pq_sql(struct store *st);
void pq_bind(struct pq_params *p, const struct row *r);  /* r's texts must outlive p */
/* A row of a result, for pq_cell. */
struct pq_row {
	const struct pq_lib *pq;
	const PGresult *res;
	int row;
};
struct cell pq_cell(void *row, int col, int is_int);     /* a cell_fn of a struct pq_row */
/* Rows of a query, a batch at a time through a cursor, so fn may use the
 * store between rows and a big listing is never all in memory; a query of
 * at most FETCH_ROWS rows (limit) in one trip.  fn's non-zero stops. */
int pq_each_row(struct store *st, const char *sql, struct pq_params *p, long limit,
    int (*fn)(const struct pq_lib *pq, const PGresult *r, int row, void *arg), void *arg,
    const char *what, struct err *e);

/* store_pg_schema.c: the schema version (0: none of ours) and the
 * server's clock minus ours (st->skew_ms); the schema brought up to date. */
int pg_schema_version(struct store *st, int *version, struct err *e);
int pg_migrate(struct store *st, struct err *e);
int pg_durability(struct store *st, char *off, size_t n, struct err *e);  /* store_ops' */
int pg_async_standbys(struct store *st, long *n, struct err *e);

/* store_pg_tasks.c */
int pg_task_find_twin(struct store *st, const struct task *t, int *found, char id[37], struct err *e);
int pg_task_insert(struct store *st, const struct task *t, struct err *e);
int pg_task_put(struct store *st, const struct task *t, struct err *e);
int pg_task_prefix(struct store *st, const struct id_range *ids, int trashed, char (*found)[37],
    int max, int *n, struct err *e);
int pg_task_get(struct store *st, const char *id, struct task *t, struct err *e);
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
int pg_due_next(struct store *st, int64_t *due, int *queued, struct err *e);
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
int pg_reserve(struct store *st, const char *run_id, const char *task_id, double dollars,
    long long tokens, struct err *e);
int pg_run_cost(struct store *st, const char *task_id, double *dollars, long long *tokens,
    int *known, struct err *e);
int pg_call_usage(struct store *st, int64_t since, call_usage_fn fn, void *arg, struct err *e);
int pg_call_list(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e);
extern const struct history_ops pg_history_ops;   /* store_pg_history.c */
struct audit_ops;
extern const struct web_store_ops pg_web_ops;     /* store_pg_web.c */
extern const struct audit_ops pg_audit_ops;       /* store_pg_audit.c */

#endif
