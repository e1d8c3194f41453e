/* The SQLite backend's delivery receipts (store_deliver.h; the table is
 * step 13 of store_sqlite.c's schema). */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"
#include "store_deliver.h"

static const char *
or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static void
read_receipt(sqlite3_stmt *s, struct receipt *r)
{
	receipt_init(r);
	sq_col_copy(s, 0, r->id, sizeof r->id);
	sq_col_copy(s, 1, r->run_id, sizeof r->run_id);
	sq_col_copy(s, 2, r->task_id, sizeof r->task_id);
	r->target = sq_col_text(s, 3);
	sq_col_copy(s, 4, r->kind, sizeof r->kind);
	r->status = receipt_status_parse((const char *)sqlite3_column_text(s, 5));
	r->attempts = sqlite3_column_int(s, 6);
	r->created_at = sq_col_time(s, 7);
	r->next_at = sq_col_time(s, 8);
	r->last_at = sq_col_time(s, 9);
	r->answer = sq_col_text(s, 10);
	r->error = sq_col_text(s, 11);
	r->task_name = sq_col_text(s, 12);
	r->parts_done = sqlite3_column_int(s, 13);
}

static int
each(struct store *st, sqlite3_stmt *s, receipt_fn fn, void *arg, const char *what, struct err *e)
{
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct receipt r;
		read_receipt(s, &r);
		int stop = fn(&r, arg);
		receipt_free(&r);
		if (stop) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, what);
}

static int
sqd_add(struct store *st, const struct receipt *r, int *added, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RECEIPT_ADD), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, r->id);
	sq_text(s, 2, r->run_id);
	sq_text(s, 3, r->task_id);
	sq_text(s, 4, r->target);
	sq_text(s, 5, r->kind);
	sqlite3_bind_int64(s, 6, r->created_at);
	sqlite3_bind_int64(s, 7, r->next_at);
	return sq_done_changed(st, s, e, "adding a receipt", added);
}

static int
sqd_list(struct store *st, const struct receipt_filter *f, receipt_fn fn, void *arg, struct err *e)
{
	static const char q[] = "SELECT " RECEIPT_COLS RECEIPT_FROM " WHERE (?1 IS NULL OR r.status = ?1)"
	    " AND (?2 IS NULL OR r.task_id = ?2) AND (?3 IS NULL OR r.run_id = ?3)"
	    " ORDER BY r.created_at DESC, r.id LIMIT ?4";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, f->status >= 0 ? receipt_status_name(f->status) : NULL);
	sq_text(s, 2, or_null(f->task_id));
	sq_text(s, 3, or_null(f->run_id));
	sqlite3_bind_int64(s, 4, f->limit > 0 ? f->limit : -1);
	return each(st, s, fn, arg, "reading receipts", e);
}

static int
sqd_due(struct store *st, int64_t now, long max, receipt_fn fn, void *arg, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RECEIPT_DUE), e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, max > 0 ? max : -1);
	return each(st, s, fn, arg, "reading due receipts", e);
}

static int
sqd_claim(struct store *st, const char *id, const char *owner, int64_t now, int64_t lease_until,
    int *got, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RECEIPT_CLAIM), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	sq_text(s, 2, owner);
	sqlite3_bind_int64(s, 3, now);
	sqlite3_bind_int64(s, 4, lease_until);
	return sq_done_changed(st, s, e, "claiming a receipt", got);
}

static int
sqd_finish(struct store *st, const struct receipt *r, const char *owner, int *ours, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RECEIPT_FINISH), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, r->id);
	sq_text(s, 2, owner);
	sq_text(s, 3, receipt_status_name(r->status));
	if (r->next_at == TIME_NONE)
		sqlite3_bind_null(s, 4);
	else
		sqlite3_bind_int64(s, 4, r->next_at);
	sqlite3_bind_int64(s, 5, r->last_at);
	sq_text(s, 6, r->answer);
	sq_text(s, 7, r->error);
	sqlite3_bind_int(s, 8, r->parts_done);
	return sq_done_changed(st, s, e, "recording a delivery", ours);
}

static int
sqd_progress(struct store *st, const char *id, const char *owner, int parts_done,
    int64_t lease_until, int *ours, struct err *e)
{
	static const char q[] = "UPDATE receipts SET parts_done = ?3,"
	    " lease_until = max(lease_until, ?4) WHERE id = ?1 AND lease_owner = ?2";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	sq_text(s, 2, owner);
	sqlite3_bind_int(s, 3, parts_done);
	sqlite3_bind_int64(s, 4, lease_until);
	return sq_done_changed(st, s, e, "recording a part delivered", ours);
}

