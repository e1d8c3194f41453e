/* task-web's tokens in a PostgreSQL store (store_web.h): every host
 * serving the store accepts the same ones. */
#include <stdlib.h>

#include "store_pg.h"
#include "store_web.h"

static int
pg_token_add(struct store *st, const struct web_token *t, struct err *e)
{
	struct pq_params p = {.n = 0};
	pq_text(&p, t->name);
	pq_text(&p, t->hash);
	pq_int(&p, t->read_only);
	pq_int(&p, t->created_at);
	return pq_do(st, store_sql(pq_sql(st), SQL_WEB_TOKEN_ADD), &p, NULL, "adding a token", e);
}

static int
pg_token_del(struct store *st, const char *name, int *found, struct err *e)
{
	struct pq_params p = {.n = 0};
	long rows = 0;
	pq_text(&p, name);
	int rc = pq_do(st, store_sql(pq_sql(st), SQL_WEB_TOKEN_DEL), &p, &rows, "revoking a token",
	    e);
	*found = !rc && rows > 0;
	return rc;
}

struct list_arg {
	web_token_fn fn;
	void *arg;
};

static int
token_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct list_arg *la = arg;
	struct web_token t;
	pq_get_copy(pq, r, row, 0, t.name, sizeof t.name);
	pq_get_copy(pq, r, row, 1, t.hash, sizeof t.hash);
	t.read_only = (int)pq_get_int(pq, r, row, 2);
	t.created_at = (int64_t)pq_get_int(pq, r, row, 3);
	return la->fn(&t, la->arg);
}

static int
pg_token_list(struct store *st, web_token_fn fn, void *arg, struct err *e)
{
	struct list_arg la = {fn, arg};
	return pq_each_row(st, store_sql(pq_sql(st), SQL_WEB_TOKEN_LIST), NULL, 1000, token_row, &la, "reading the tokens", e);
}

static int
pg_hook_set(struct store *st, const char *task_id, const char *token_hash, const char *secret,
    int64_t now, struct err *e)
{
	static const char q[] = "INSERT INTO web_hooks (task_id, token_hash, secret, created_at)"
	    " VALUES ($1, $2, $3, $4) ON CONFLICT (task_id) DO UPDATE SET"
	    " token_hash = coalesce(excluded.token_hash, web_hooks.token_hash),"
	    " secret = coalesce(excluded.secret, web_hooks.secret)";
	struct pq_params p = {.n = 0};
	pq_text(&p, task_id);
	pq_text(&p, token_hash);
	pq_text(&p, secret);
	pq_int(&p, now);
	return pq_do(st, q, &p, NULL, "setting a trigger", e);
}

static int
pg_hook_get(struct store *st, const char *task_id, struct web_hook *h, int *found, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	PGresult *r;
	pq_text(&p, task_id);
	int rc = pq_exec(st, store_sql(pq_sql(st), SQL_WEB_HOOK_GET), &p, &r,
	    "reading a trigger", e);
	if (rc)
		return rc;
	if ((*found = pq->ntuples(r) > 0)) {
		pq_get_copy(pq, r, 0, 0, h->token_hash, sizeof h->token_hash);
		pq_get_copy(pq, r, 0, 1, h->secret, sizeof h->secret);
	}
	pq->clear(r);
	return ST_OK;
}

static int
pg_hook_event(struct store *st, const char *task_id, const char *key, const char *body_sha256,
    int64_t now, struct err *e)
{
	struct pq_params p = {.n = 0};
	pq_text(&p, task_id);
	pq_text(&p, key);
	pq_int(&p, now);
	pq_text(&p, body_sha256);
	pq_text(&p, WEB_HOOK_RAW_SHA);
	long rows = 0;
	int rc = pq_do(st, store_sql(pq_sql(st), SQL_WEB_HOOK_EVENT), &p, &rows,
	    "recording an event", e);
	return rc ? rc : rows ? ST_OK : ST_REFUSED;
}

static int
pg_hook_find(struct store *st, const char *task_id, const char *key, const char *body_sha256,
    int *found, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	PGresult *r;
	pq_text(&p, task_id);
	pq_text(&p, key);
	pq_text(&p, body_sha256);
	int rc = pq_exec(st, store_sql(pq_sql(st), SQL_WEB_HOOK_FIND), &p, &r,
	    "looking up an event", e);
	if (rc)
		return rc;
	*found = pq->ntuples(r) > 0;
	pq->clear(r);
	return ST_OK;
}

static int
pg_hook_prune(struct store *st, int64_t before, long limit, long *n, struct err *e)
{
	struct pq_params p = {.n = 0};
	pq_int(&p, before);
	pq_int(&p, limit);
	*n = 0;
	return pq_do(st, store_sql(pq_sql(st), SQL_WEB_HOOK_PRUNE), &p, n,
	    "forgetting old event keys", e);
}

struct herd_arg {
	web_herd_fn fn;
	void *arg;
};

