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

/* ---- claims ---- */

/* The condition of the tasks_due partial index, spelled the same so the
 * planner uses it. */
#define DUE_WHERE "status = 'pending' AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL"

int
store_due_next(struct store *st, int64_t *due, struct err *e)
{
	static const char q[] = "SELECT min(due_at) FROM tasks WHERE " DUE_WHERE;
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s);
	*due = rc == SQLITE_ROW ? col_time(s, 0) : TIME_NONE;
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? ST_OK : store_sqlerr(st, e, "looking for due tasks");
}

void
due_cursor_init(struct due_cursor *c)
{
	c->due = INT64_MIN;
	c->rowid = INT64_MIN;
}

int
store_due_scan(struct store *st, int64_t now, struct due_cursor *c, char (*ids)[37], int max,
    int *n, struct err *e)
{
	static const char q[] = "SELECT id, due_at, rowid FROM tasks WHERE " DUE_WHERE
	    " AND due_at <= ?1 AND (due_at, rowid) > (?2, ?3) ORDER BY due_at, rowid LIMIT ?4";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, c->due);
	sqlite3_bind_int64(s, 3, c->rowid);
	sqlite3_bind_int(s, 4, max);
	int rc;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < max) {
		snprintf(ids[*n], 37, "%s", (const char *)sqlite3_column_text(s, 0));
		c->due = sqlite3_column_int64(s, 1);
		c->rowid = sqlite3_column_int64(s, 2);
		(*n)++;
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "looking for due tasks");
}

int
store_queued_scan(struct store *st, char (*ids)[37], int max, int *n, struct err *e)
{
	static const char q[] = "SELECT id FROM tasks WHERE queued != 0 AND deleted_at IS NULL"
	    " AND status != 'running' LIMIT ?1";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int(s, 1, max);
	int rc;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < max)
		snprintf(ids[(*n)++], 37, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "looking for queued tasks");
}

int
store_task_queue(struct store *st, const char *id, int64_t now, struct err *e)
{
	static const char q[] = "UPDATE tasks SET queued = 1, updated_at = ?2 WHERE id = ?1"
	    " AND deleted_at IS NULL";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, id);
	sqlite3_bind_int64(s, 2, now);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "queueing a run");
	return sqlite3_changes(store_db(st)) ? ST_OK : err_set(e, ST_NOTFOUND, "no task '%s'", id);
}

int
store_heartbeat_tasks(struct store *st, task_fn fn, void *arg, struct err *e)
{
	static const char q[] = "SELECT id FROM tasks WHERE kind = 'heartbeat' AND status = 'pending'"
	    " AND enabled = 1 AND deleted_at IS NULL ORDER BY created_at, rowid";
	sqlite3_stmt *s;
	/* Not cached: the callback reads tasks while this is stepped. */
	if (sqlite3_prepare_v2(store_db(st), q, -1, &s, NULL) != SQLITE_OK)
		return store_sqlerr(st, e, "listing heartbeat tasks");
	int rc, status = ST_OK;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		char id[37];
		snprintf(id, sizeof id, "%s", (const char *)sqlite3_column_text(s, 0));
		struct task t;
		if ((status = store_task_get(st, id, &t, e)))
			break;
		int stop = fn(&t, arg);
		task_free(&t);
		if (stop)
			break;
	}
	if (!status && rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_sqlerr(st, e, "listing heartbeat tasks");
	sqlite3_finalize(s);
	return status;
}