static int
sqd_counts(struct store *st, int64_t since, void (*fn)(const char *kind, const char *status,
    long long n, void *arg), void *arg, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RECEIPT_COUNTS), e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, since);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(s, 0), (const char *)sqlite3_column_text(s, 1),
		    sqlite3_column_int64(s, 2), arg);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "counting receipts");
}

/* A run ended after the cursor, read through runs_started
 * (DELIVER_FRESH_SPAN). */
static int
sqd_fresh(struct store *st, int64_t now, int any, int *fresh, struct err *e)
{
	static const char q[] = "SELECT EXISTS (SELECT 1 FROM runs r WHERE r.started_at >= c.at - ?3"
	    " AND r.ended_at > c.at AND (?2 OR EXISTS (SELECT 1 FROM tasks t WHERE t.id = r.task_id"
	    " AND t.deliver IS NOT NULL AND t.deleted_at IS NULL))) OR coalesce((SELECT CAST(value AS"
	    " INTEGER) FROM settings WHERE key = '" DELIVER_LATE_END "'), 0) > c.at FROM (SELECT"
	    " coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = '" DELIVER_CURSOR "'),"
	    " ?1 - ?4) AS at) c";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int(s, 2, any != 0);
	sqlite3_bind_int64(s, 3, DELIVER_FRESH_SPAN);
	sqlite3_bind_int64(s, 4, DELIVER_FIRST_LOOK);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*fresh = sqlite3_column_int(s, 0);
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "looking for runs to deliver");
}

static int
sqd_ended(struct store *st, int64_t since, const char *long_ids, int (*fn)(const char *id,
    int64_t ended_at, void *arg), void *arg, struct err *e)
{
	/* Those started within RUN_SPAN through runs_started, and those
	 * named in long (the runs in flight for longer a pass saw before). */
	static const char q[] = "SELECT id, ended_at FROM runs WHERE started_at >= ?1 - ?2"
	    " AND ended_at >= ?1 AND status <> 'running' UNION SELECT id, ended_at FROM runs"
	    " WHERE id IN (SELECT value FROM json_each(?3)) AND ended_at IS NOT NULL"
	    " AND status <> 'running' ORDER BY 2, 1";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, since);
	sqlite3_bind_int64(s, 2, DELIVER_RUN_SPAN);
	sqlite3_bind_text(s, 3, long_ids, -1, SQLITE_TRANSIENT);
	int rc, stop = 0;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW)
		stop = fn((const char *)sqlite3_column_text(s, 0), sqlite3_column_int64(s, 1), arg);
	sqlite3_reset(s);
	return stop || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the runs that ended");
}

static int
sqd_running(struct store *st, int64_t before, int (*fn)(const char *id, void *arg), void *arg,
    struct err *e)
{
	/* Through the few tasks with a run in flight (tasks_in_flight). */
	static const char q[] = "SELECT id FROM runs WHERE id IN (SELECT run_in_flight FROM tasks"
	    " WHERE run_in_flight IS NOT NULL) AND status = 'running' AND started_at < ?1";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, before);
	int rc, stop = 0;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW)
		stop = fn((const char *)sqlite3_column_text(s, 0), arg);
	sqlite3_reset(s);
	return stop || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the runs in flight");
}

static int
sqd_work(struct store *st, int64_t now, int any, int *due, int *targets, int *fresh,
    struct err *e)
{
	/* Named: the planner would rather walk every live task in
	 * tasks_order, a second an idle pass at a million tasks. */
	static const char q[] = "SELECT EXISTS (SELECT 1 FROM receipts WHERE status = 'pending'"
	    " AND next_at <= ?1), EXISTS (SELECT 1 FROM tasks INDEXED BY tasks_deliver"
	    " WHERE deliver IS NOT NULL AND deleted_at IS NULL)";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, now);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*due = sqlite3_column_int(s, 0);
		*targets = sqlite3_column_int(s, 1);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return sq_err(st, e, "looking for deliveries");
	return *due || !(*targets || any) ? ST_OK : sqd_fresh(st, now, any, fresh, e);
}

const struct deliver_ops sq_deliver_ops = {
	.add = sqd_add, .list = sqd_list, .due = sqd_due, .claim = sqd_claim, .finish = sqd_finish,
	.progress = sqd_progress, .counts = sqd_counts, .work = sqd_work,
	.ended = sqd_ended, .running = sqd_running,
};
