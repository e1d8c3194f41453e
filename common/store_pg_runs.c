/* The PostgreSQL backend's runs, claims and conversations (the schema is in
 * store_pg.c).  A claim scan locks the tasks it returns FOR UPDATE SKIP
 * LOCKED inside the caller's transaction: tickers on several hosts each
 * take different due tasks instead of queueing behind one another, and a
 * task one of them holds is not seen by the others until it is written. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"

struct runs_ctx {
	run_fn fn;
	void *arg;
	int with_output;
};

static int
run_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct runs_ctx *c = arg;
	struct run run;
	run_read(&run, pq_cell, &(struct pq_row){pq, r, row}, c->with_output);
	int stop = c->fn(&run, c->arg);
	run_free(&run);
	return stop;
}

int
pg_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e)
{
	struct pq_params p = {.n = 0};
	struct row r;
	char *q = store_sql_run_list(pq_sql(st)->d, f, &r);
	pq_bind(&p, &r);
	struct runs_ctx c = {fn, arg, f->with_output};
	int rc = pq_each_row(st, q, &p, f->limit, run_row, &c, "listing runs", e);
	free(q);
	return rc;
}

int
pg_run_prefix(struct store *st, const struct id_range *ids, struct run *r, int *n,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	pq_text(&p, ids->from);
	pq_text(&p, ids->to);
	PGresult *res;
	int rc = pq_exec(st, store_sql(pq_sql(st), SQL_RUN_PREFIX), &p, &res, "reading a run", e);
	if (rc)
		return rc;
	*n = pq->ntuples(res) < 2 ? pq->ntuples(res) : 2;
	for (int i = 0; i < *n; i++)
		run_read(&r[i], pq_cell, &(struct pq_row){pq, res, i}, 1);
	pq->clear(res);
	return ST_OK;
}

/* ---- claims ---- */

int
pg_claim_scan(struct store *st, const struct claim_req *req, struct task *tasks,
    int *last_attempt, int *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	int max = req->what == CLAIM_ONE ? 1 : req->max, last = task_read_ncols();
	struct pq_params p = {.n = 0};
	struct row params;
	const char *q = store_sql_claim(pq_sql(st), req, &params);
	pq_bind(&p, &params);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "looking for due tasks", e);
	if (rc)
		return rc;
	*n = pq->ntuples(r) < max ? pq->ntuples(r) : max;
	for (int i = 0; i < *n; i++) {
		task_read(&tasks[i], pq_cell, &(struct pq_row){pq, r, i});
		last_attempt[i] = (int)pq_get_int(pq, r, i, last);
	}
	pq->clear(r);
	return ST_OK;
}

int
pg_run_insert(struct store *st, const struct run *r, int running, int *dup, struct err *e)
{
	struct pq_params p = {.n = 0};
	struct row row;
	store_sql_run_insert(pq_sql(st)->d, &row, r, running ? &st->self : NULL);
	pq_bind(&p, &row);
	long rows = 0;
	int rc = pq_do(st, store_sql(pq_sql(st), SQL_RUN_INSERT), &p, &rows, "recording a run", e);
	if (!rc)
		*dup = rows == 0;
	return rc;
}

int
pg_run_finish(struct store *st, const struct run *r, const char *owner_id, int *ended, struct err *e)
{
	struct pq_params p = {.n = 0};
	struct row row;
	store_sql_run_finish(&row, r, owner_id);
	pq_bind(&p, &row);
	long rows = 0;
	int rc = pq_do(st, store_sql(pq_sql(st), SQL_RUN_FINISH), &p, &rows,
	    "recording the end of a run", e);
	if (!rc)
		*ended = rows > 0;
	return rc;
}

int
pg_run_note(struct store *st, const char *run_id, const char *note, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_RUN_NOTE);
	struct pq_params p = {.n = 0};
	pq_text(&p, run_id);
	pq_text(&p, note);
	return pq_do(st, q, &p, NULL, "keeping a late result", e);
}

