/* The SQLite backend's runs, claims and conversations (tables runs,
 * messages and llm_calls; the schema is in store_sqlite.c).  A claim scan
 * runs inside the caller's BEGIN IMMEDIATE, so the tasks it reads stay as
 * read until the claim commits. */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"

int
sq_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e)
{
	struct row p;
	sqlite3_stmt *s = sq_prepare_once(st, store_sql_run_list(sq_sql(st)->d, f, &p), &p,
	    "listing runs", e);
	if (!s)
		return ST_ERR;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct run r;
		run_read(&r, sq_cell, s, f->with_output);
		int stop = fn(&r, arg);
		run_free(&r);
		if (stop) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "listing runs");
}

int
sq_run_prefix(struct store *st, const struct id_range *ids, struct run *r, int *n, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RUN_PREFIX), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, ids->from);
	sq_text(s, 2, ids->to);
	int rc;
	*n = 0;
	while (*n < 2 && (rc = sqlite3_step(s)) == SQLITE_ROW)
		run_read(&r[(*n)++], sq_cell, s, 1);
	if (*n < 2 && rc != SQLITE_DONE) {
		for (int i = 0; i < *n; i++)
			run_free(&r[i]);
		*n = 0;
		sqlite3_reset(s);
		return sq_err(st, e, "reading a run");
	}
	sqlite3_reset(s);
	return ST_OK;
}

/* ---- claims ---- */

int
sq_claim_scan(struct store *st, const struct claim_req *req, struct task *tasks,
    int *last_attempt, int *n, struct err *e)
{
	int max = req->what == CLAIM_ONE ? 1 : req->max, last = task_read_ncols();
	struct row p;
	sqlite3_stmt *s = sq_stmt(st, store_sql_claim(sq_sql(st), req, &p), e);
	if (!s)
		return ST_ERR;
	sq_bind(s, &p);
	int rc = SQLITE_DONE;
	*n = 0;
	while (*n < max && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		task_read(&tasks[*n], sq_cell, s);
		last_attempt[*n] = sqlite3_column_int(s, last);
		(*n)++;
	}
	sqlite3_reset(s);
	if (*n < max && rc != SQLITE_DONE) {
		for (int i = 0; i < *n; i++)
			task_free(&tasks[i]);
		*n = 0;
		return sq_err(st, e, "looking for due tasks");
	}
	return ST_OK;
}

int
sq_run_insert(struct store *st, const struct run *r, int running, int *dup, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RUN_INSERT), e);
	if (!s)
		return ST_ERR;
	struct row p;
	store_sql_run_insert(sq_sql(st)->d, &p, r, running ? &st->self : NULL);
	sq_bind(s, &p);
	row_free(&p);
	int rc = sq_done(st, s, e, "recording a run");
	if (!rc)
		*dup = sqlite3_changes(sq_db(st)) == 0;
	return rc;
}

int
sq_run_finish(struct store *st, const struct run *r, const char *owner_id, int *ended, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RUN_FINISH), e);
	if (!s)
		return ST_ERR;
	struct row p;
	store_sql_run_finish(&p, r, owner_id);
	sq_bind(s, &p);
	row_free(&p);
	int rc = sq_done(st, s, e, "recording the end of a run");
	if (!rc)
		*ended = sqlite3_changes(sq_db(st)) != 0;
	return rc;
}

int
sq_run_note(struct store *st, const char *run_id, const char *note, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_RUN_NOTE), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, run_id);
	sq_text(s, 2, note);
	return sq_done(st, s, e, "keeping a late result");
}

int
sq_due_next(struct store *st, int64_t *due, int *queued, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_DUE_NEXT), e);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*due = sq_col_time(s, 0);
		*queued = sqlite3_column_int(s, 1);
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "looking for due tasks");
}

