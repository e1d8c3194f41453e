/* The PostgreSQL backend's passes, figures and pruning (store_history.h;
 * the tables are step 3 of store_pg.c's schema).  A batch of pruned runs
 * is one statement: the runs deleted, their model calls and the totals
 * are data-modifying parts of one WITH, so they agree whatever other hosts
 * do meanwhile.  Space is the autovacuum's to reclaim. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"

/* What a pass asks after recording itself, read by the same statement
 * (store_pg_look.c): pruning's two settings (history.c) and whether
 * deliveries are due or have targets (pgd_work). */
#define PASS_AHEAD " (SELECT value FROM settings WHERE key = 'prune_round'), (SELECT value" \
	" FROM settings WHERE key = 'prune_cursor'), (SELECT next_at FROM receipts WHERE" \
	" status = 'pending' ORDER BY next_at LIMIT 1), EXISTS (SELECT 1 FROM tasks WHERE" \
	" deliver IS NOT NULL AND deleted_at IS NULL)::int"
static const char *const pass_ahead[] = {"setting:prune_round", "setting:prune_cursor",
	"receipt_next", "deliver_targets"};

static int
pgh_pass_put(struct store *st, const struct pass *p, struct err *e)
{
	/* A heartbeat: losing the last one in a crash costs nothing, so its
	 * commit (the statement's own, outside a unit of work) does not wait
	 * for the server's disk.  A transaction of its own that writes nothing
	 * else: other hosts' idle notes take its id for a record's alone
	 * (store_pg_idle.c). */
	static const char q[] = "WITH quiet AS (SELECT set_config('synchronous_commit', 'off',"
	    " true)), put AS (INSERT INTO passes (host, at, mode, pid, version) SELECT $1, $2, $3, $4,"
	    " $5 FROM quiet ON CONFLICT (host) DO UPDATE SET at = excluded.at, mode = excluded.mode,"
	    " pid = excluded.pid, version = excluded.version RETURNING 1) SELECT (SELECT count(*)"
	    " FROM put)," PASS_AHEAD ", txid_current()";
	const char *q_in_unit = store_sql(pq_sql(st), SQL_PASS_PUT);
	struct pq_params pp = {.n = 0};
	pq_text(&pp, p->host);
	pq_int(&pp, p->at);
	pq_text(&pp, p->mode);
	pq_int(&pp, p->pid);
	pq_text(&pp, p->version);
	if (st->depth)
		return pq_do(st, q_in_unit, &pp, NULL, "recording a pass", e);
	/* Recorded by asking for the idle note (store_pg_idle.c): read ahead
	 * alone, with the snapshot's next id. */
	static const char q_read[] = "SELECT 1," PASS_AHEAD ", txid_snapshot_xmax(txid_current_snapshot()),"
	    " EXISTS (SELECT FROM txid_snapshot_xip(txid_current_snapshot()))";
	struct pg_idle_seen *seen = pq_idle_seen(st);
	int recorded = seen->found.recorded;
	seen->found.recorded = 0;
	PGresult *r;
	int rc = pq_exec(st, recorded ? q_read : q, recorded ? NULL : &pp, &r, "recording a pass", e);
	if (rc)
		return rc;
	pq_ahead_start(st);
	int n = (int)(sizeof pass_ahead / sizeof pass_ahead[0]);
	for (int i = 0; i < n; i++)
		pq_ahead_put(st, pass_ahead[i], r, i + 1);
	/* Nothing written since the look when the record took the id the
	 * look saw next, or the snapshot's next is still that one. */
	long long id = pq_get_int(pq_of(st), r, 0, n + 1);
	int still = recorded ? id == seen->next_xid && strcmp(pq_of(st)->getvalue(r, 0, n + 2), "f") == 0
	    : id == seen->next_xid;
	if (seen->looked && still) {
		seen->receipts = !pq_of(st)->getisnull(r, 0, 3);
		seen->note_xid = recorded ? id : id + 1;
		seen->sent = pq_sent(st);
	}
	pq_of(st)->clear(r);
	return ST_OK;
}

static int
pgh_pass_list(struct store *st, int (*fn)(const struct pass *p, void *arg), void *arg,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	const char *q = store_sql(pq_sql(st), SQL_PASS_LIST);
	PGresult *r;
	int rc = pq_exec(st, q, NULL, &r, "reading the passes", e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(r); i < n; i++) {
		struct pass p;
		pq_get_copy(pq, r, i, 0, p.host, sizeof p.host);
		p.at = pq_get_time(pq, r, i, 1);
		pq_get_copy(pq, r, i, 2, p.mode, sizeof p.mode);
		p.pid = pq_get_int(pq, r, i, 3);
		pq_get_copy(pq, r, i, 4, p.version, sizeof p.version);
		if (fn(&p, arg))
			break;
	}
	pq->clear(r);
	return ST_OK;
}

