/* The PostgreSQL backend's inputs of chained and event runs
 * (store_chain.h; the table is the last step of store_pg.c's schema).
 * Binding is one UPDATE whose WHERE holds the whole condition: of two
 * hosts racing for an input, the second finds it taken. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"
#include "store_chain.h"

static const char *
or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static int
pgc_input_add(struct store *st, const struct run_input *in, int *added, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_INPUT_ADD);
	struct pq_params p = {.n = 0};
	pq_text(&p, in->id);
	pq_text(&p, in->task_id);
	pq_text(&p, input_kind_name(in->kind));
	pq_text(&p, in->key);
	pq_text(&p, or_null(in->upstream_run));
	pq_time(&p, in->slot);
	pq_text(&p, in->text);
	pq_int(&p, in->created_at);
	pq_text(&p, or_null(in->run_id));
	long n = 0;
	int rc = pq_do(st, q, &p, &n, "adding a run's input", e);
	if (!rc)
		*added = n > 0;
	return rc;
}

static int
pgc_input_find(struct store *st, int by, const char *task_id, const char *key,
    struct run_input *out, int *found, struct err *e)
{
	const char *qkey = store_sql(pq_sql(st), SQL_INPUT_BY_KEY);
	static const char qrun[] = "SELECT " INPUT_COLS " FROM run_inputs WHERE run_id = $1";
	static const char qnext[] = "SELECT " INPUT_COLS " FROM run_inputs WHERE task_id = $1"
	    " AND run_id IS NULL ORDER BY created_at, seq LIMIT 1";
	struct pq_params p = {.n = 0};
	const char *q = qnext;
	if (by == INPUT_BY_KEY) {
		q = qkey;
		pq_text(&p, task_id);
		pq_text(&p, key);
	} else if (by == INPUT_OF_RUN) {
		q = qrun;
		pq_text(&p, key);
	} else {
		pq_text(&p, task_id);
	}
	const struct pq_lib *pq = pq_of(st);
	PGresult *res;
	int rc = pq_exec(st, q, &p, &res, "reading a run's input", e);
	if (rc)
		return rc;
	if (pq->ntuples(res) > 0) {
		pq_get_copy(pq, res, 0, 0, out->id, sizeof out->id);
		pq_get_copy(pq, res, 0, 1, out->task_id, sizeof out->task_id);
		const char *k = pq->getvalue(res, 0, 2);
		out->kind = input_kind_parse(k);
		out->key = pq_get_text(pq, res, 0, 3);
		pq_get_copy(pq, res, 0, 4, out->upstream_run, sizeof out->upstream_run);
		out->slot = pq_get_time(pq, res, 0, 5);
		out->text = pq_get_text(pq, res, 0, 6);
		out->created_at = pq_get_time(pq, res, 0, 7);
		pq_get_copy(pq, res, 0, 8, out->run_id, sizeof out->run_id);
		*found = 1;
	}
	pq->clear(res);
	return ST_OK;
}

static int
pgc_input_bind(struct store *st, const char *id, const char *run_id, int *got, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_INPUT_BIND);
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	pq_text(&p, run_id);
	long n = 0;
	int rc = pq_do(st, q, &p, &n, "taking a run's input", e);
	if (!rc)
		*got = n > 0;
	return rc;
}

static int
pgc_followers(struct store *st, const char *upstream_id, follower_fn fn, void *arg,
    struct err *e)
{
	static const char q[] = "SELECT id, after_tasks, enabled FROM tasks WHERE after_tasks IS NOT NULL"
	    " AND deleted_at IS NULL AND strpos(after_tasks, $1) > 0 ORDER BY created_at, id";
	struct pq_params p = {.n = 0};
	pq_text(&p, upstream_id);
	const struct pq_lib *pq = pq_of(st);
	PGresult *res;
	int rc = pq_exec(st, q, &p, &res, "reading a task's followers", e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(res); i < n && !rc; i++) {
		char id[37];
		pq_get_copy(pq, res, i, 0, id, sizeof id);
		if (fn(id, pq->getvalue(res, i, 1), (int)pq_get_int(pq, res, i, 2), arg))
			rc = ST_ERR;
	}
	pq->clear(res);
	return rc;
}

static int
pgc_followed(struct store *st, int *any, struct err *e)
{
	static const char q[] = "SELECT EXISTS (SELECT 1 FROM tasks WHERE after_tasks IS NOT NULL"
	    " AND deleted_at IS NULL)::int";
	long long v;
	int rc = pq_ints(st, q, NULL, &v, 1, "looking for tasks that follow others", e);
	*any = rc || v != 0;
	return rc;
}

static int
pgc_lock(struct store *st, struct err *e)
{
	static const char lock[] = "SELECT pg_advisory_xact_lock(hashtext('agentcron chains'))";
	struct pq_params p = {.n = 0};
	return pq_do(st, lock, &p, NULL, "locking the chains", e);
}

static int
pgc_upstream(struct store *st, const char *id, struct chain_upstream *u, int *found,
    struct err *e)
{
	static const char q[] = "SELECT after_tasks, name, deleted_at IS NOT NULL FROM tasks"
	    " WHERE id = $1";
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	const struct pq_lib *pq = pq_of(st);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "reading a task's links", e);
	if (rc)
		return rc;
	if (pq->ntuples(r) > 0) {
		*found = 1;
		if (!pq->getisnull(r, 0, 0))
			u->after = xstrdup(pq->getvalue(r, 0, 0));
		if (!pq->getisnull(r, 0, 1))
			u->name = xstrdup(pq->getvalue(r, 0, 1));
		u->trashed = strcmp(pq->getvalue(r, 0, 2), "t") == 0;
	}
	pq->clear(r);
	return ST_OK;
}

const struct chain_ops pg_chain_ops = {
	.input_add = pgc_input_add,
	.input_find = pgc_input_find,
	.input_bind = pgc_input_bind,
	.followers = pgc_followers,
	.followed = pgc_followed,
	.lock = pgc_lock,
	.upstream = pgc_upstream,
};
