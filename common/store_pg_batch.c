/* The PostgreSQL backend's statements over several rows at once (the
 * batch primitives of store_backend.h): a claim's tasks written and a group
 * of runs ended in one statement each, every column one array parameter,
 * so a burst costs the server a few statements per group, not per run. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"
#include "store_sql.h"

/* Run statement which with rows[0..n) as arrays. */
static int
exec_rows(struct store *st, int which, const struct row *rows, size_t n, PGresult **res,
    const char *what, struct err *e)
{
	char *arrays[ROW_MAX];
	int ncols = rows[0].n;
	store_sql_arrays(rows, n, arrays);
	struct pq_params p = {.n = 0};
	for (int i = 0; i < ncols; i++)
		pq_text(&p, arrays[i]);
	int rc = pq_exec(st, store_sql(pq_sql(st), which), &p, res, what, e);
	for (int i = 0; i < ncols; i++)
		free(arrays[i]);
	return rc;
}

int
pg_tasks_put_many(struct store *st, const struct task *const *t, size_t n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct row *rows = xcalloc(n, sizeof *rows);
	for (size_t i = 0; i < n; i++)
		row_task(&rows[i], t[i], 1);
	PGresult *r;
	int rc = exec_rows(st, SQL_TASKS_UPDATE, rows, n, &r, "updating tasks", e);
	if (!rc) {
		if (strtol(pq->cmdTuples(r), NULL, 10) != (long)n)
			rc = ST_NOTFOUND;
		pq->clear(r);
	}
	for (size_t i = 0; i < n; i++)
		row_free(&rows[i]);
	free(rows);
	return rc;
}

int
pg_tasks_get_many(struct store *st, const char (*ids)[37], size_t n, struct task *t, int *found,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct row *rows = xcalloc(n, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		row_text(&rows[i], ids[i]);
		found[i] = 0;
	}
	PGresult *r;
	int rc = exec_rows(st, SQL_TASKS_GET_LOCK, rows, n, &r, "reading tasks", e);
	free(rows);
	if (rc)
		return rc;
	for (int k = 0, m = pq->ntuples(r); k < m; k++) {
		struct task got;
		task_read(&got, pq_cell, &(struct pq_row){pq, r, k});
		size_t i = 0;
		while (i < n && (found[i] || strcmp(ids[i], got.id) != 0))
			i++;
		if (i < n) {
			t[i] = got;
			found[i] = 1;
		} else {
			task_free(&got);
		}
	}
	pq->clear(r);
	return ST_OK;
}

int
pg_runs_finish_many(struct store *st, struct run_end *ends, size_t n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct row *rows = xcalloc(n, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		store_sql_run_finish(&rows[i], ends[i].run, ends[i].owner ? ends[i].owner : st->self.id);
		ends[i].ours = 0;
	}
	PGresult *r;
	int rc = exec_rows(st, SQL_RUNS_FINISH, rows, n, &r, "recording the ends of runs", e);
	for (size_t i = 0; i < n; i++)
		row_free(&rows[i]);
	free(rows);
	if (rc)
		return rc;
	for (int k = 0, m = pq->ntuples(r); k < m; k++)
		for (size_t i = 0; i < n; i++)
			if (strcmp(ends[i].run->id, pq->getvalue(r, k, 0)) == 0)
				ends[i].ours = 1;
	pq->clear(r);
	return ST_OK;
}