/* Rows of (text, bigint) to fn. */
static int
pairs(struct store *st, const char *q, struct pq_params *p, void (*fn)(const char *k, long long n,
    void *arg), void *arg, const char *what, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	PGresult *r;
	int rc = pq_exec(st, q, p, &r, what, e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(r); i < n; i++)
		fn(pq->getvalue(r, i, 0), pq_get_int(pq, r, i, 1), arg);
	pq->clear(r);
	return ST_OK;
}

static void
take_tally(const char *key, long long n, void *arg)
{
	struct task_tally *t = arg;
	int status = task_status_parse(key);
	if (strcmp(key, "*all") == 0) {
		t->all += (long)n;
		t->enabled += (long)n;
		t->by_status[STATUS_PENDING] += (long)n;
	} else if (strcmp(key, "*disabled") == 0) {
		t->enabled -= (long)n;
	} else if (status >= 0 && status != STATUS_PENDING) {
		t->by_status[status] += (long)n;
		t->by_status[STATUS_PENDING] -= (long)n;
	}
}

/* Counts from indexes alone, as on SQLite: all the tasks (tasks_order),
 * the disabled (tasks_disabled) and the few not pending (tasks_status);
 * the rest are enabled, or pending.  A pass over the table itself read
 * every task's row, prompts and all.  Rows in any order. */
static int
pgh_task_tally(struct store *st, struct task_tally *t, struct err *e)
{
	memset(t, 0, sizeof *t);
	static const char q[] = "SELECT '*all', count(*) FROM tasks WHERE deleted_at IS NULL"
	    " UNION ALL SELECT '*disabled', count(*) FROM tasks WHERE enabled = 0 AND"
	    " deleted_at IS NULL UNION ALL SELECT * FROM (SELECT status, count(*) FROM tasks"
	    " WHERE deleted_at IS NULL AND status <> 'pending' GROUP BY status) s";
	return pairs(st, q, NULL, take_tally, t, "counting tasks", e);
}

/* Two counts from one row (b NULL: one). */
static int
two_counts(struct store *st, const char *q, struct pq_params *p, long *a, long *b,
    const char *what, struct err *e)
{
	long long v[2];
	int rc = pq_ints(st, q, p, v, b ? 2 : 1, what, e);
	if (!rc) {
		*a = (long)v[0];
		if (b)
			*b = (long)v[1];
	}
	return rc;
}

static int
pgh_task_due(struct store *st, int64_t now, int64_t late, long *due, long *overdue,
    struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_TASK_DUE_COUNT);
	struct pq_params p = {.n = 0};
	pq_int(&p, now);
	pq_int(&p, late);
	return two_counts(st, q, &p, due, overdue, "counting the due tasks", e);
}

static int
pgh_run_counts(struct store *st, int64_t since, void (*fn)(const char *status, long long n,
    void *arg), void *arg, struct err *e)
{
	static const char q[] = "SELECT status, count(*) FROM runs WHERE started_at >= $1"
	    " GROUP BY status ORDER BY status";
	struct pq_params p = {.n = 0};
	pq_int(&p, since == TIME_NONE ? INT64_MIN : since);
	return pairs(st, q, &p, fn, arg, "counting runs", e);
}

static int
pgh_last_success(struct store *st,
    void (*fn)(const char *task_id, const char *name, int64_t at, void *arg), void *arg,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	const char *q = store_sql(pq_sql(st), SQL_LAST_SUCCESS);
	PGresult *r;
	int rc = pq_exec(st, q, NULL, &r, "reading the last successes", e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(r); i < n; i++)
		fn(pq->getvalue(r, i, 0), pq->getisnull(r, i, 1) ? NULL : pq->getvalue(r, i, 1),
		    pq_get_time(pq, r, i, 2), arg);
	pq->clear(r);
	return ST_OK;
}

static int
pgh_budget_tasks(struct store *st, void (*fn)(const char *task_id, void *arg), void *arg,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	const char *q = store_sql(pq_sql(st), SQL_BUDGET_TASKS);
	PGresult *r;
	int rc = pq_exec(st, q, NULL, &r, "reading the budgets", e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(r); i < n; i++)
		fn(pq->getvalue(r, i, 0), arg);
	pq->clear(r);
	return ST_OK;
}