int
pg_run_claims(struct store *st, struct run_claim **out, size_t *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	int rc = ST_OK;
	/* Most passes find no task in flight: they learn it from tasks alone
	 * (store_pg_look.c), runs and processes untouched. */
	char *ahead;
	int in_flight;
	struct pg_look look;
	if (pq_ahead_take(st, "in_flight", &ahead))
		in_flight = ahead && strcmp(ahead, "t") == 0;
	else if ((rc = pg_look(st, 0, &look, e)))
		return rc;
	else
		in_flight = look.in_flight;
	free(ahead);
	*out = NULL;
	*n = 0;
	if (!in_flight)
		return ST_OK;
	/* Silence on the server's clock, so hosts with skewed clocks agree; a
	 * process declared dead or gone from the table is silent for ever.  A
	 * run names its owner by id (its row of processes is kept while it
	 * owns a run in flight); one recorded before says who it was itself. */
	static const char q[] = "SELECT runs.id, runs.task_id, runs.slot, runs.started_at,"
	    " runs.lease_until, runs.trigger, runs.prev_status, runs.owner_id,"
	    " coalesce(runs.owner_host, p.host), coalesce(runs.owner_node, p.node),"
	    " coalesce(runs.owner_pid, p.pid), coalesce(runs.owner_start, p.start), runs.attempt,"
	    " runs.arming, CASE WHEN p.id IS NULL OR p.dead THEN 1000000000 ELSE"
	    " floor(extract(epoch FROM clock_timestamp() - p.beat_at))::bigint END"
	    " FROM runs LEFT JOIN processes p ON p.id = runs.owner_id WHERE " STORE_SQL_IN_FLIGHT;
	PGresult *r;
	rc = pq_exec(st, q, NULL, &r, "listing running runs", e);
	if (rc)
		return rc;
	size_t len = (size_t)pq->ntuples(r);
	struct run_claim *all = len ? xcalloc(len, sizeof *all) : NULL;
	for (size_t i = 0; i < len; i++) {
		struct run_claim *c = &all[i];
		int row = (int)i;
		pq_get_copy(pq, r, row, 0, c->id, sizeof c->id);
		pq_get_copy(pq, r, row, 1, c->task_id, sizeof c->task_id);
		c->slot = pq_get_time(pq, r, row, 2);
		c->started_at = pq_get_time(pq, r, row, 3);
		c->lease_until = pq_get_time(pq, r, row, 4);
		c->trigger = run_trigger_parse(pq->getvalue(r, row, 5));
		pq_get_copy(pq, r, row, 6, c->prev_status, sizeof c->prev_status);
		pq_get_copy(pq, r, row, 7, c->owner.id, sizeof c->owner.id);
		pq_get_copy(pq, r, row, 8, c->owner.host, sizeof c->owner.host);
		pq_get_copy(pq, r, row, 9, c->owner.node, sizeof c->owner.node);
		c->owner.pid = pq_get_int(pq, r, row, 10);
		c->owner.start = pq_get_int(pq, r, row, 11);
		c->attempt = (int)pq_get_int(pq, r, row, 12);
		c->arming = (int)pq_get_int(pq, r, row, 13);
		c->silent = pq_get_int(pq, r, row, 14);
	}
	pq->clear(r);
	*out = all;
	*n = len;
	return ST_OK;
}

/* ---- conversations and model calls ---- */

int
pg_history_load(struct store *st, const char *context, size_t max, struct history_msg **out,
    size_t *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	const char *q = store_sql(pq_sql(st), SQL_HISTORY_LOAD);
	struct pq_params p = {.n = 0};
	pq_text(&p, context);
	pq_time(&p, max ? (int64_t)max : TIME_NONE);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "reading a conversation", e);
	if (rc)
		return rc;
	size_t len = (size_t)pq->ntuples(r);
	struct history_msg *m = len ? xcalloc(len, sizeof *m) : NULL;
	for (size_t i = 0; i < len; i++) {
		m[i].role = pq_get_text(pq, r, (int)i, 0);
		m[i].content = pq_get_text(pq, r, (int)i, 1);
		m[i].run_id = pq_get_text(pq, r, (int)i, 2);
		m[i].created_at = pq_get_time(pq, r, (int)i, 3);
	}
	pq->clear(r);
	*out = m;
	*n = len;
	return ST_OK;
}

