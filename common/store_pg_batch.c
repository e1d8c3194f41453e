/* The PostgreSQL backend's statements over several rows at once (the
 * batch primitives of store_backend.h): a claim's tasks written and a group
 * of runs ended in one statement each, every column one array parameter,
 * so a burst costs the server a few statements per group, not per run. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"
#include "store_sql.h"

/* Run sql with rows[0..n) as arrays. */
static int
exec_rows(struct store *st, const char *sql, const struct row *rows, size_t n, PGresult **res,
    const char *what, struct err *e)
{
	char *arrays[ROW_MAX];
	int ncols = rows[0].n;
	store_sql_arrays(rows, n, arrays);
	struct pq_params p = {.n = 0};
	for (int i = 0; i < ncols; i++)
		pq_text(&p, arrays[i]);
	int rc = pq_exec(st, sql, &p, res, what, e);
	for (int i = 0; i < ncols; i++)
		free(arrays[i]);
	return rc;
}

/* An update of n tasks: ST_NOTFOUND unless it wrote them all. */
static int
update_tasks(struct store *st, const char *sql, const struct row *rows, size_t n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	PGresult *r;
	int rc = exec_rows(st, sql, rows, n, &r, "updating tasks", e);
	if (!rc) {
		if (strtol(pq->cmdTuples(r), NULL, 10) != (long)n)
			rc = ST_NOTFOUND;
		pq->clear(r);
	}
	return rc;
}

/* Each task written whole, or, with before (the rows as read, held since),
 * only the columns that changed in one of them. */
int
pg_tasks_put_many(struct store *st, const struct task *const *t, const struct task *const *before,
    size_t n, struct err *e)
{
	struct row *rows = xcalloc(n, sizeof *rows);
	unsigned char cols[ROW_MAX] = {0};
	int some = before != NULL, any = 0;
	for (size_t i = 0; i < n; i++) {
		row_task(&rows[i], t[i], 1);
		if (some && before[i]) {
			struct row was;
			row_task(&was, before[i], 1);
			any |= store_sql_tasks_changed(&was, &rows[i], cols);
			row_free(&was);
		} else {
			some = 0;
		}
	}
	const char *sql = some ? store_sql_tasks_update(pq_sql(st), cols) : NULL;
	int rc = ST_OK;
	if (sql) {
		struct row *picked = xcalloc(n, sizeof *picked);
		for (size_t i = 0; i < n; i++)
			store_sql_tasks_pick(&picked[i], &rows[i], cols);
		/* Nothing changed: the rows held are as they were. */
		if (any)
			rc = update_tasks(st, sql, picked, n, e);
		free(picked);
	} else {
		rc = update_tasks(st, store_sql(pq_sql(st), SQL_TASKS_UPDATE), rows, n, e);
	}
	for (size_t i = 0; i < n; i++)
		row_free(&rows[i]);
	free(rows);
	return rc;
}

/* Run sql, which returns ids, over rows[0..n) (each an id first), freed;
 * hit[i] says whether row i's id came back. */
static int
exec_rows_hits(struct store *st, const char *sql, struct row *rows, size_t n, int *hit,
    const char *what, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	PGresult *r;
	int rc = exec_rows(st, sql, rows, n, &r, what, e);
	for (size_t i = 0; i < n; i++)
		hit[i] = 0;
	for (int k = 0, m = rc ? 0 : pq->ntuples(r); k < m; k++)
		for (size_t i = 0; i < n; i++)
			if (strcmp(rows[i].c[0].s, pq->getvalue(r, k, 0)) == 0)
				hit[i] = 1;
	if (!rc)
		pq->clear(r);
	for (size_t i = 0; i < n; i++)
		row_free(&rows[i]);
	free(rows);
	return rc;
}

int
pg_runs_finish_many(struct store *st, struct run_end *ends, size_t n, struct task *t, int *found,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct row *rows = xcalloc(n, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		store_sql_run_finish(&rows[i], ends[i].run, ends[i].owner ? ends[i].owner : st->self.id);
		ends[i].ours = found[i] = 0;
	}
	PGresult *r;
	int rc = exec_rows(st, store_sql(pq_sql(st), SQL_RUNS_FINISH), rows, n, &r,
	    "recording the ends of runs", e);
	for (size_t i = 0; i < n; i++)
		row_free(&rows[i]);
	free(rows);
	if (rc)
		return rc;
	/* Each row: a run ended, its task's columns, then the run's id. */
	int last = pq->nfields(r) - 1;
	for (int k = 0, m = pq->ntuples(r); k < m; k++) {
		size_t i = 0;
		while (i < n && (ends[i].ours || strcmp(ends[i].run->id, pq->getvalue(r, k, last)) != 0))
			i++;
		if (i == n)
			continue;
		ends[i].ours = found[i] = 1;
		task_read(&t[i], pq_cell, &(struct pq_row){pq, r, k});
	}
	pq->clear(r);
	return ST_OK;
}

int
pg_runs_insert_many(struct store *st, const struct run *const *r, const int *running, size_t n,
    int *dup, struct err *e)
{
	struct row *rows = xcalloc(n, sizeof *rows);
	for (size_t i = 0; i < n; i++)
		store_sql_run_insert(pq_sql(st)->d, &rows[i], r[i], running[i] ? &st->self : NULL);
	int rc = exec_rows_hits(st, store_sql(pq_sql(st), SQL_RUNS_INSERT), rows, n, dup,
	    "recording runs", e);
	/* Returned: inserted; the others a unique index refused. */
	for (size_t i = 0; !rc && i < n; i++)
		dup[i] = !dup[i];
	return rc;
}