static int
herd_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct herd_arg *ha = arg;
	struct task t;
	task_init(&t);
	char *kind = pq_get_text(pq, r, row, 0);
	t.kind = kind ? task_kind_parse(kind) : -1;
	free(kind);
	t.cron = pq_get_text(pq, r, row, 1);
	t.tz = pq_get_text(pq, r, row, 2);
	t.every = pq->getisnull(r, row, 3) ? -1 : (int)pq_get_int(pq, r, row, 3);
	t.anchor = pq_get_time(pq, r, row, 4);
	t.not_before = pq_get_time(pq, r, row, 5);
	t.ends_at = pq_get_time(pq, r, row, 6);
	t.next_run_at = pq_get_time(pq, r, row, 7);
	int stop = ha->fn(&t, (long)pq_get_int(pq, r, row, 8), ha->arg);
	task_free(&t);
	return stop;
}

static int
pg_herd(struct store *st, int64_t until, web_herd_fn fn, void *arg, struct err *e)
{
	struct herd_arg ha = {fn, arg};
	struct pq_params p = {.n = 0};
	pq_int(&p, until);
	return pq_each_row(st, WEB_HERD_SQL("$1"), &p, 0, herd_row, &ha, "reading the next day's fires",
	    e);
}

static const struct sql_dialect *
pg_dialect(struct store *st)
{
	return pq_sql(st)->d;
}

static int
pg_keyset(struct store *st, char *sql, const struct row *r, struct web_keyset *k, long *n,
    int *found, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	pq_bind(&p, r);
	PGresult *res;
	/* The planner reckons the keyset's range holds a third of the tasks
	 * and would rather read and sort them all than walk the ordering
	 * index for a few thousand; with those plans priced out, their cost
	 * would call in the JIT compiler (hundreds of ms). */
	int own = !st->depth, rc = own ? pq_simple(st, "BEGIN; SET LOCAL enable_bitmapscan = off;"
	    " SET LOCAL enable_seqscan = off; SET LOCAL jit = off", "walking the tasks", e) : ST_OK;
	if (!rc)
		rc = pq_exec_dynamic(st, sql, &p, &res, "walking the tasks", e);
	free(sql);
	if (!rc) {
		if ((*found = pq->ntuples(res) > 0)) {
			k->key = (int64_t)pq_get_int(pq, res, 0, 0);
			k->seq = (int64_t)pq_get_int(pq, res, 0, 1);
			*n = (long)pq_get_int(pq, res, 0, 2);
		}
		pq->clear(res);
	}
	if (own && !rc)
		rc = pq_simple(st, "COMMIT", "walking the tasks", e);
	else if (own)
		pq_abort(st);
	return rc;
}

struct tasks_arg {
	task_fn fn;
	void *arg;
	struct web_keyset *last;
	long *given;
};

static int
task_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct tasks_arg *ta = arg;
	int ncols = task_read_ncols();
	struct task t;
	task_read(&t, pq_cell, &(struct pq_row){pq, r, row});
	if (ta->last) {
		ta->last->key = (int64_t)pq_get_int(pq, r, row, ncols);
		ta->last->seq = (int64_t)pq_get_int(pq, r, row, ncols + 1);
	}
	++*ta->given;
	int stop = ta->fn(&t, ta->arg);
	task_free(&t);
	return stop;
}

/* The rows of sql in one answer: planned for as many as its LIMIT, where
 * a cursor is planned to give its first rows soonest. */
static int
pg_tasks(struct store *st, char *sql, const struct row *r, long limit, task_fn fn, void *arg,
    struct web_keyset *last, long *given, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	pq_bind(&p, r);
	struct tasks_arg ta = {fn, arg, last, given};
	PGresult *res;
	*given = 0;
	int rc = pq_exec_dynamic(st, sql, &p, &res, "listing tasks", e);
	free(sql);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(res); i < n && (limit <= 0 || i < limit); i++)
		if (task_row(pq, res, i, &ta))
			break;
	pq->clear(res);
	return ST_OK;
}

static int
pg_task_page(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	struct row r;
	long given;
	/* Without the keyset columns: no last one to say. */
	int rc = pg_tasks(st, store_sql_task_list(pq_sql(st)->d, f, 0, &r), &r, f->limit, fn, arg,
	    NULL, &given, e);
	row_free(&r);
	return rc;
}

const struct web_store_ops pg_web_ops = {
	.token_add = pg_token_add,
	.token_del = pg_token_del,
	.token_list = pg_token_list,
	.hook_set = pg_hook_set,
	.hook_get = pg_hook_get,
	.hook_event = pg_hook_event,
	.hook_find = pg_hook_find,
	.hook_prune = pg_hook_prune,
	.herd = pg_herd,
	.dialect = pg_dialect,
	.keyset = pg_keyset,
	.tasks = pg_tasks,
	.task_page = pg_task_page,
};