static int
pgh_call_tokens(struct store *st, int64_t since, long long *in, long long *out, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_CALL_TOKENS);
	struct pq_params p = {.n = 0};
	pq_int(&p, since == TIME_NONE ? INT64_MIN : since);
	long long v[2];
	int rc = pq_ints(st, q, &p, v, 2, "counting tokens", e);
	if (!rc) {
		*in = v[0];
		*out = v[1];
	}
	return rc;
}

static int
pgh_pruned_totals(struct store *st, void (*fn)(const char *key, long long n, void *arg), void *arg,
    struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_PRUNED_TOTALS);
	return pairs(st, q, NULL, fn, arg, "reading what pruning removed", e);
}

static int
pgh_size(struct store *st, int64_t *bytes, int64_t *free_bytes, struct err *e)
{
	/* Ours only: the database may hold other things. */
	static const char q[] = "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
	    " WHERE c.oid IN (to_regclass('tasks'), to_regclass('runs'), to_regclass('messages'),"
	    " to_regclass('llm_calls'), to_regclass('settings'), to_regclass('processes'),"
	    " to_regclass('passes'), to_regclass('pruned'), to_regclass('agentcron_schema'))";
	long long v;
	int rc = pq_ints(st, q, NULL, &v, 1, "reading the store's size", e);
	*bytes = rc ? 0 : v;
	*free_bytes = -1;
	return rc;
}

/* A round asks for the bounds of each task the walk gave, a statement a
 * task: a trip to the server each, a minute a round at a million tasks.
 * Once the offsets asked for are known, the walk reads every task's bounds
 * with it (as the same statements would, in the same unit of work), and
 * the asks of that batch are answered from them; a task asked at other
 * offsets (a keep of its own) is read alone, and those offsets are the
 * next walk's. */
#define BOUNDS_MAX 64
struct pg_bounds {
	long nth0, nth1;          /* the offsets last asked for; 0: none yet */
	int n;                    /* bounds the last walk read */
	struct {
		char id[37];
		int64_t oldest, at0, at1;
	} b[BOUNDS_MAX];
};

static struct pg_bounds *
bounds_of(struct store *st)
{
	void **slot = pq_bounds(st);
	if (!*slot)
		*slot = xcalloc(1, sizeof(struct pg_bounds));
	return *slot;
}

static int
pgh_prune_tasks(struct store *st, const char *after, int max, struct prune_task *out, int *n,
    struct err *e)
{
	static const char with_bounds[] = "WITH RECURSIVE t(v, k) AS (SELECT (SELECT min(task_id)"
	    " FROM runs WHERE task_id > $1), 1 UNION ALL SELECT (SELECT min(task_id) FROM runs"
	    " WHERE task_id > t.v), k + 1 FROM t WHERE t.v IS NOT NULL AND k < $2)"
	    " SELECT t.v, tasks.keep, (SELECT min(started_at) FROM runs WHERE task_id = t.v),"
	    " (SELECT started_at FROM runs WHERE task_id = t.v ORDER BY started_at DESC LIMIT 1"
	    " OFFSET $3), (SELECT started_at FROM runs WHERE task_id = t.v ORDER BY started_at DESC"
	    " LIMIT 1 OFFSET $4) FROM t JOIN tasks ON tasks.id = t.v ORDER BY t.v";
	const struct pq_lib *pq = pq_of(st);
	struct pg_bounds *c = bounds_of(st);
	int ahead = c->nth0 > 0 && max <= BOUNDS_MAX;
	const char *q = ahead ? with_bounds : store_sql(pq_sql(st), SQL_PRUNE_TASKS);
	struct pq_params p = {.n = 0};
	pq_text(&p, after);
	pq_int(&p, max);
	if (ahead) {
		pq_int(&p, c->nth0 - 1);
		pq_int(&p, c->nth1 - 1);
	}
	PGresult *r;
	c->n = 0;
	int rc = pq_exec(st, q, &p, &r, "looking for history to prune", e);
	if (rc)
		return rc;
	*n = 0;
	for (int i = 0, rows = pq->ntuples(r); i < rows && *n < max; i++) {
		pq_get_copy(pq, r, i, 0, out[*n].id, sizeof out[*n].id);
		out[*n].keep = pq_get_text(pq, r, i, 1);
		if (ahead) {
			memcpy(c->b[*n].id, out[*n].id, sizeof c->b[*n].id);
			c->b[*n].oldest = pq_get_time(pq, r, i, 2);
			c->b[*n].at0 = pq_get_time(pq, r, i, 3);
			c->b[*n].at1 = pq_get_time(pq, r, i, 4);
			c->n = *n + 1;
		}
		(*n)++;
	}
	pq->clear(r);
	return ST_OK;
}

