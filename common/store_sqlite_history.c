/* The SQLite backend's passes, figures and pruning (store_history.h; the
 * tables are step 7 of store_sqlite.c's schema).  Pruning statements run
 * inside the caller's BEGIN IMMEDIATE, so the runs a batch picks stay the
 * same from its first statement to its last. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store_sqlite.h"

static int
sqh_pass_put(struct store *st, const struct pass *p, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_PASS_PUT), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, p->host);
	sqlite3_bind_int64(s, 2, p->at);
	sq_text(s, 3, p->mode);
	sqlite3_bind_int64(s, 4, p->pid);
	sq_text(s, 5, p->version);
	/* A heartbeat: losing the last one in a crash costs nothing. */
	return sq_done_quietly(st, s, e, "recording a pass");
}

static int
sqh_pass_list(struct store *st, int (*fn)(const struct pass *p, void *arg), void *arg,
    struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_PASS_LIST), e);
	if (!s)
		return ST_ERR;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pass p;
		sq_col_copy(s, 0, p.host, sizeof p.host);
		p.at = sq_col_time(s, 1);
		sq_col_copy(s, 2, p.mode, sizeof p.mode);
		p.pid = sqlite3_column_int64(s, 3);
		sq_col_copy(s, 4, p.version, sizeof p.version);
		if (fn(&p, arg)) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the passes");
}

/* Rows of (text, integer) to fn; since, when given, is ?1. */
static int
pairs(struct store *st, const char *q, const int64_t *since, void (*fn)(const char *k,
    long long n, void *arg), void *arg, const char *what, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	if (since)
		sqlite3_bind_int64(s, 1, *since == TIME_NONE ? INT64_MIN : *since);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(s, 0), sqlite3_column_int64(s, 1), arg);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, what);
}

/* The rows of store_task_tally's TALLY_SQL into t. */
static void
take_tally(const char *key, long long n, void *arg)
{
	struct task_tally *t = arg;
	int status = task_status_parse(key);
	if (strcmp(key, "*all") == 0) {
		t->all = t->enabled = t->by_status[STATUS_PENDING] = (long)n;
	} else if (strcmp(key, "*disabled") == 0) {
		t->enabled -= (long)n;
	} else if (status >= 0 && status != STATUS_PENDING) {
		t->by_status[status] = (long)n;
		t->by_status[STATUS_PENDING] -= (long)n;
	}
}

/* Counts from indexes alone: all the tasks (tasks_order), the disabled
 * (tasks_disabled) and the few not pending (tasks_status); the rest are
 * enabled, or pending.  Rows in that order, which take_tally relies on. */
static int
sqh_task_tally(struct store *st, struct task_tally *t, struct err *e)
{
	static const char q[] = "SELECT '*all', count(*) FROM tasks WHERE deleted_at IS NULL"
	    " UNION ALL SELECT '*disabled', count(*) FROM tasks WHERE enabled = 0 AND"
	    " deleted_at IS NULL UNION ALL SELECT * FROM (SELECT status, count(*) FROM tasks"
	    " WHERE deleted_at IS NULL AND status <> 'pending' GROUP BY status)";
	return pairs(st, q, NULL, take_tally, t, "counting tasks", e);
}

static int
sqh_task_due(struct store *st, int64_t now, int64_t late, long *due, long *overdue,
    struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_TASK_DUE_COUNT), e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, late);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*due = (long)sqlite3_column_int64(s, 0);
		*overdue = (long)sqlite3_column_int64(s, 1);
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "counting the due tasks");
}

/* Each status's runs as one range of runs_status, the statuses found by a
 * seek each: without a term on status, SQLite would read the runs of
 * the window from the table (or all of them, planned on runs_status). */
