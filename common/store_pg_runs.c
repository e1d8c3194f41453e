/* The PostgreSQL backend's runs, claims and conversations (the schema is in
 * store_pg.c).  A claim scan locks the tasks it returns FOR UPDATE SKIP
 * LOCKED inside the caller's transaction: tickers on several hosts each
 * take different due tasks instead of queueing behind one another, and a
 * task one of them holds is not seen by the others until it is written. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"

#define RUN_COLS "id, task_id, slot, trigger, status, started_at, ended_at, exit_code," \
	" duration_ms, attempt, arming, lease_until, prev_status"

static void
read_run(const struct pq_lib *pq, const PGresult *r, int row, struct run *out, int with_output)
{
	memset(out, 0, sizeof *out);
	pq_get_copy(pq, r, row, 0, out->id, sizeof out->id);
	pq_get_copy(pq, r, row, 1, out->task_id, sizeof out->task_id);
	out->slot = pq_get_time(pq, r, row, 2);
	out->trigger = pq_get_text(pq, r, row, 3);
	out->status = run_status_parse(pq->getisnull(r, row, 4) ? NULL : pq->getvalue(r, row, 4));
	out->started_at = pq_get_time(pq, r, row, 5);
	out->ended_at = pq_get_time(pq, r, row, 6);
	out->exit_code = pq->getisnull(r, row, 7) ? -1 : (int)pq_get_int(pq, r, row, 7);
	out->duration_ms = pq->getisnull(r, row, 8) ? -1 : pq_get_int(pq, r, row, 8);
	out->attempt = (int)pq_get_int(pq, r, row, 9);
	out->arming = (int)pq_get_int(pq, r, row, 10);
	out->lease_until = pq_get_time(pq, r, row, 11);
	pq_get_copy(pq, r, row, 12, out->prev_status, sizeof out->prev_status);
	if (with_output) {
		out->output = pq_get_text(pq, r, row, 13);
		out->error = pq_get_text(pq, r, row, 14);
		out->note = pq_get_text(pq, r, row, 15);
	}
}

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
	read_run(pq, r, row, &run, c->with_output);
	int stop = c->fn(&run, c->arg);
	run_free(&run);
	return stop;
}

int
pg_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e)
{
	struct buf q = {0};
	struct pq_params p = {.n = 0};
	buf_puts(&q, "SELECT " RUN_COLS);
	buf_puts(&q, f->with_output ? ", output, error, note" : "");
	buf_puts(&q, " FROM runs WHERE true");
	if (f->task_id) {
		pq_text(&p, f->task_id);
		buf_printf(&q, " AND task_id = $%d", p.n);
	}
	if (f->status >= 0) {
		pq_text(&p, run_status_name(f->status));
		buf_printf(&q, " AND status = $%d", p.n);
	}
	if (f->since != TIME_NONE) {
		pq_int(&p, f->since);
		buf_printf(&q, " AND started_at >= $%d", p.n);
	}
	buf_puts(&q, " ORDER BY started_at DESC, seq DESC");
	if (f->limit > 0)
		buf_printf(&q, " LIMIT %ld", f->limit);
	struct runs_ctx c = {fn, arg, f->with_output};
	int rc = pq_each_row(st, q.data, &p, f->limit, run_row, &c, "listing runs", e);
	buf_free(&q);
	return rc;
}

int
pg_run_prefix(struct store *st, const char *lower, struct run *r, int *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char q[] = "SELECT " RUN_COLS ", output, error, note FROM runs"
	    " WHERE id >= $1 AND id < $2 ORDER BY id LIMIT 2";
	char upper[41];
	snprintf(upper, sizeof upper, "%s~", lower);
	struct pq_params p = {.n = 0};
	pq_text(&p, lower);
	pq_text(&p, upper);
	PGresult *res;
	int rc = pq_exec(st, q, &p, &res, "reading a run", e);
	if (rc)
		return rc;
	*n = pq->ntuples(res) < 2 ? pq->ntuples(res) : 2;
	for (int i = 0; i < *n; i++)
		read_run(pq, res, i, &r[i], 1);
	pq->clear(res);
	return ST_OK;
}

/* ---- claims ---- */