static int
pgh_prune_bounds(struct store *st, const char *id, long nth0, long nth1, int64_t *oldest,
    int64_t *at0, int64_t *at1, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg_bounds *c = bounds_of(st);
	if (c->nth0 == nth0 && c->nth1 == nth1)
		for (int i = 0; i < c->n; i++)
			if (strcmp(c->b[i].id, id) == 0) {
				*oldest = c->b[i].oldest;
				*at0 = c->b[i].at0;
				*at1 = c->b[i].at1;
				return ST_OK;
			}
	c->nth0 = nth0;
	c->nth1 = nth1;
	const char *q = store_sql(pq_sql(st), SQL_PRUNE_BOUNDS);
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	pq_int(&p, nth0 - 1);
	pq_int(&p, nth1 - 1);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "looking for history to prune", e);
	if (rc)
		return rc;
	*oldest = pq_get_time(pq, r, 0, 0);
	*at0 = pq_get_time(pq, r, 0, 1);
	*at1 = pq_get_time(pq, r, 0, 2);
	pq->clear(r);
	return ST_OK;
}

#define BATCH STORE_SQL_PRUNE_RUNS("$")
/* Totals only grow: what a statement removes (rows k of v) is added. */
#define ADD_TOTALS(rows) ", ins AS (INSERT INTO pruned (key, n) SELECT key, v FROM (" rows ") x" \
	" WHERE v <> 0 ON CONFLICT (key) DO UPDATE SET n = pruned.n + excluded.n) "

static int
pgh_prune_runs(struct store *st, const char *id, int64_t before, long limit, int dry, long *runs,
    long *calls, struct err *e)
{
	static const char qcount[] = "SELECT (SELECT count(*) FROM " BATCH " b),"
	    " (SELECT count(*) FROM llm_calls WHERE run_id IN " BATCH ")";
	static const char qdel[] = "WITH d AS (DELETE FROM runs WHERE id IN " BATCH
	    " RETURNING id, status), c AS (DELETE FROM llm_calls WHERE run_id IN (SELECT id FROM d)"
	    " RETURNING input_tokens, output_tokens, cost),"
	    " i AS (DELETE FROM run_inputs WHERE run_id IN (SELECT id FROM d)),"
	    " r AS (DELETE FROM receipts WHERE run_id IN (SELECT id FROM d) RETURNING kind, status)"
	    ADD_TOTALS("SELECT 'runs.' || status AS key, count(*) AS v FROM d GROUP BY status"
	    " UNION ALL SELECT 'deliveries.' || kind || '.' || status, count(*) FROM r"
	    " WHERE status <> 'pending' GROUP BY kind, status"
	    " UNION ALL SELECT 'input_tokens', coalesce(sum(input_tokens), 0) FROM c"
	    " UNION ALL SELECT 'output_tokens', coalesce(sum(output_tokens), 0) FROM c"
	    " UNION ALL SELECT 'cost_micro', round(coalesce(sum(cost), 0) * 1000000)::bigint FROM c")
	    "SELECT (SELECT count(*) FROM d), (SELECT count(*) FROM c)";
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	pq_int(&p, before);
	pq_int(&p, limit);
	return two_counts(st, dry ? qcount : qdel, &p, runs, calls, "pruning runs", e);
}

static int
pgh_prune_contexts(struct store *st, const char *after, int max, char **out, int *n,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	const char *q = store_sql(pq_sql(st), SQL_PRUNE_CONTEXTS);
	struct pq_params p = {.n = 0};
	pq_text(&p, after);
	pq_int(&p, max);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "looking for conversations to trim", e);
	if (rc)
		return rc;
	*n = 0;
	for (int i = 0, rows = pq->ntuples(r); i < rows && *n < max; i++)
		out[(*n)++] = pq_get_text(pq, r, i, 0);
	pq->clear(r);
	return ST_OK;
}