int
sq_run_claims(struct store *st, struct run_claim **out, size_t *n, struct err *e)
{
	static const char q[] = "SELECT id, task_id, slot, started_at, lease_until, trigger,"
	    " prev_status, owner_id, owner_host, ifnull(owner_node, owner_boot), owner_pid,"
	    " owner_start, attempt, arming FROM runs WHERE " STORE_SQL_IN_FLIGHT;
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	struct run_claim *all = NULL;
	size_t len = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (len == cap)
			all = xrealloc(all, (cap = cap ? cap * 2 : 8) * sizeof *all);
		struct run_claim *c = &all[len++];
		memset(c, 0, sizeof *c);
		sq_col_copy(s, 0, c->id, sizeof c->id);
		sq_col_copy(s, 1, c->task_id, sizeof c->task_id);
		c->slot = sq_col_time(s, 2);
		c->started_at = sq_col_time(s, 3);
		c->lease_until = sq_col_time(s, 4);
		c->trigger = run_trigger_parse((const char *)sqlite3_column_text(s, 5));
		sq_col_copy(s, 6, c->prev_status, sizeof c->prev_status);
		sq_col_copy(s, 7, c->owner.id, sizeof c->owner.id);
		sq_col_copy(s, 8, c->owner.host, sizeof c->owner.host);
		sq_col_copy(s, 9, c->owner.node, sizeof c->owner.node);
		c->owner.pid = sqlite3_column_int64(s, 10);
		c->owner.start = sqlite3_column_int64(s, 11);
		c->attempt = sqlite3_column_int(s, 12);
		c->arming = sqlite3_column_int(s, 13);
		c->silent = -1;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		free(all);
		return sq_err(st, e, "listing running runs");
	}
	*out = all;
	*n = len;
	return ST_OK;
}

/* ---- conversations and model calls ---- */

int
sq_history_load(struct store *st, const char *context, size_t max, struct history_msg **out,
    size_t *n, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_HISTORY_LOAD), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, context);
	sqlite3_bind_int64(s, 2, max ? (sqlite3_int64)max : -1);
	struct history_msg *m = NULL;
	size_t len = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (len == cap)
			m = xrealloc(m, (cap = cap ? 2 * cap : 16) * sizeof *m);
		m[len].role = sq_col_text(s, 0);
		m[len].content = sq_col_text(s, 1);
		m[len].run_id = sq_col_text(s, 2);
		m[len].created_at = sq_col_time(s, 3);
		len++;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		history_free(m, len);
		return sq_err(st, e, "reading a conversation");
	}
	*out = m;
	*n = len;
	return ST_OK;
}

int
sq_history_add(struct store *st, const char *context, const char *role, const char *content,
    const char *run_id, int64_t now, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_HISTORY_ADD), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, context);
	sq_text(s, 2, role);
	sq_text(s, 3, content);
	sq_text(s, 4, run_id);
	sqlite3_bind_int64(s, 5, now);
	return sq_done(st, s, e, "saving a conversation");
}

int
sq_history_clear(struct store *st, const char *context, long *n, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_HISTORY_CLEAR), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, context);
	int rc = sq_done(st, s, e, "clearing a conversation");
	if (!rc)
		*n = sqlite3_changes(sq_db(st));
	return rc;
}