int
store_run_begin(struct store *st, const struct run *r, const struct run_owner *o,
    int64_t lease_until, const char *prev_status, int *dup, struct err *e)
{
	static const char q[] = "INSERT INTO runs (id, task_id, slot, trigger, status, started_at,"
	    " attempt, owner_host, owner_boot, owner_pid, owner_start, lease_until, prev_status,"
	    " ended_at, error, duration_ms)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
	    " ON CONFLICT(task_id, slot) DO NOTHING";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, r->id);
	stmt_text(s, 2, r->task_id);
	stmt_time(s, 3, r->slot);
	stmt_text(s, 4, r->trigger);
	stmt_text(s, 5, r->status);
	sqlite3_bind_int64(s, 6, r->started_at);
	sqlite3_bind_int(s, 7, r->attempt);
	if (o) {
		stmt_text(s, 8, o->host);
		stmt_text(s, 9, o->boot);
		sqlite3_bind_int64(s, 10, o->pid);
		sqlite3_bind_int64(s, 11, o->start);
		stmt_time(s, 12, lease_until);
	}
	stmt_text(s, 13, prev_status);
	stmt_time(s, 14, r->ended_at);
	stmt_text(s, 15, r->error);
	if (r->duration_ms >= 0)
		sqlite3_bind_int64(s, 16, r->duration_ms);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "recording a run");
	*dup = sqlite3_changes(store_db(st)) == 0;
	return ST_OK;
}

int
store_run_end(struct store *st, const struct run *r, int *was_running, struct err *e)
{
	static const char q[] = "UPDATE runs SET status = ?2, ended_at = ?3, exit_code = ?4,"
	    " output = ?5, error = ?6, duration_ms = ?7 WHERE id = ?1 AND status = 'running'";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, r->id);
	stmt_text(s, 2, r->status);
	stmt_time(s, 3, r->ended_at);
	if (r->exit_code >= 0)
		sqlite3_bind_int(s, 4, r->exit_code);
	stmt_text(s, 5, r->output);
	stmt_text(s, 6, r->error);
	if (r->duration_ms >= 0)
		sqlite3_bind_int64(s, 7, r->duration_ms);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "recording the end of a run");
	*was_running = sqlite3_changes(store_db(st)) != 0;
	return ST_OK;
}

static void
col_copy(sqlite3_stmt *s, int i, char *dst, size_t n)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	snprintf(dst, n, "%s", t ? (const char *)t : "");
}

int
store_run_claims(struct store *st, int (*fn)(const struct run_claim *c, void *arg), void *arg,
    struct err *e)
{
	static const char q[] = "SELECT id, task_id, slot, started_at, lease_until, trigger,"
	    " prev_status, owner_host, owner_boot, owner_pid, owner_start, attempt FROM runs"
	    " WHERE status = 'running'";
	sqlite3_stmt *s;
	/* Not cached: the callback may write while this is stepped. */
	if (sqlite3_prepare_v2(store_db(st), q, -1, &s, NULL) != SQLITE_OK)
		return store_sqlerr(st, e, "listing running runs");
	int rc;
	struct run_claim *all = NULL;
	size_t n = 0, cap = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap)
			all = xrealloc(all, (cap = cap ? cap * 2 : 8) * sizeof *all);
		struct run_claim *c = &all[n++];
		memset(c, 0, sizeof *c);
		col_copy(s, 0, c->id, sizeof c->id);
		col_copy(s, 1, c->task_id, sizeof c->task_id);
		c->slot = col_time(s, 2);
		c->started_at = col_time(s, 3);
		c->lease_until = col_time(s, 4);
		col_copy(s, 5, c->trigger, sizeof c->trigger);
		col_copy(s, 6, c->prev_status, sizeof c->prev_status);
		col_copy(s, 7, c->owner.host, sizeof c->owner.host);
		col_copy(s, 8, c->owner.boot, sizeof c->owner.boot);
		c->owner.pid = sqlite3_column_int64(s, 9);
		c->owner.start = sqlite3_column_int64(s, 10);
		c->attempt = sqlite3_column_int(s, 11);
	}
	sqlite3_finalize(s);
	int status = rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "listing running runs");
	for (size_t i = 0; i < n && !status; i++)
		if (fn(&all[i], arg))
			break;
	free(all);
	return status;
}

int
store_run_last_attempt(struct store *st, const char *task_id, int *attempt, struct err *e)
{
	/* Manual runs are outside the retry count of an occurrence. */
	static const char q[] = "SELECT attempt FROM runs WHERE task_id = ?1 AND trigger != 'manual'"
	    " ORDER BY started_at DESC, rowid DESC LIMIT 1";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, task_id);
	int rc = sqlite3_step(s);
	*attempt = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "reading a task's runs");
}