#define DUE_WHERE "status = 'pending' AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL"
#define LAST_ATTEMPT "(SELECT attempt FROM runs WHERE runs.task_id = tasks.id" \
	" AND trigger <> 'manual' AND status <> 'unstarted' ORDER BY started_at DESC, seq DESC LIMIT 1)"

int
pg_claim_scan(struct store *st, const struct claim_req *req, struct task *tasks,
    int *last_attempt, int *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char qdue[] = "SELECT " PQ_TASK_COLS ", " LAST_ATTEMPT " FROM tasks WHERE "
	    DUE_WHERE " AND due_at <= $1 AND (due_at, id) > ($2, $3) ORDER BY due_at, id LIMIT $4"
	    " FOR UPDATE SKIP LOCKED";
	static const char qqueued[] = "SELECT " PQ_TASK_COLS ", " LAST_ATTEMPT " FROM tasks"
	    " WHERE queued <> 0 AND deleted_at IS NULL AND status <> 'running' LIMIT $1"
	    " FOR UPDATE SKIP LOCKED";
	static const char qone[] = "SELECT " PQ_TASK_COLS ", " LAST_ATTEMPT " FROM tasks WHERE id = $1"
	    " FOR UPDATE";
	int max = req->what == CLAIM_ONE ? 1 : req->max;
	struct pq_params p = {.n = 0};
	const char *q = qone;
	if (req->what == CLAIM_DUE) {
		q = qdue;
		pq_int(&p, req->now);
		pq_int(&p, req->cur->due);
		pq_text(&p, req->cur->id);
		pq_int(&p, max);
	} else if (req->what == CLAIM_QUEUED) {
		q = qqueued;
		pq_int(&p, max);
	} else {
		pq_text(&p, req->id);
	}
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "looking for due tasks", e);
	if (rc)
		return rc;
	*n = pq->ntuples(r) < max ? pq->ntuples(r) : max;
	for (int i = 0; i < *n; i++) {
		pq_read_task(pq, r, i, &tasks[i]);
		last_attempt[i] = (int)pq_get_int(pq, r, i, PQ_TASK_NCOLS);
	}
	pq->clear(r);
	if (req->what == CLAIM_DUE && *n) {
		req->cur->due = tasks[*n - 1].due_at;
		memcpy(req->cur->id, tasks[*n - 1].id, sizeof req->cur->id);
	}
	return ST_OK;
}

int
pg_run_insert(struct store *st, const struct run *r, int running, int *dup, struct err *e)
{
	static const char q[] = "INSERT INTO runs (id, task_id, slot, trigger, status, started_at,"
	    " attempt, arming, lease_until, prev_status, ended_at, error, duration_ms, owner_id,"
	    " owner_host, owner_node, owner_pid, owner_start)"
	    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)"
	    " ON CONFLICT DO NOTHING";
	struct pq_params p = {.n = 0};
	const struct owner *o = &st->self;
	pq_text(&p, r->id);
	pq_text(&p, r->task_id);
	pq_time(&p, r->slot);
	pq_text(&p, r->trigger);
	pq_text(&p, run_status_name(r->status));
	pq_int(&p, r->started_at);
	pq_int(&p, r->attempt);
	pq_int(&p, r->arming);
	pq_time(&p, running ? r->lease_until : TIME_NONE);
	pq_text(&p, r->prev_status[0] ? r->prev_status : NULL);
	pq_time(&p, r->ended_at);
	pq_text(&p, r->error);
	pq_time(&p, r->duration_ms >= 0 ? r->duration_ms : TIME_NONE);
	pq_text(&p, running ? o->id : NULL);
	pq_text(&p, running ? o->host : NULL);
	pq_text(&p, running ? o->node : NULL);
	pq_time(&p, running ? o->pid : TIME_NONE);
	pq_time(&p, running ? o->start : TIME_NONE);
	long rows = 0;
	int rc = pq_do(st, q, &p, &rows, "recording a run", e);
	if (!rc)
		*dup = rows == 0;
	return rc;
}