static int
sqh_run_counts(struct store *st, int64_t since, void (*fn)(const char *status, long long n,
    void *arg), void *arg, struct err *e)
{
	static const char q[] = "WITH RECURSIVE s(v) AS (SELECT (SELECT min(status) FROM runs)"
	    " UNION ALL SELECT (SELECT min(status) FROM runs WHERE status > s.v) FROM s"
	    " WHERE s.v IS NOT NULL)"
	    " SELECT v, n FROM (SELECT v, (SELECT count(*) FROM runs WHERE status = s.v AND"
	    " started_at >= ?1) AS n FROM s WHERE v IS NOT NULL) WHERE n > 0 ORDER BY v";
	return pairs(st, q, &since, fn, arg, "counting runs", e);
}

static int
sqh_last_success(struct store *st,
    void (*fn)(const char *task_id, const char *name, int64_t at, void *arg), void *arg,
    struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_LAST_SUCCESS), e);
	if (!s)
		return ST_ERR;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(s, 0), (const char *)sqlite3_column_text(s, 1),
		    sq_col_time(s, 2), arg);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the last successes");
}

static int
sqh_budget_tasks(struct store *st, void (*fn)(const char *task_id, void *arg), void *arg,
    struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_BUDGET_TASKS), e);
	if (!s)
		return ST_ERR;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(s, 0), arg);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the budgets");
}

static int
sqh_call_tokens(struct store *st, int64_t since, long long *in, long long *out, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_CALL_TOKENS), e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, since == TIME_NONE ? INT64_MIN : since);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*in = sqlite3_column_int64(s, 0);
		*out = sqlite3_column_int64(s, 1);
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "counting tokens");
}

static int
sqh_pruned_totals(struct store *st, void (*fn)(const char *key, long long n, void *arg), void *arg,
    struct err *e)
{
	const char *q = store_sql(sq_sql(st), SQL_PRUNED_TOTALS);
	return pairs(st, q, NULL, fn, arg, "reading what pruning removed", e);
}

static int
pragma_i64(struct store *st, const char *sql, int64_t *out, struct err *e)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(sq_db(st), sql, -1, &s, NULL) != SQLITE_OK)
		return sq_err(st, e, "reading the store's size");
	int rc = sqlite3_step(s);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	while (rc == SQLITE_ROW)
		rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the store's size");
}

static int
sqh_size(struct store *st, int64_t *bytes, int64_t *free_bytes, struct err *e)
{
	int64_t pages, size, freel;
	int rc;
	if ((rc = pragma_i64(st, "PRAGMA page_count", &pages, e)) ||
	    (rc = pragma_i64(st, "PRAGMA page_size", &size, e)) ||
	    (rc = pragma_i64(st, "PRAGMA freelist_count", &freel, e)))
		return rc;
	*bytes = pages * size;
	*free_bytes = freel * size;
	/* The log beside the file is the store's too until it is copied in. */
	const char *path = sqlite3_db_filename(sq_db(st), "main");
	if (path && *path) {
		char *wal = xasprintf("%s-wal", path);
		struct stat sb;
		if (stat(wal, &sb) == 0)
			*bytes += sb.st_size;
		free(wal);
	}
	return ST_OK;
}

/* A loose index scan (SQL_PRUNE_TASKS, SQL_PRUNE_CONTEXTS) from after, for
 * at most max values. */
static sqlite3_stmt *
scan_open(struct store *st, const char *q, const char *after, int max, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (s) {
		sq_text(s, 1, after);
		sqlite3_bind_int(s, 2, max);
	}
	return s;
}

/* The scan's statement put back; whether it ended well (rc its last step). */
static int
scan_done(sqlite3_stmt *s, int rc)
{
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE;
}

static int
sqh_prune_tasks(struct store *st, const char *after, int max, struct prune_task *out, int *n,
    struct err *e)
{
	const char *q = store_sql(sq_sql(st), SQL_PRUNE_TASKS);
	sqlite3_stmt *s = scan_open(st, q, after, max, e);
	if (!s)
		return ST_ERR;
	int rc;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < max) {
		sq_col_copy(s, 0, out[*n].id, sizeof out[*n].id);
		out[*n].keep = sq_col_text(s, 1);
		(*n)++;
	}
	if (scan_done(s, rc))
		return ST_OK;
	prune_tasks_free(out, *n);
	*n = 0;
	return sq_err(st, e, "looking for history to prune");
}