int
pg_history_add(struct store *st, const char *context, const char *role, const char *content,
    const char *run_id, int64_t now, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_HISTORY_ADD);
	struct pq_params p = {.n = 0};
	pq_text(&p, context);
	pq_text(&p, role);
	pq_text(&p, content);
	pq_text(&p, run_id);
	pq_int(&p, now);
	return pq_do(st, q, &p, NULL, "saving a conversation", e);
}

int
pg_history_clear(struct store *st, const char *context, long *n, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_HISTORY_CLEAR);
	struct pq_params p = {.n = 0};
	pq_text(&p, context);
	return pq_do(st, q, &p, n, "clearing a conversation", e);
}

int
pg_call_add(struct store *st, struct llm_call *c, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char q[] = "INSERT INTO llm_calls (run_id, task_id, context, provider, model,"
	    " system_prompt, prompt, answer, input_tokens, output_tokens, finish_reason, duration_ms,"
	    " error, created_at, tool_calls, cost, answered_model, fallback_from, request) VALUES ($1,"
	    " $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
	    " RETURNING id";
	struct pq_params p = {.n = 0};
	pq_text(&p, c->run_id);
	pq_text(&p, c->task_id);
	pq_text(&p, c->context);
	pq_text(&p, c->provider);
	pq_text(&p, c->model);
	pq_text(&p, c->system_prompt);
	pq_text(&p, c->prompt);
	pq_text(&p, c->answer);
	pq_time(&p, c->input_tokens >= 0 ? c->input_tokens : TIME_NONE);
	pq_time(&p, c->output_tokens >= 0 ? c->output_tokens : TIME_NONE);
	pq_text(&p, c->finish_reason);
	pq_time(&p, c->duration_ms >= 0 ? c->duration_ms : TIME_NONE);
	pq_text(&p, c->error);
	pq_int(&p, c->created_at);
	pq_text(&p, c->tool_calls);
	char cost[40];
	snprintf(cost, sizeof cost, "%.17g", c->cost);
	pq_text(&p, c->cost >= 0 ? cost : NULL);
	pq_text(&p, c->answered_model);
	pq_text(&p, c->fallback_from);
	pq_text(&p, c->request);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "recording a model call", e);
	if (!rc) {
		c->id = pq_get_int(pq, r, 0, 0);
		pq->clear(r);
	}
	return rc;
}

static long
get_count(const struct pq_lib *pq, const PGresult *r, int row, int col)
{
	return pq->getisnull(r, row, col) ? -1 : (long)pq_get_int(pq, r, row, col);
}

static double
get_cost(const struct pq_lib *pq, const PGresult *r, int row, int col)
{
	return pq->getisnull(r, row, col) ? -1 : strtod(pq->getvalue(r, row, col), NULL);
}

struct calls_ctx {
	llm_call_fn fn;
	void *arg;
};

static int
call_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct calls_ctx *x = arg;
	struct llm_call c = {
		.id = pq_get_int(pq, r, row, 0),
		.run_id = pq_get_text(pq, r, row, 1),
		.task_id = pq_get_text(pq, r, row, 2),
		.context = pq_get_text(pq, r, row, 3),
		.provider = pq_get_text(pq, r, row, 4),
		.model = pq_get_text(pq, r, row, 5),
		.system_prompt = pq_get_text(pq, r, row, 6),
		.prompt = pq_get_text(pq, r, row, 7),
		.answer = pq_get_text(pq, r, row, 8),
		.input_tokens = get_count(pq, r, row, 9),
		.output_tokens = get_count(pq, r, row, 10),
		.finish_reason = pq_get_text(pq, r, row, 11),
		.duration_ms = get_count(pq, r, row, 12),
		.error = pq_get_text(pq, r, row, 13),
		.created_at = pq_get_time(pq, r, row, 14),
		.tool_calls = pq_get_text(pq, r, row, 15),
		.cost = get_cost(pq, r, row, 16),
		.answered_model = pq_get_text(pq, r, row, 17),
		.fallback_from = pq_get_text(pq, r, row, 18),
		.request = pq_get_text(pq, r, row, 19),
	};
	int stop = x->fn(&c, x->arg);
	llm_call_free(&c);
	return stop;
}

