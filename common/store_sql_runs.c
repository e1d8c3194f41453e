/* store_sql_runs.c: the SQL backends' statements that insert and end
 * runs, with their parameters (store_sql.h), from the table of
 * task_fields.c. */
#include <stdio.h>
#include <string.h>

#include "store_sql_impl.h"

/* "UPDATE runs SET" each end column = PREFIX2, PREFIX3, ...; the last number. */
static int
set_end_columns(struct buf *b, const char *prefix)
{
	int n = 1;
	buf_puts(b, "UPDATE runs SET ");
	for (size_t i = 0; i < run_fields.n; i++) {
		if (field_in(&run_fields.f[i], COLS_END)) {
			n++;
			buf_printf(b, "%s%s = %s%d", n > 2 ? ", " : "", run_fields.f[i].column, prefix, n);
		}
	}
	return n;
}

/* A run's end (its F_END columns) by its id (?1), if it is still running
 * under the owner given last. */
static char *
run_finish(const struct sql_dialect *d)
{
	struct buf b = {0};
	int n = set_end_columns(&b, "?");
	buf_printf(&b, " WHERE id = ?1 AND status = 'running' AND coalesce(owner_id, '') = ?%d", n + 1);
	return sql_in_dialect(&b, d);
}

/* SQL_RUNS_FINISH (PostgreSQL's): run_finish for the arrays' rows, and the
 * task of each run it ended read and held (in the order of their ids, as
 * any group of tasks is locked), the run's id after the task's columns:
 * one round trip where there were two. */
static char *
runs_finish(const struct sql_dialect *d)
{
	struct buf b = {0};
	buf_puts(&b, "WITH ended AS (");
	int n = set_end_columns(&b, "u.c");
	/* The id first, as row_run writes it, then the end's columns. */
	buf_puts(&b, " FROM unnest(?1::text[]");
	n = 1;
	for (size_t i = 0; i < run_fields.n; i++)
		if (field_in(&run_fields.f[i], COLS_END))
			buf_printf(&b, ", ?%d::%s[]", ++n, field_is_int(&run_fields.f[i]) ? "bigint" : "text");
	buf_printf(&b, ", ?%d::text[]) AS u(c1", n + 1);
	for (int k = 2; k <= n; k++)
		buf_printf(&b, ", c%d", k);
	buf_puts(&b, ", owner) WHERE runs.id = u.c1 AND runs.status = 'running'"
	    " AND coalesce(runs.owner_id, '') = u.owner RETURNING runs.id AS run_id, runs.task_id) ");
	sql_select_list(&b, &task_fields, 0);
	buf_puts(&b, ", ended.run_id FROM ended JOIN tasks ON tasks.id = ended.task_id"
	    " ORDER BY tasks.id FOR UPDATE OF tasks");
	return sql_in_dialect(&b, d);
}

/* The owner's columns of a run, written after the run's (each after
 * ", ").  Where owners are kept apart (a row of processes each, kept
 * while it owns a run in flight) the id alone: the rest was a fifth of
 * a new run's row. */
static const char *
owner_columns(const struct sql_dialect *d)
{
	return d->owners_apart ? ", owner_id"
	    : ", owner_id, owner_host, owner_node, owner_pid, owner_start";
}

/* The end of a run's insert: a run of the same task, instant and arming
 * (the unique key; u. the names of the row inserted) makes it insert
 * nothing.  Where the dialect reads the key first (unique_by_read), no
 * ON CONFLICT: every insert of a run holds its task's row (the claim's
 * lock), so none of the same key can be under way, and PostgreSQL's
 * speculative insertion writes a record more per run to say it is done. */
static void
run_insert_unless(struct buf *b, const struct sql_dialect *d, const char *task_id,
    const char *slot, const char *arming)
{
	if (d->unique_by_read)
		buf_printf(b, " WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.task_id = %s"
		    " AND r.slot = %s AND r.arming = %s)", task_id, slot, arming);
	else
		buf_puts(b, " ON CONFLICT DO NOTHING");
}