static int
sqh_prune_bounds(struct store *st, const char *id, long nth0, long nth1, int64_t *oldest,
    int64_t *at0, int64_t *at1, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_PRUNE_BOUNDS), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	sqlite3_bind_int64(s, 2, nth0 - 1);
	sqlite3_bind_int64(s, 3, nth1 - 1);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*oldest = sq_col_time(s, 0);
		*at0 = sq_col_time(s, 1);
		*at1 = sq_col_time(s, 2);
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "looking for history to prune");
}

/* One statement of a batch of pruned runs, ?1 task ?2 before ?3 limit;
 * *count its first column when it returns one. */
static int
batch_step(struct store *st, const char *q, const char *id, int64_t before, long limit,
    long *count, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	sqlite3_bind_int64(s, 2, before);
	sqlite3_bind_int64(s, 3, limit);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && count)
		*count = (long)sqlite3_column_int64(s, 0);
	while (rc == SQLITE_ROW)
		rc = sqlite3_step(s);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "pruning runs");
}

#define BATCH STORE_SQL_PRUNE_RUNS("?")

static int
sqh_prune_runs(struct store *st, const char *id, int64_t before, long limit, int dry, long *runs,
    long *calls, struct err *e)
{
	static const char count_runs[] = "SELECT count(*) FROM " BATCH;
	static const char count_calls[] = "SELECT count(*) FROM llm_calls WHERE run_id IN " BATCH;
	/* Totals only grow: what goes is added to them first.  (An upsert
	 * after a SELECT needs its WHERE for SQLite to parse it.) */
	static const char add_runs[] = "INSERT INTO pruned (key, n) SELECT 'runs.' || status, count(*)"
	    " FROM runs WHERE id IN " BATCH " GROUP BY status ON CONFLICT(key) DO UPDATE SET"
	    " n = n + excluded.n";
	static const char add_tokens[] = "INSERT INTO pruned (key, n) SELECT key, v FROM"
	    " (SELECT 'input_tokens' AS key, ifnull(sum(input_tokens), 0) AS v FROM llm_calls"
	    " WHERE run_id IN " BATCH " UNION ALL SELECT 'output_tokens', ifnull(sum(output_tokens), 0)"
	    " FROM llm_calls WHERE run_id IN " BATCH " UNION ALL SELECT 'cost_micro',"
	    " CAST(round(total(cost) * 1000000) AS INTEGER) FROM llm_calls WHERE run_id IN " BATCH ")"
	    " WHERE v <> 0 ON CONFLICT(key) DO UPDATE SET n = n + excluded.n";
	/* A run's receipts go with it (a foreign key): those it finished count on. */
	static const char add_deliveries[] = "INSERT INTO pruned (key, n) SELECT 'deliveries.' || kind"
	    " || '.' || status, count(*) FROM receipts WHERE status <> 'pending' AND run_id IN " BATCH
	    " GROUP BY kind, status ON CONFLICT(key) DO UPDATE SET n = n + excluded.n";
	static const char del_calls[] = "DELETE FROM llm_calls WHERE run_id IN " BATCH;
	/* A run's input (an event's payload, an upstream's answer) goes with it. */
	static const char del_inputs[] = "DELETE FROM run_inputs WHERE run_id IN " BATCH;
	static const char del_runs[] = "DELETE FROM runs WHERE id IN " BATCH;
	int rc;
	*runs = *calls = 0;
	if ((rc = batch_step(st, count_runs, id, before, limit, runs, e)) ||
	    (rc = batch_step(st, count_calls, id, before, limit, calls, e)) || dry || !*runs)
		return rc;
	if ((rc = batch_step(st, add_runs, id, before, limit, NULL, e)) ||
	    (rc = batch_step(st, add_tokens, id, before, limit, NULL, e)) ||
	    (rc = batch_step(st, add_deliveries, id, before, limit, NULL, e)) ||
	    (rc = batch_step(st, del_calls, id, before, limit, NULL, e)) ||
	    (rc = batch_step(st, del_inputs, id, before, limit, NULL, e)))
		return rc;
	return batch_step(st, del_runs, id, before, limit, NULL, e);
}