int
pg_call_list(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e)
{
	struct buf q = {0};
	struct pq_params p = {.n = 0};
	buf_puts(&q, "SELECT id, run_id, task_id, context, provider, model, system_prompt, prompt,"
	    " answer, input_tokens, output_tokens, finish_reason, duration_ms, error, created_at,"
	    " tool_calls, cost, answered_model, fallback_from, request FROM llm_calls WHERE true");
	if (run_id) {
		pq_text(&p, run_id);
		buf_printf(&q, " AND run_id = $%d", p.n);
	} else if (task_id) {
		pq_text(&p, task_id);
		buf_printf(&q, " AND task_id = $%d", p.n);
	}
	buf_puts(&q, " ORDER BY id DESC");
	if (limit > 0)
		buf_printf(&q, " LIMIT %ld", limit);
	struct calls_ctx x = {fn, arg};
	int rc = pq_each_row(st, q.data, &p, limit, call_row, &x, "reading model calls", e);
	buf_free(&q);
	return rc;
}

int
pg_call_spend(struct store *st, const char *task_id, int64_t since, double *dollars,
    long long *tokens, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char q[] = "SELECT coalesce(sum(cost), 0)::text,"
	    " coalesce(sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)), 0)::bigint"
	    " FROM llm_calls WHERE ($1::text IS NULL OR task_id = $1) AND created_at >= $2";
	struct pq_params p = {.n = 0};
	pq_text(&p, task_id);
	pq_int(&p, since);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "reading what model calls cost", e);
	if (!rc) {
		*dollars = strtod(pq->getvalue(r, 0, 0), NULL);
		*tokens = pq_get_int(pq, r, 0, 1);
		pq->clear(r);
	}
	return rc;
}

struct usage_ctx {
	call_usage_fn fn;
	void *arg;
};

static int
usage_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct usage_ctx *x = arg;
	struct call_usage u = {
		.task_id = pq_get_text(pq, r, row, 0), .name = pq_get_text(pq, r, row, 1),
		.model = pq_get_text(pq, r, row, 2), .created_at = pq_get_time(pq, r, row, 3),
		.input_tokens = get_count(pq, r, row, 4), .output_tokens = get_count(pq, r, row, 5),
		.cost = get_cost(pq, r, row, 6), .answered_model = pq_get_text(pq, r, row, 7),
	};
	int stop = x->fn(&u, x->arg);
	free(u.task_id);
	free(u.name);
	free(u.model);
	free(u.answered_model);
	return stop;
}

int
pg_call_usage(struct store *st, int64_t since, call_usage_fn fn, void *arg, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_CALL_USAGE);
	struct pq_params p = {.n = 0};
	pq_int(&p, since == TIME_NONE ? INT64_MIN : since);
	struct usage_ctx x = {fn, arg};
	return pq_each_row(st, q, &p, 0, usage_row, &x, "reading model calls", e);
}

/* Every host's gate decisions take one advisory lock in turn: the counts
 * and the claim of a slot are then one step against theirs. */
