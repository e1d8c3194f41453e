/* The SQLite backend's inputs of chained and event runs (store_chain.h;
 * the table is the last step of store_sqlite.c's schema). */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"
#include "store_chain.h"

static const char *
or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static int
sqc_input_add(struct store *st, const struct run_input *in, int *added, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_INPUT_ADD), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, in->id);
	sq_text(s, 2, in->task_id);
	sq_text(s, 3, input_kind_name(in->kind));
	sq_text(s, 4, in->key);
	sq_text(s, 5, or_null(in->upstream_run));
	if (in->slot != TIME_NONE)
		sqlite3_bind_int64(s, 6, in->slot);
	sq_text(s, 7, in->text);
	sqlite3_bind_int64(s, 8, in->created_at);
	sq_text(s, 9, or_null(in->run_id));
	return sq_done_changed(st, s, e, "adding a run's input", added);
}

static int
sqc_input_find(struct store *st, int by, const char *task_id, const char *key,
    struct run_input *out, int *found, struct err *e)
{
	const char *qkey = store_sql(sq_sql(st), SQL_INPUT_BY_KEY);
	static const char qrun[] = "SELECT " INPUT_COLS " FROM run_inputs WHERE run_id = ?2"
	    " AND ?1 IS NULL";
	static const char qnext[] = "SELECT " INPUT_COLS " FROM run_inputs WHERE task_id = ?1"
	    " AND run_id IS NULL AND ?2 IS NULL ORDER BY created_at, rowid LIMIT 1";
	sqlite3_stmt *s = sq_stmt(st, by == INPUT_BY_KEY ? qkey : by == INPUT_OF_RUN ? qrun : qnext, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, by == INPUT_OF_RUN ? NULL : task_id);
	sq_text(s, 2, by == INPUT_NEXT ? NULL : key);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		sq_col_copy(s, 0, out->id, sizeof out->id);
		sq_col_copy(s, 1, out->task_id, sizeof out->task_id);
		const char *k = (const char *)sqlite3_column_text(s, 2);
		out->kind = input_kind_parse(k);
		out->key = sq_col_text(s, 3);
		sq_col_copy(s, 4, out->upstream_run, sizeof out->upstream_run);
		out->slot = sq_col_time(s, 5);
		out->text = sq_col_text(s, 6);
		out->created_at = sq_col_time(s, 7);
		sq_col_copy(s, 8, out->run_id, sizeof out->run_id);
		*found = 1;
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading a run's input");
}

static int
sqc_input_bind(struct store *st, const char *id, const char *run_id, int *got, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_INPUT_BIND), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	sq_text(s, 2, run_id);
	return sq_done_changed(st, s, e, "taking a run's input", got);
}

static int
sqc_followers(struct store *st, const char *upstream_id, follower_fn fn, void *arg,
    struct err *e)
{
	/* Through the index of the few tasks that follow others: else SQLite
	 * walked every task at the end of every run. */
	static const char q[] = "SELECT id, after_tasks, enabled FROM tasks INDEXED BY tasks_after"
	    " WHERE after_tasks IS NOT NULL AND deleted_at IS NULL AND instr(after_tasks, ?1) > 0"
	    " ORDER BY created_at, id";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, upstream_id);
	/* Read whole first: fn may write. */
	struct fol { char id[37]; char *after; int enabled; } *all = NULL;
	size_t n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		all = xrealloc(all, (n + 1) * sizeof *all);
		sq_col_copy(s, 0, all[n].id, sizeof all[n].id);
		all[n].after = sq_col_text(s, 1);
		all[n].enabled = sqlite3_column_int(s, 2);
		n++;
	}
	sqlite3_reset(s);
	int status = rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading a task's followers");
	for (size_t i = 0; i < n; i++) {
		if (!status && fn(all[i].id, all[i].after, all[i].enabled, arg))
			status = ST_ERR;
		free(all[i].after);
	}
	free(all);
	return status;
}

static int
sqc_followed(struct store *st, int *any, struct err *e)
{
	static const char q[] = "SELECT EXISTS (SELECT 1 FROM tasks INDEXED BY tasks_after"
	    " WHERE after_tasks IS NOT NULL AND deleted_at IS NULL)";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s);
	*any = rc != SQLITE_ROW || sqlite3_column_int(s, 0) != 0;
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "looking for tasks that follow others");
}

/* A unit of work that writes holds the database's one write lock, and one
 * that read before another wrote cannot write: nothing more to hold. */
static int
sqc_lock(struct store *st, struct err *e)
{
	(void)st;
	(void)e;
	return ST_OK;
}

static int
sqc_upstream(struct store *st, const char *id, struct chain_upstream *u, int *found,
    struct err *e)
{
	static const char q[] = "SELECT after_tasks, name, deleted_at IS NOT NULL FROM tasks"
	    " WHERE id = ?1";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*found = 1;
		u->after = sq_col_text(s, 0);
		u->name = sq_col_text(s, 1);
		u->trashed = sqlite3_column_int(s, 2) != 0;
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading a task's links");
}

const struct chain_ops sq_chain_ops = {
	.input_add = sqc_input_add,
	.input_find = sqc_input_find,
	.input_bind = sqc_input_bind,
	.followers = sqc_followers,
	.followed = sqc_followed,
	.lock = sqc_lock,
	.upstream = sqc_upstream,
};