static int
pgh_prune_messages(struct store *st, const char *context, long keep, long limit, int dry, long *n,
    struct err *e)
{
#define OLD_MESSAGES STORE_SQL_PRUNE_MESSAGES("$")
	static const char qcount[] = "SELECT count(*) FROM " OLD_MESSAGES " m";
	static const char qdel[] = "WITH d AS (DELETE FROM messages WHERE id IN " OLD_MESSAGES
	    " RETURNING 1) SELECT count(*) FROM d";
	struct pq_params p = {.n = 0};
	pq_text(&p, context);
	pq_int(&p, keep - 1);
	pq_int(&p, limit);
	return two_counts(st, dry ? qcount : qdel, &p, n, NULL, "trimming a conversation", e);
}

static int
pgh_prune_loose_calls(struct store *st, int64_t before, long limit, int dry, long *n,
    struct err *e)
{
#define LOOSE STORE_SQL_PRUNE_CALLS("$")
	static const char qcount[] = "SELECT count(*) FROM " LOOSE " l";
	static const char qdel[] = "WITH c AS (DELETE FROM llm_calls WHERE id IN " LOOSE
	    " RETURNING input_tokens, output_tokens, cost)"
	    ADD_TOTALS("SELECT 'input_tokens' AS key, coalesce(sum(input_tokens), 0) AS v FROM c"
	    " UNION ALL SELECT 'output_tokens', coalesce(sum(output_tokens), 0) FROM c"
	    " UNION ALL SELECT 'cost_micro', round(coalesce(sum(cost), 0) * 1000000)::bigint FROM c")
	    "SELECT count(*) FROM c";
	struct pq_params p = {.n = 0};
	pq_int(&p, before);
	pq_int(&p, limit);
	return two_counts(st, dry ? qcount : qdel, &p, n, NULL, "pruning model calls", e);
}

static int
pgh_vacuum(struct store *st, int full, long max_pages, char *what, size_t n, struct err *e)
{
	(void)max_pages;
	if (!full) {
		snprintf(what, n, "PostgreSQL's autovacuum reclaims the space");
		return ST_OK;
	}
	PGresult *r;
	int rc = pq_exec_dynamic(st, "VACUUM (ANALYZE) runs, llm_calls, messages", NULL, &r,
	    "vacuuming", e);
	if (rc)
		return rc;
	pq_of(st)->clear(r);
	snprintf(what, n, "vacuumed the runs, model calls and conversations");
	return ST_OK;
}

static int
pgh_forget_trash(struct store *st, struct err *e)
{
	static const char q[] = "WITH t AS (SELECT id FROM tasks WHERE deleted_at IS NOT NULL),"
	    " c AS (DELETE FROM llm_calls WHERE task_id IN (SELECT id FROM t)"
	    " RETURNING input_tokens, output_tokens, cost),"
	    " i AS (DELETE FROM run_inputs WHERE task_id IN (SELECT id FROM t)),"
	    /* A purged task's trigger and the keys of its events go with it. */
	    " k AS (DELETE FROM web_hook_events WHERE task_id IN (SELECT id FROM t)),"
	    " h AS (DELETE FROM web_hooks WHERE task_id IN (SELECT id FROM t))"
	    ADD_TOTALS("SELECT 'runs.' || status AS key, count(*) AS v FROM runs"
	    " WHERE task_id IN (SELECT id FROM t) AND status <> 'running' GROUP BY status"
	    " UNION ALL SELECT 'input_tokens', coalesce(sum(input_tokens), 0) FROM c"
	    " UNION ALL SELECT 'output_tokens', coalesce(sum(output_tokens), 0) FROM c"
	    " UNION ALL SELECT 'cost_micro', round(coalesce(sum(cost), 0) * 1000000)::bigint FROM c")
	    "SELECT 1";
	return pq_do(st, q, NULL, NULL, "emptying the trash", e);
}

const struct history_ops pg_history_ops = {
	.pass_put = pgh_pass_put,
	.pass_list = pgh_pass_list,
	.task_tally = pgh_task_tally,
	.task_due = pgh_task_due,
	.run_counts = pgh_run_counts,
	.last_success = pgh_last_success,
	.budget_tasks = pgh_budget_tasks,
	.call_tokens = pgh_call_tokens,
	.pruned_totals = pgh_pruned_totals,
	.size = pgh_size,
	.prune_tasks = pgh_prune_tasks,
	.prune_bounds = pgh_prune_bounds,
	.prune_runs = pgh_prune_runs,
	.prune_contexts = pgh_prune_contexts,
	.prune_messages = pgh_prune_messages,
	.prune_loose_calls = pgh_prune_loose_calls,
	.vacuum = pgh_vacuum,
	.forget_trash = pgh_forget_trash,
};