int
pg_run_gate(struct store *st, const char *run_id, const char *model, int max_all, int max_model,
    int64_t lease, int *got, struct err *e)
{
	static const char lock[] = "SELECT pg_advisory_xact_lock(hashtext('agentcron run gate'))";
	static const char take[] = "UPDATE runs SET gate = $1, lease_until = coalesce($3::bigint,"
	    " lease_until) WHERE id = $2 AND status = 'running'";
	/* Waiting: the lease renewed once it is a minute behind. */
	static const char renew[] = "UPDATE runs SET lease_until = $2::bigint WHERE id = $1 AND"
	    " status = 'running' AND (lease_until IS NULL OR lease_until < $2::bigint - 60)";
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	PGresult *r;
	int rc = pq_do(st, lock, &p, NULL, "waiting for the run gate", e);
	if (rc)
		return rc;
	pq_text(&p, model);
	pq_text(&p, run_id);
	if ((rc = pq_exec(st, store_sql(pq_sql(st), SQL_GATE_COUNT), &p, &r, "counting the runs in flight",
	    e)))
		return rc;
	*got = store_sql_gate(pq_get_int(pq, r, 0, 0), pq_get_int(pq, r, 0, 1), pq_get_int(pq, r, 0, 2),
	    max_all, max_model);
	pq->clear(r);
	if (*got < 0 || (*got == 0 && lease == TIME_NONE))
		return ST_OK;
	p.n = 0;
	if (*got)
		pq_text(&p, model);
	pq_text(&p, run_id);
	if (lease != TIME_NONE)
		pq_int(&p, lease);
	else
		pq_text(&p, NULL);
	return pq_do(st, *got ? take : renew, &p, NULL, "taking a slot for a run", e);
}

/* The ledger's rows: the task's (when it has one) and every call's (''). */
int
pg_spend_add(struct store *st, const char *task_id, const char *run_id, int64_t at,
    double dollars, long long tokens, struct err *e)
{
	static const char q[] = "INSERT INTO spend (task_id, at, dollars, tokens)"
	    " SELECT k, $2::bigint, $3::double precision, $4::bigint FROM unnest(CASE WHEN $1::text IS NULL"
	    " OR $1::text = '' THEN ARRAY['']::text[] ELSE ARRAY[$1::text, ''] END) AS k"
	    " ON CONFLICT (task_id, at) DO UPDATE SET dollars = spend.dollars + excluded.dollars,"
	    " tokens = spend.tokens + excluded.tokens";
	static const char q_run[] = "UPDATE reserves SET spent = spent + $2::double precision,"
	    " spent_tokens = spent_tokens + $3::bigint WHERE task_id = coalesce(nullif($4::text, ''),"
	    " (SELECT task_id FROM runs WHERE id = $1)) AND run_id = $1";
	char d[40];
	snprintf(d, sizeof d, "%.17g", dollars);
	struct pq_params p = {.n = 0};
	pq_text(&p, task_id);
	pq_int(&p, at);
	pq_text(&p, d);
	pq_int(&p, tokens);
	int rc = pq_do(st, q, &p, NULL, "recording what a model call spent", e);
	if (rc || !run_id || !*run_id)
		return rc;
	struct pq_params pr = {.n = 0};
	pq_text(&pr, run_id);
	pq_text(&pr, d);
	pq_int(&pr, tokens);
	pq_text(&pr, task_id);
	return pq_do(st, q_run, &pr, NULL, "recording what a run spent", e);
}

int
pg_spend_read(struct store *st, const char *task_id, int64_t since, const char *except_run,
    double *dollars, long long *tokens, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* What all tasks spent is read by one claimer at a time, until its
	 * commit: the reservations of its runs are then seen by the next. */
	static const char lock[] = "SELECT pg_advisory_xact_lock(hashtext('agentcron budget'))";
	static const char q[] = "SELECT (SELECT coalesce(sum(dollars), 0) FROM spend"
	    " WHERE task_id = coalesce($1::text, '') AND at >= $2::bigint)::text,"
	    " (SELECT coalesce(sum(tokens), 0) FROM spend WHERE task_id = coalesce($1::text, '')"
	    " AND at >= $2::bigint)::bigint, coalesce(sum(greatest(r.dollars - r.spent, 0)), 0)::text,"
	    " coalesce(sum(greatest(r.tokens - r.spent_tokens, 0)), 0)::bigint"
	    " FROM tasks t JOIN reserves r ON r.task_id = t.id AND r.run_id = t.run_in_flight"
	    " WHERE t.run_in_flight IS NOT NULL AND ($1::text IS NULL OR t.id = $1::text)"
	    " AND r.run_id IS DISTINCT FROM $3::text";
	int rc = ST_OK;
	if (!task_id)
		rc = pq_do(st, lock, &(struct pq_params){.n = 0}, NULL, "waiting for the budget", e);
	struct pq_params p = {.n = 0};
	pq_text(&p, task_id);
	pq_int(&p, since);
	pq_text(&p, except_run);
	PGresult *r;
	if (!rc && !(rc = pq_exec(st, q, &p, &r, "reading what was spent", e))) {
		*dollars = strtod(pq->getvalue(r, 0, 0), NULL) + strtod(pq->getvalue(r, 0, 2), NULL);
		*tokens = pq_get_int(pq, r, 0, 1) + pq_get_int(pq, r, 0, 3);
		pq->clear(r);
	}
	return rc;
}

