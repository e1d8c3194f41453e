#include <stdlib.h>
#include <string.h>

#include "runs.h"
#include "store_impl.h"

void
run_filter_init(struct run_filter *f)
{
	memset(f, 0, sizeof *f);
	f->since = TIME_NONE;
}

void
run_free(struct run *r)
{
	free(r->trigger);
	free(r->status);
	free(r->output);
	free(r->error);
	r->trigger = r->status = r->output = r->error = NULL;
}

#define RUN_COLS "id, task_id, slot, trigger, status, started_at, ended_at, exit_code," \
	" duration_ms, attempt"

static void
read_run(sqlite3_stmt *s, struct run *r, int with_output)
{
	memset(r, 0, sizeof *r);
	const unsigned char *id = sqlite3_column_text(s, 0), *task = sqlite3_column_text(s, 1);
	snprintf(r->id, sizeof r->id, "%s", id ? (const char *)id : "");
	snprintf(r->task_id, sizeof r->task_id, "%s", task ? (const char *)task : "");
	r->slot = col_time(s, 2);
	r->trigger = col_text(s, 3);
	r->status = col_text(s, 4);
	r->started_at = col_time(s, 5);
	r->ended_at = col_time(s, 6);
	r->exit_code = sqlite3_column_type(s, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(s, 7);
	r->duration_ms = sqlite3_column_type(s, 8) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 8);
	r->attempt = sqlite3_column_int(s, 9);
	if (with_output) {
		r->output = col_text(s, 10);
		r->error = col_text(s, 11);
	}
}

int
store_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e)
{
	static const char q[] = "SELECT " RUN_COLS ", output, error FROM runs"
	    " WHERE (?1 IS NULL OR task_id = ?1) AND (?2 IS NULL OR status = ?2)"
	    " AND (?3 IS NULL OR started_at >= ?3)"
	    " ORDER BY started_at DESC, rowid DESC LIMIT ?4";
	static const char qtask[] = "SELECT " RUN_COLS ", output, error FROM runs"
	    " WHERE task_id = ?1 AND (?2 IS NULL OR status = ?2)"
	    " AND (?3 IS NULL OR started_at >= ?3)"
	    " ORDER BY started_at DESC, rowid DESC LIMIT ?4";
	sqlite3_stmt *s = store_stmt(st, f->task_id ? qtask : q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, f->task_id);
	stmt_text(s, 2, f->status);
	stmt_time(s, 3, f->since);
	sqlite3_bind_int64(s, 4, f->limit > 0 ? f->limit : -1);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct run r;
		read_run(s, &r, f->with_output);
		int stop = fn(&r, arg);
		run_free(&r);
		if (stop) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "listing runs");
}

int
store_run_get(struct store *st, const char *prefix, struct run *r, struct err *e)
{
	size_t n = strlen(prefix);
	if (n < 4 || n > 36 || !id_prefix_ok(prefix))
		return err_set(e, ST_NOTFOUND, "no run '%s'", prefix);
	char upper[41];
	snprintf(upper, sizeof upper, "%s~", prefix);
	static const char q[] = "SELECT " RUN_COLS ", output, error FROM runs"
	    " WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT 2";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, prefix);
	stmt_text(s, 2, upper);
	int rc = sqlite3_step(s), found = 0;
	if (rc == SQLITE_ROW) {
		read_run(s, r, 1);
		found = 1;
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW) {
			run_free(r);
			sqlite3_reset(s);
			return err_set(e, ST_REFUSED, "run id prefix '%s' is ambiguous; give more characters",
			    prefix);
		}
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "reading a run");
	return found ? ST_OK : err_set(e, ST_NOTFOUND, "no run '%s'", prefix);
}