/* The placeholder of a run's column (COLS_WRITE) among its insert's. */
static void
run_param(char *out, size_t n, const char *column)
{
	int pos = 0;
	for (size_t i = 0; i < run_fields.n; i++) {
		if (!field_in(&run_fields.f[i], COLS_WRITE))
			continue;
		pos++;
		if (strcmp(run_fields.f[i].column, column) == 0)
			break;
	}
	snprintf(out, n, "?%d", pos);
}

/* SQL_RUN_INSERT: a run's columns, then its owner's. */
static char *
run_insert(const struct sql_dialect *d)
{
	if (!d->unique_by_read)
		return sql_insert(d, "runs", &run_fields, owner_columns(d), d->owners_apart ? 1 : 5,
		    " ON CONFLICT DO NOTHING");
	struct buf b = {0};
	int n = 0, nmore = d->owners_apart ? 1 : 5;
	char task_id[16], slot[16], arming[16];
	buf_puts(&b, "INSERT INTO runs (");
	sql_columns(&b, &run_fields, COLS_WRITE, "");
	buf_printf(&b, "%s) SELECT ", owner_columns(d));
	for (size_t i = 0; i < run_fields.n; i++)
		n += field_in(&run_fields.f[i], COLS_WRITE);
	for (int i = 1; i <= n + nmore; i++)
		buf_printf(&b, i > 1 ? ", ?%d" : "?%d", i);
	run_param(task_id, sizeof task_id, "task_id");
	run_param(slot, sizeof slot, "slot");
	run_param(arming, sizeof arming, "arming");
	run_insert_unless(&b, d, task_id, slot, arming);
	return sql_in_dialect(&b, d);
}

/* SQL_RUNS_INSERT: SQL_RUN_INSERT for the arrays' rows; the ids inserted. */
static char *
runs_insert(const struct sql_dialect *d)
{
	struct buf b = {0};
	int n = 0;
	buf_puts(&b, "INSERT INTO runs (");
	sql_columns(&b, &run_fields, COLS_WRITE, "");
	buf_printf(&b, "%s) SELECT * FROM unnest(", owner_columns(d));
	for (size_t i = 0; i < run_fields.n; i++) {
		if (field_in(&run_fields.f[i], COLS_WRITE)) {
			buf_printf(&b, "%s?%d::%s[]", n ? ", " : "", n + 1,
			    field_is_int(&run_fields.f[i]) ? "bigint" : "text");
			n++;
		}
	}
	buf_printf(&b, ", ?%d::text[]", n + 1);
	if (!d->owners_apart)
		buf_printf(&b, ", ?%d::text[], ?%d::text[], ?%d::bigint[], ?%d::bigint[]", n + 2, n + 3,
		    n + 4, n + 5);
	/* The arrays' columns named as the table's. */
	buf_puts(&b, ") AS u(");
	sql_columns(&b, &run_fields, COLS_WRITE, "");
	buf_printf(&b, "%s)", owner_columns(d));
	run_insert_unless(&b, d, "u.task_id", "u.slot", "u.arming");
	buf_puts(&b, " RETURNING id");
	return sql_in_dialect(&b, d);
}

void
store_sql_run_insert(const struct sql_dialect *d, struct row *p, const struct run *r,
    const struct owner *o)
{
	row_run(p, r, COLS_WRITE);
	row_text(p, o ? o->id : NULL);
	if (d->owners_apart)
		return;
	row_text(p, o ? o->host : NULL);
	row_text(p, o ? o->node : NULL);
	row_time(p, o ? o->pid : TIME_NONE);
	row_time(p, o ? o->start : TIME_NONE);
}

void
store_sql_run_finish(struct row *p, const struct run *r, const char *owner_id)
{
	row_run(p, r, COLS_END);
	row_text(p, owner_id);
}

char *
sql_run_write(const struct sql_dialect *d, int which)
{
	switch (which) {
	case SQL_RUN_INSERT: return run_insert(d);
	case SQL_RUN_FINISH: return run_finish(d);
	case SQL_RUNS_INSERT: return runs_insert(d);
	default: return runs_finish(d);
	}
}