static int
sqh_prune_contexts(struct store *st, const char *after, int max, char **out, int *n,
    struct err *e)
{
	const char *q = store_sql(sq_sql(st), SQL_PRUNE_CONTEXTS);
	sqlite3_stmt *s = scan_open(st, q, after, max, e);
	if (!s)
		return ST_ERR;
	int rc;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < max)
		out[(*n)++] = sq_col_text(s, 0);
	if (scan_done(s, rc))
		return ST_OK;
	while (*n)
		free(out[--*n]);
	return sq_err(st, e, "looking for conversations to trim");
}

static int
sqh_prune_messages(struct store *st, const char *context, long keep, long limit, int dry, long *n,
    struct err *e)
{
#define OLD_MESSAGES STORE_SQL_PRUNE_MESSAGES("?")
	static const char qcount[] = "SELECT count(*) FROM " OLD_MESSAGES;
	static const char qdel[] = "DELETE FROM messages WHERE id IN " OLD_MESSAGES;
	sqlite3_stmt *s = sq_stmt(st, dry ? qcount : qdel, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, context);
	sqlite3_bind_int64(s, 2, keep - 1);
	sqlite3_bind_int64(s, 3, limit);
	int rc = sqlite3_step(s);
	*n = dry && rc == SQLITE_ROW ? (long)sqlite3_column_int64(s, 0) : 0;
	while (rc == SQLITE_ROW)
		rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return sq_err(st, e, "trimming a conversation");
	if (!dry)
		*n = sqlite3_changes(sq_db(st));
	return ST_OK;
}

static int
sqh_prune_loose_calls(struct store *st, int64_t before, long limit, int dry, long *n,
    struct err *e)
{
#define LOOSE STORE_SQL_PRUNE_CALLS("?")
	static const char qcount[] = "SELECT count(*) FROM " LOOSE;
	static const char qadd[] = "INSERT INTO pruned (key, n) SELECT key, v FROM"
	    " (SELECT 'input_tokens' AS key, ifnull(sum(input_tokens), 0) AS v FROM llm_calls"
	    " WHERE id IN " LOOSE " UNION ALL SELECT 'output_tokens', ifnull(sum(output_tokens), 0)"
	    " FROM llm_calls WHERE id IN " LOOSE " UNION ALL SELECT 'cost_micro',"
	    " CAST(round(total(cost) * 1000000) AS INTEGER) FROM llm_calls WHERE id IN " LOOSE ")"
	    " WHERE v <> 0 ON CONFLICT(key) DO UPDATE SET n = n + excluded.n";
	static const char qdel[] = "DELETE FROM llm_calls WHERE id IN " LOOSE;
	const char *steps[] = {qcount, qadd, qdel};
	*n = 0;
	for (int i = 0; i < (dry ? 1 : 3) && (i == 0 || *n); i++) {
		sqlite3_stmt *s = sq_stmt(st, steps[i], e);
		if (!s)
			return ST_ERR;
		sqlite3_bind_int64(s, 1, before);
		sqlite3_bind_int64(s, 2, limit);
		int rc = sqlite3_step(s);
		if (i == 0 && rc == SQLITE_ROW)
			*n = (long)sqlite3_column_int64(s, 0);
		while (rc == SQLITE_ROW)
			rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return sq_err(st, e, "pruning model calls");
	}
	return ST_OK;
}