static void
bind_count(sqlite3_stmt *s, int i, long v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

int
sq_call_add(struct store *st, struct llm_call *c, struct err *e)
{
	static const char q[] = "INSERT INTO llm_calls (run_id, task_id, context, provider, model,"
	    " system_prompt, prompt, answer, input_tokens, output_tokens, finish_reason, duration_ms,"
	    " error, created_at, tool_calls, cost, answered_model, fallback_from, request) VALUES (?1,"
	    " ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, c->run_id);
	sq_text(s, 2, c->task_id);
	sq_text(s, 3, c->context);
	sq_text(s, 4, c->provider);
	sq_text(s, 5, c->model);
	sq_text(s, 6, c->system_prompt);
	sq_text(s, 7, c->prompt);
	sq_text(s, 8, c->answer);
	bind_count(s, 9, c->input_tokens);
	bind_count(s, 10, c->output_tokens);
	sq_text(s, 11, c->finish_reason);
	bind_count(s, 12, c->duration_ms);
	sq_text(s, 13, c->error);
	sqlite3_bind_int64(s, 14, c->created_at);
	sq_text(s, 15, c->tool_calls);
	if (c->cost >= 0)
		sqlite3_bind_double(s, 16, c->cost);
	sq_text(s, 17, c->answered_model);
	sq_text(s, 18, c->fallback_from);
	sq_text(s, 19, c->request);
	int rc = sq_done(st, s, e, "recording a model call");
	if (!rc)
		c->id = sqlite3_last_insert_rowid(sq_db(st));
	return rc;
}

static long
col_count(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? -1 : (long)sqlite3_column_int64(s, i);
}

static double
col_cost(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? -1 : sqlite3_column_double(s, i);
}

int
sq_call_list(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e)
{
	static const char q[] = "SELECT id, run_id, task_id, context, provider, model, system_prompt,"
	    " prompt, answer, input_tokens, output_tokens, finish_reason, duration_ms, error,"
	    " created_at, tool_calls, cost, answered_model, fallback_from, request FROM llm_calls"
	    " WHERE (?1 IS NULL OR run_id = ?1) AND (?2 IS NULL OR task_id = ?2)"
	    " ORDER BY id DESC LIMIT ?3";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, run_id);
	sq_text(s, 2, run_id ? NULL : task_id);
	sqlite3_bind_int64(s, 3, limit > 0 ? limit : -1);
	int rc, stop = 0;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct llm_call c = {
			.id = sqlite3_column_int64(s, 0),
			.run_id = sq_col_text(s, 1),
			.task_id = sq_col_text(s, 2),
			.context = sq_col_text(s, 3),
			.provider = sq_col_text(s, 4),
			.model = sq_col_text(s, 5),
			.system_prompt = sq_col_text(s, 6),
			.prompt = sq_col_text(s, 7),
			.answer = sq_col_text(s, 8),
			.input_tokens = col_count(s, 9),
			.output_tokens = col_count(s, 10),
			.finish_reason = sq_col_text(s, 11),
			.duration_ms = col_count(s, 12),
			.error = sq_col_text(s, 13),
			.created_at = sq_col_time(s, 14),
			.tool_calls = sq_col_text(s, 15),
			.cost = col_cost(s, 16),
			.answered_model = sq_col_text(s, 17),
			.fallback_from = sq_col_text(s, 18),
			.request = sq_col_text(s, 19),
		};
		stop = fn(&c, arg);
		llm_call_free(&c);
	}
	if (stop)
		rc = SQLITE_DONE;
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading model calls");
}

int
sq_others_wrote(struct store *st, int64_t *version, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, "PRAGMA data_version", e);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int64(s, 0);
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the store's data version");
}

int
sq_call_spend(struct store *st, const char *task_id, int64_t since, double *dollars,
    long long *tokens, struct err *e)
{
	static const char q_task[] = "SELECT total(cost), total(ifnull(input_tokens, 0) +"
	    " ifnull(output_tokens, 0)) FROM llm_calls WHERE task_id = ?1 AND created_at >= ?2";
	static const char q_all[] = "SELECT total(cost), total(ifnull(input_tokens, 0) +"
	    " ifnull(output_tokens, 0)) FROM llm_calls WHERE created_at >= ?2";
	sqlite3_stmt *s = sq_stmt(st, task_id ? q_task : q_all, e);
	if (!s)
		return ST_ERR;
	if (task_id)
		sq_text(s, 1, task_id);
	sqlite3_bind_int64(s, 2, since);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*dollars = sqlite3_column_double(s, 0);
		*tokens = (long long)sqlite3_column_double(s, 1);
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading what model calls cost");
}

