/* store_sql.h: what the SQL backends (store_sqlite*.c, store_pg*.c) share:
 * their statements about tasks and runs, written once from the tables of
 * task_fields.c in each backend's dialect, with the parameters each takes.
 * Which tasks are due, which run was a task's last attempt and what a
 * listing's filter means are said here, once.  Not for cmd/. */
#ifndef AC_STORE_SQL_H
#define AC_STORE_SQL_H

#include "store.h"
#include "task_fields.h"

/* How a backend's SQL differs. */
struct sql_dialect {
	char param;             /* placeholders: '?' writes ?1, ?2, ...; '$' writes $1, $2, ... */
	const char *order_key;  /* next-run order, tasks without one last, as its index spells it */
	const char *seq;        /* the column of insertion order */
	const char *lock;       /* ends a read in a unit of work: the rows stay as read */
	const char *lock_skip;  /* the same, passing over rows another holds */
};

/* Statements a backend prepares once and keeps (each a stable pointer for
 * as long as the backend keeps them).  Their parameters, in order: */
struct store_sql {
	const struct sql_dialect *d;
	char *task_insert;      /* row_task(t, 0) */
	char *task_update;      /* row_task(t, 1) */
	char *task_get;         /* id; columns of task_read */
	char *task_get_lock;    /* the same, held (store_sql_dialect lock) */
	char *task_prefix;      /* from, to (store_id_range), trashed, max; the ids */
	char *claim[3];         /* by CLAIM_*: store_sql_claim; columns of task_read, then last attempt */
	char *due_next;         /* none: the earliest due_at, whether a run is queued */
	char *run_insert;       /* store_sql_run_insert */
	char *run_finish;       /* store_sql_run_finish */
	char *run_prefix;       /* from, to; columns of run_read with the large ones */
};
void store_sql_init(struct store_sql *q, const struct sql_dialect *d);
void store_sql_free(struct store_sql *q);

/* The statement of a claim (one of q->claim) and its parameters. */
const char *store_sql_claim(const struct store_sql *q, const struct claim_req *req,
    struct row *p);
/* Parameters of run_insert: the run's columns, then its owner's (NULL: none). */
void store_sql_run_insert(struct row *p, const struct run *r, const struct owner *o);
/* Parameters of run_finish: the run's id and end, then the owner it must have. */
void store_sql_run_finish(struct row *p, const struct run *r, const char *owner_id);

/* Built for each listing, malloc'd, with p its parameters: the tasks a
 * filter selects, in its order (count: how many), and the runs. */
char *store_sql_task_list(const struct sql_dialect *d, const struct task_filter *f, int count,
    struct row *p);
char *store_sql_run_list(const struct sql_dialect *d, const struct run_filter *f, struct row *p);

#endif