int
pg_run_finish(struct store *st, const struct run *r, const char *owner_id, int *ended, struct err *e)
{
	static const char q[] = "UPDATE runs SET status = $2, ended_at = $3, exit_code = $4,"
	    " output = $5, error = $6, duration_ms = $7 WHERE id = $1 AND status = 'running'"
	    " AND coalesce(owner_id, '') = $8";
	struct pq_params p = {.n = 0};
	pq_text(&p, r->id);
	pq_text(&p, run_status_name(r->status));
	pq_time(&p, r->ended_at);
	pq_time(&p, r->exit_code >= 0 ? r->exit_code : TIME_NONE);
	pq_text(&p, r->output);
	pq_text(&p, r->error);
	pq_time(&p, r->duration_ms >= 0 ? r->duration_ms : TIME_NONE);
	pq_text(&p, owner_id);
	long rows = 0;
	int rc = pq_do(st, q, &p, &rows, "recording the end of a run", e);
	if (!rc)
		*ended = rows > 0;
	return rc;
}

int
pg_run_note(struct store *st, const char *run_id, const char *note, struct err *e)
{
	static const char q[] = "UPDATE runs SET note = $2 WHERE id = $1";
	struct pq_params p = {.n = 0};
	pq_text(&p, run_id);
	pq_text(&p, note);
	return pq_do(st, q, &p, NULL, "keeping a late result", e);
}

int
pg_due_next(struct store *st, int64_t *due, int *queued, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char q[] = "SELECT (SELECT min(due_at) FROM tasks WHERE " DUE_WHERE "),"
	    " EXISTS (SELECT 1 FROM tasks WHERE queued <> 0 AND deleted_at IS NULL"
	    " AND status <> 'running')";
	PGresult *r;
	int rc = pq_exec(st, q, NULL, &r, "looking for due tasks", e);
	if (rc)
		return rc;
	*due = pq_get_time(pq, r, 0, 0);
	*queued = strcmp(pq->getvalue(r, 0, 1), "t") == 0;
	pq->clear(r);
	return ST_OK;
}

int
pg_run_claims(struct store *st, struct run_claim **out, size_t *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* Silence on the server's clock, so hosts with skewed clocks agree; a
	 * process declared dead or gone from the table is silent for ever. */
	static const char q[] = "SELECT r.id, r.task_id, r.slot, r.started_at, r.lease_until, r.trigger,"
	    " r.prev_status, r.owner_id, r.owner_host, r.owner_node, r.owner_pid, r.owner_start,"
	    " r.attempt, r.arming, CASE WHEN p.id IS NULL OR p.dead THEN 1000000000 ELSE"
	    " floor(extract(epoch FROM clock_timestamp() - p.beat_at))::bigint END"
	    " FROM runs r LEFT JOIN processes p ON p.id = r.owner_id WHERE r.status = 'running'";
	PGresult *r;
	int rc = pq_exec(st, q, NULL, &r, "listing running runs", e);
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
		pq_get_copy(pq, r, row, 5, c->trigger, sizeof c->trigger);
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
	static const char q[] = "SELECT role, content, run_id, created_at FROM messages"
	    " WHERE context = $1 ORDER BY id DESC LIMIT $2";
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
	static const char q[] = "INSERT INTO messages (context, role, content, run_id, created_at)"
	    " VALUES ($1, $2, $3, $4, $5)";
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
	static const char q[] = "DELETE FROM messages WHERE context = $1";
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
	    " error, created_at, tool_calls) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
	    " $12, $13, $14, $15) RETURNING id";
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
	    " tool_calls FROM llm_calls WHERE true");
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