static int
sqh_vacuum(struct store *st, int full, long max_pages, char *what, size_t n, struct err *e)
{
	int64_t mode, before, after;
	const char *path = sqlite3_db_filename(sq_db(st), "main");
	if (!path || !*path)
		return ST_OK; /* in memory: no store yet */
	int rc = pragma_i64(st, "PRAGMA auto_vacuum", &mode, e);
	if (!rc)
		rc = pragma_i64(st, "PRAGMA page_count", &before, e);
	if (rc)
		return rc;
	if (full) {
		/* Takes the write lock for as long as it copies the store. */
		if (sqlite3_exec(sq_db(st), "PRAGMA auto_vacuum = INCREMENTAL; VACUUM", NULL, NULL,
		    NULL) != SQLITE_OK)
			return sq_err(st, e, "vacuuming");
	} else if (mode == 2) {
		char q[64];
		snprintf(q, sizeof q, "PRAGMA incremental_vacuum(%ld)", max_pages > 0 ? max_pages : 0);
		int64_t ignored;
		if ((rc = pragma_i64(st, q, &ignored, e)))
			return rc;
	}
	if ((rc = pragma_i64(st, "PRAGMA page_count", &after, e)))
		return rc;
	int64_t size;
	if ((rc = pragma_i64(st, "PRAGMA page_size", &size, e)))
		return rc;
	if (full)
		snprintf(what, n, "rewrote the store: %lld bytes given back; freed space now goes back"
		    " as it is pruned", (long long)((before - after) * size));
	else if (mode == 2 && before > after)
		snprintf(what, n, "%lld bytes given back", (long long)((before - after) * size));
	else
		snprintf(what, n, "freed space is reused by new runs; the file shrinks only after"
		    " task-log --prune --vacuum");
	return ST_OK;
}

static int
sqh_forget_trash(struct store *st, struct err *e)
{
#define TRASH "(SELECT id FROM tasks WHERE deleted_at IS NOT NULL)"
	static const char *const steps[] = {
		"INSERT INTO pruned (key, n) SELECT 'runs.' || status, count(*) FROM runs"
		" WHERE task_id IN " TRASH " AND status <> 'running' GROUP BY status"
		" ON CONFLICT(key) DO UPDATE SET n = n + excluded.n",
		"INSERT INTO pruned (key, n) SELECT key, v FROM (SELECT 'input_tokens' AS key,"
		" ifnull(sum(input_tokens), 0) AS v FROM llm_calls WHERE task_id IN " TRASH
		" UNION ALL SELECT 'output_tokens', ifnull(sum(output_tokens), 0) FROM llm_calls"
		" WHERE task_id IN " TRASH " UNION ALL SELECT 'cost_micro', CAST(round(total(cost)"
		" * 1000000) AS INTEGER) FROM llm_calls WHERE task_id IN " TRASH ") WHERE v <> 0"
		" ON CONFLICT(key) DO UPDATE SET n = n + excluded.n",
		"DELETE FROM llm_calls WHERE task_id IN " TRASH,
		"DELETE FROM run_inputs WHERE task_id IN " TRASH,
		/* A purged task's trigger and the keys of its events go with it. */
		"DELETE FROM web_hook_events WHERE task_id IN " TRASH,
		"DELETE FROM web_hooks WHERE task_id IN " TRASH,
	};
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		sqlite3_stmt *s = sq_stmt(st, steps[i], e);
		if (!s)
			return ST_ERR;
		int rc = sq_done(st, s, e, "emptying the trash");
		if (rc)
			return rc;
	}
	return ST_OK;
}

const struct history_ops sq_history_ops = {
	.pass_put = sqh_pass_put,
	.pass_list = sqh_pass_list,
	.task_tally = sqh_task_tally,
	.task_due = sqh_task_due,
	.run_counts = sqh_run_counts,
	.last_success = sqh_last_success,
	.budget_tasks = sqh_budget_tasks,
	.call_tokens = sqh_call_tokens,
	.pruned_totals = sqh_pruned_totals,
	.size = sqh_size,
	.prune_tasks = sqh_prune_tasks,
	.prune_bounds = sqh_prune_bounds,
	.prune_runs = sqh_prune_runs,
	.prune_contexts = sqh_prune_contexts,
	.prune_messages = sqh_prune_messages,
	.prune_loose_calls = sqh_prune_loose_calls,
	.vacuum = sqh_vacuum,
	.forget_trash = sqh_forget_trash,
};