/* The newest calls on record (the last runs' are always kept), by run. */
#define RECENT_RUNS(where) "SELECT coalesce(sum(cost), 0) AS d, sum(coalesce(input_tokens, 0) +" \
	" coalesce(output_tokens, 0)) AS t FROM (SELECT run_id, cost, input_tokens, output_tokens" \
	" FROM llm_calls WHERE " where " run_id IS NOT NULL ORDER BY id DESC LIMIT 30) AS c" \
	" GROUP BY run_id"

int
pg_reserve(struct store *st, const char *run_id, const char *task_id, int ran,
    double *dollars, long long *tokens, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* A task has one run in flight: its row is its last run's, and what
	 * that run spent is the next one's expectation.  The calls are read
	 * only for a task that ran and has no row yet. */
	static const char q[] = "WITH recent AS (SELECT max(d) AS d, max(t) AS t FROM ("
	    RECENT_RUNS("task_id = $1 AND") ") AS g WHERE NOT EXISTS (SELECT FROM reserves"
	    " WHERE task_id = $1)) INSERT INTO reserves (task_id, run_id, dollars, tokens)"
	    " SELECT $1, $2, coalesce(d, $3::double precision), coalesce(t, $4::bigint) FROM recent"
	    " ON CONFLICT (task_id) DO UPDATE SET run_id = excluded.run_id, dollars = reserves.spent,"
	    " tokens = reserves.spent_tokens, spent = 0, spent_tokens = 0"
	    " RETURNING dollars::text, tokens";
	static const char q_first[] = "INSERT INTO reserves (task_id, run_id, dollars, tokens)"
	    " VALUES ($1, $2, $3::double precision, $4::bigint) ON CONFLICT (task_id) DO UPDATE SET"
	    " run_id = excluded.run_id, dollars = reserves.spent, tokens = reserves.spent_tokens,"
	    " spent = 0, spent_tokens = 0 RETURNING dollars::text, tokens";
	char d[40];
	snprintf(d, sizeof d, "%.17g", *dollars);
	struct pq_params p = {.n = 0};
	pq_text(&p, task_id);
	pq_text(&p, run_id);
	pq_text(&p, d);
	pq_int(&p, *tokens);
	PGresult *r;
	int rc = pq_exec(st, ran ? q : q_first, &p, &r, "reserving what a run may spend", e);
	if (rc)
		return rc;
	if (pq->ntuples(r) == 1) {
		*dollars = strtod(pq->getvalue(r, 0, 0), NULL);
		*tokens = pq_get_int(pq, r, 0, 1);
	}
	pq->clear(r);
	return ST_OK;
}

int
pg_run_cost(struct store *st, double *dollars, long long *tokens, int *known, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char q[] = "SELECT count(*), coalesce(avg(d), 0)::text,"
	    " coalesce(avg(t), 0)::bigint FROM (" RECENT_RUNS("") ") AS l";
	struct pq_params p = {.n = 0};
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "reading what runs spent", e);
	if (rc)
		return rc;
	*known = pq_get_int(pq, r, 0, 0) > 0;
	*dollars = strtod(pq->getvalue(r, 0, 1), NULL);
	*tokens = pq_get_int(pq, r, 0, 2);
	pq->clear(r);
	return ST_OK;
}