int
sq_call_usage(struct store *st, int64_t since, call_usage_fn fn, void *arg, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_CALL_USAGE), e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, since == TIME_NONE ? INT64_MIN : since);
	int rc, stop = 0;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct call_usage u = {
			.task_id = sq_col_text(s, 0), .name = sq_col_text(s, 1), .model = sq_col_text(s, 2),
			.created_at = sq_col_time(s, 3), .input_tokens = col_count(s, 4),
			.output_tokens = col_count(s, 5), .cost = col_cost(s, 6),
			.answered_model = sq_col_text(s, 7),
		};
		stop = fn(&u, arg);
		free(u.task_id);
		free(u.name);
		free(u.model);
		free(u.answered_model);
	}
	if (stop)
		rc = SQLITE_DONE;
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading model calls");
}

/* Inside BEGIN IMMEDIATE: the counts and the claim of a slot are one write
 * against every other ticker's. */
int
sq_run_gate(struct store *st, const char *run_id, const char *model, int max_all, int max_model,
    int64_t lease, int *got, struct err *e)
{
	static const char take[] = "UPDATE runs SET gate = ?1, lease_until = coalesce(?3, lease_until)"
	    " WHERE id = ?2 AND status = 'running'";
	/* Waiting: the lease renewed once it is a minute behind. */
	static const char renew[] = "UPDATE runs SET lease_until = ?3 WHERE id = ?2 AND"
	    " status = 'running' AND (lease_until IS NULL OR lease_until < ?3 - 60)";
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_GATE_COUNT), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, model);
	sq_text(s, 2, run_id);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_reset(s);
		return sq_err(st, e, "counting the runs in flight");
	}
	*got = store_sql_gate(sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
	    sqlite3_column_int64(s, 2), max_all, max_model);
	sqlite3_reset(s);
	if (*got < 0 || (*got == 0 && lease == TIME_NONE))
		return ST_OK;
	if (!(s = sq_stmt(st, *got ? take : renew, e)))
		return ST_ERR;
	sq_text(s, 1, *got ? model : NULL);
	sq_text(s, 2, run_id);
	if (lease != TIME_NONE)
		sqlite3_bind_int64(s, 3, lease);
	return sq_done(st, s, e, "taking a slot for a run");
}

/* The ledger's rows: the task's (when it has one) and every call's (''). */
int
sq_spend_add(struct store *st, const char *task_id, const char *run_id, int64_t at,
    double dollars, long long tokens, struct err *e)
{
	static const char q_task[] = "INSERT INTO spend (task_id, at, dollars, tokens) VALUES"
	    " (?1, ?2, ?3, ?4), ('', ?2, ?3, ?4) ON CONFLICT (task_id, at) DO UPDATE SET"
	    " dollars = dollars + excluded.dollars, tokens = tokens + excluded.tokens";
	static const char q_all[] = "INSERT INTO spend (task_id, at, dollars, tokens) VALUES"
	    " ('', ?2, ?3, ?4) ON CONFLICT (task_id, at) DO UPDATE SET"
	    " dollars = dollars + excluded.dollars, tokens = tokens + excluded.tokens";
	static const char q_run[] = "UPDATE reserves SET spent = spent + ?2,"
	    " spent_tokens = spent_tokens + ?3 WHERE task_id = ifnull(nullif(?4, ''),"
	    " (SELECT task_id FROM runs WHERE id = ?1)) AND run_id = ?1";
	int has_task = task_id && *task_id;
	sqlite3_stmt *s = sq_stmt(st, has_task ? q_task : q_all, e);
	if (!s)
		return ST_ERR;
	if (has_task)
		sq_text(s, 1, task_id);
	sqlite3_bind_int64(s, 2, at);
	sqlite3_bind_double(s, 3, dollars);
	sqlite3_bind_int64(s, 4, tokens);
	int rc = sq_done(st, s, e, "recording what a model call spent");
	if (rc || !run_id || !*run_id)
		return rc;
	if (!(s = sq_stmt(st, q_run, e)))
		return ST_ERR;
	sq_text(s, 1, run_id);
	sqlite3_bind_double(s, 2, dollars);
	sqlite3_bind_int64(s, 3, tokens);
	sq_text(s, 4, task_id);
	return sq_done(st, s, e, "recording what a run spent");
}

int
sq_spend_read(struct store *st, const char *task_id, int64_t since, const char *except_run,
    double *dollars, long long *tokens, struct err *e)
{
	static const char q[] = "SELECT (SELECT total(dollars) FROM spend WHERE task_id = ifnull(?1, '')"
	    " AND at >= ?2), (SELECT total(tokens) FROM spend WHERE task_id = ifnull(?1, '')"
	    " AND at >= ?2), total(max(r.dollars - r.spent, 0)),"
	    " total(max(r.tokens - r.spent_tokens, 0)) FROM tasks t JOIN reserves r"
	    " ON r.task_id = t.id AND r.run_id = t.run_in_flight WHERE t.run_in_flight IS NOT NULL"
	    " AND (?1 IS NULL OR t.id = ?1) AND r.run_id IS NOT ?3";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, task_id);
	sqlite3_bind_int64(s, 2, since);
	sq_text(s, 3, except_run);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*dollars = sqlite3_column_double(s, 0) + sqlite3_column_double(s, 2);
		*tokens = (long long)(sqlite3_column_double(s, 1) + sqlite3_column_double(s, 3));
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading what was spent");
}

/* The newest calls on record (the last runs' are always kept), by run. */
#define RECENT_RUNS(where, limit) "SELECT total(cost) AS d, total(ifnull(input_tokens, 0) +" \
	" ifnull(output_tokens, 0)) AS t FROM (SELECT run_id, cost, input_tokens, output_tokens" \
	" FROM llm_calls WHERE " where " run_id IS NOT NULL ORDER BY id DESC LIMIT " limit ")" \
	" GROUP BY run_id"

int
sq_reserve(struct store *st, const char *run_id, const char *task_id, int ran,
    double *dollars, long long *tokens, struct err *e)
{
	/* A task has one run in flight: its row is its last run's, and what
	 * that run spent is the next one's expectation.  The calls are read
	 * only for a task that ran and has no row yet (the limit, worked out
	 * once before the scan; a condition would be tested on every call). */
	static const char q[] = "WITH recent AS (SELECT max(d) AS d, max(t) AS t FROM ("
	    RECENT_RUNS("task_id = ?1 AND", "(SELECT iif(count(*), 0, 30) FROM reserves"
	    " WHERE task_id = ?1)") ")) INSERT INTO reserves (task_id, run_id, dollars, tokens)"
	    " SELECT ?1, ?2, ifnull(d, ?3), ifnull(t, ?4) FROM recent WHERE true"
	    " ON CONFLICT (task_id) DO UPDATE SET run_id = excluded.run_id, dollars = spent,"
	    " tokens = spent_tokens, spent = 0, spent_tokens = 0 RETURNING dollars, tokens";
	static const char q_first[] = "INSERT INTO reserves (task_id, run_id, dollars, tokens)"
	    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (task_id) DO UPDATE SET run_id = excluded.run_id,"
	    " dollars = spent, tokens = spent_tokens, spent = 0, spent_tokens = 0"
	    " RETURNING dollars, tokens";
	sqlite3_stmt *s = sq_stmt(st, ran ? q : q_first, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, task_id);
	sq_text(s, 2, run_id);
	sqlite3_bind_double(s, 3, *dollars);
	sqlite3_bind_int64(s, 4, *tokens);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*dollars = sqlite3_column_double(s, 0);
		*tokens = sqlite3_column_int64(s, 1);
		rc = sqlite3_step(s);
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reserving what a run may spend");
}

int
sq_run_cost(struct store *st, double *dollars, long long *tokens, int *known, struct err *e)
{
	static const char q[] = "SELECT count(*), avg(d), avg(t) FROM (" RECENT_RUNS("", "30") ")";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*known = sqlite3_column_int64(s, 0) > 0;
		*dollars = sqlite3_column_double(s, 1);
		*tokens = (long long)sqlite3_column_double(s, 2);
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading what runs spent");
}
