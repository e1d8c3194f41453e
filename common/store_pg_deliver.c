/* The PostgreSQL backend's delivery receipts (store_deliver.h; the table
 * is step 9 of store_pg.c's schema).  A claim is one UPDATE whose WHERE
 * holds the whole condition, so of two hosts racing for a receipt the
 * second finds it leased. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"
#include "store_deliver.h"

static const char *
or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static int
rows(struct store *st, const char *q, struct pq_params *p, receipt_fn fn, void *arg,
    const char *what, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	PGresult *res;
	int rc = pq_exec(st, q, p, &res, what, e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(res); i < n; i++) {
		struct receipt r;
		receipt_init(&r);
		pq_get_copy(pq, res, i, 0, r.id, sizeof r.id);
		pq_get_copy(pq, res, i, 1, r.run_id, sizeof r.run_id);
		pq_get_copy(pq, res, i, 2, r.task_id, sizeof r.task_id);
		r.target = pq_get_text(pq, res, i, 3);
		pq_get_copy(pq, res, i, 4, r.kind, sizeof r.kind);
		r.status = receipt_status_parse(pq->getvalue(res, i, 5));
		r.attempts = (int)pq_get_int(pq, res, i, 6);
		r.created_at = pq_get_time(pq, res, i, 7);
		r.next_at = pq_get_time(pq, res, i, 8);
		r.last_at = pq_get_time(pq, res, i, 9);
		r.answer = pq_get_text(pq, res, i, 10);
		r.error = pq_get_text(pq, res, i, 11);
		r.task_name = pq_get_text(pq, res, i, 12);
		r.parts_done = (int)pq_get_int(pq, res, i, 13);
		int stop = fn(&r, arg);
		receipt_free(&r);
		if (stop)
			break;
	}
	pq->clear(res);
	return ST_OK;
}

static int
pgd_add(struct store *st, const struct receipt *r, int *added, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_RECEIPT_ADD);
	struct pq_params p = {.n = 0};
	pq_text(&p, r->id);
	pq_text(&p, r->run_id);
	pq_text(&p, r->task_id);
	pq_text(&p, r->target);
	pq_text(&p, r->kind);
	pq_int(&p, r->created_at);
	pq_int(&p, r->next_at);
	long n = 0;
	int rc = pq_do(st, q, &p, &n, "adding a receipt", e);
	if (!rc)
		*added = n > 0;
	return rc;
}

static int
pgd_list(struct store *st, const struct receipt_filter *f, receipt_fn fn, void *arg, struct err *e)
{
	static const char q[] = "SELECT " RECEIPT_COLS RECEIPT_FROM " WHERE ($1::text IS NULL OR"
	    " r.status = $1) AND ($2::text IS NULL OR r.task_id = $2) AND ($3::text IS NULL OR"
	    " r.run_id = $3) ORDER BY r.created_at DESC, r.id LIMIT $4";
	struct pq_params p = {.n = 0};
	pq_text(&p, f->status >= 0 ? receipt_status_name(f->status) : NULL);
	pq_text(&p, or_null(f->task_id));
	pq_text(&p, or_null(f->run_id));
	if (f->limit > 0)
		pq_int(&p, f->limit);
	else
		pq_text(&p, NULL);
	return rows(st, q, &p, fn, arg, "reading receipts", e);
}

static int
pgd_due(struct store *st, int64_t now, long max, receipt_fn fn, void *arg, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_RECEIPT_DUE);
	struct pq_params p = {.n = 0};
	pq_int(&p, now);
	if (max > 0)
		pq_int(&p, max);
	else
		pq_text(&p, NULL);
	return rows(st, q, &p, fn, arg, "reading due receipts", e);
}

static int
pgd_claim(struct store *st, const char *id, const char *owner, int64_t now, int64_t lease_until,
    int *got, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_RECEIPT_CLAIM);
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	pq_text(&p, owner);
	pq_int(&p, now);
	pq_int(&p, lease_until);
	long n = 0;
	int rc = pq_do(st, q, &p, &n, "claiming a receipt", e);
	if (!rc)
		*got = n > 0;
	return rc;
}

static int
pgd_finish(struct store *st, const struct receipt *r, const char *owner, int *ours, struct err *e)
{
	const char *q = store_sql(pq_sql(st), SQL_RECEIPT_FINISH);
	struct pq_params p = {.n = 0};
	pq_text(&p, r->id);
	pq_text(&p, owner);
	pq_text(&p, receipt_status_name(r->status));
	pq_time(&p, r->next_at);
	pq_int(&p, r->last_at);
	pq_text(&p, r->answer);
	pq_text(&p, r->error);
	pq_int(&p, r->parts_done);
	long n = 0;
	int rc = pq_do(st, q, &p, &n, "recording a delivery", e);
	if (!rc)
		*ours = n > 0;
	return rc;
}

static int
pgd_progress(struct store *st, const char *id, const char *owner, int parts_done,
    int64_t lease_until, int *ours, struct err *e)
{
	static const char q[] = "UPDATE receipts SET parts_done = $3,"
	    " lease_until = GREATEST(lease_until, $4) WHERE id = $1 AND lease_owner = $2";
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	pq_text(&p, owner);
	pq_int(&p, parts_done);
	pq_int(&p, lease_until);
	long n = 0;
	int rc = pq_do(st, q, &p, &n, "recording a part delivered", e);
	if (!rc)
		*ours = n > 0;
	return rc;
}

static int
pgd_counts(struct store *st, int64_t since, void (*fn)(const char *kind, const char *status,
    long long n, void *arg), void *arg, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	const char *q = store_sql(pq_sql(st), SQL_RECEIPT_COUNTS);
	struct pq_params p = {.n = 0};
	pq_int(&p, since);
	PGresult *res;
	int rc = pq_exec(st, q, &p, &res, "counting receipts", e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(res); i < n; i++)
		fn(pq->getvalue(res, i, 0), pq->getvalue(res, i, 1), pq_get_int(pq, res, i, 2), arg);
	pq->clear(res);
	return ST_OK;
}

static int
pgd_fresh(struct store *st, int64_t now, int any, int *fresh, struct err *e)
{
	static const char q[] = "SELECT (EXISTS (SELECT 1 FROM runs r WHERE r.started_at >= c.at - $3"
	    " AND r.ended_at > c.at AND ($2::int <> 0 OR EXISTS (SELECT 1 FROM tasks t WHERE"
	    " t.id = r.task_id AND t.deliver IS NOT NULL AND t.deleted_at IS NULL)))"
	    " OR coalesce((SELECT value::bigint FROM settings WHERE key = '" DELIVER_LATE_END "'), 0)"
	    " > c.at)::int FROM (SELECT coalesce((SELECT value::bigint FROM settings WHERE key = '"
	    DELIVER_CURSOR "'), $1::bigint - $4) AS at) c";
	struct pq_params p = {.n = 0};
	pq_int(&p, now);
	pq_int(&p, any != 0);
	pq_int(&p, DELIVER_FRESH_SPAN);
	pq_int(&p, DELIVER_FIRST_LOOK);
	long long v[1];
	int rc = pq_ints(st, q, &p, v, 1, "looking for runs to deliver", e);
	if (!rc)
		*fresh = v[0] != 0;
	return rc;
}

static int
pgd_ended(struct store *st, int64_t since, const char *long_ids, int (*fn)(const char *id,
    int64_t ended_at, void *arg), void *arg, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* Those started within RUN_SPAN through runs_started, and those
	 * named in long (the runs in flight for longer a pass saw before). */
	static const char q[] = "SELECT id, ended_at FROM runs WHERE started_at >= $1::bigint - $2"
	    " AND ended_at >= $1 AND status <> 'running' UNION SELECT id, ended_at FROM runs"
	    " WHERE id IN (SELECT json_array_elements_text($3::json)) AND ended_at IS NOT NULL"
	    " AND status <> 'running' ORDER BY 2, 1";
	struct pq_params p = {.n = 0};
	pq_int(&p, since);
	pq_int(&p, DELIVER_RUN_SPAN);
	pq_text(&p, long_ids);
	PGresult *res;
	int rc = pq_exec(st, q, &p, &res, "reading the runs that ended", e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(res); i < n; i++)
		if (fn(pq->getvalue(res, i, 0), pq_get_int(pq, res, i, 1), arg))
			break;
	pq->clear(res);
	return ST_OK;
}

static int
pgd_running(struct store *st, int64_t before, int (*fn)(const char *id, void *arg), void *arg,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* Through the few tasks with a run in flight (tasks_in_flight). */
	static const char q[] = "SELECT id FROM runs WHERE id IN (SELECT run_in_flight FROM tasks"
	    " WHERE run_in_flight IS NOT NULL) AND status = 'running' AND started_at < $1";
	struct pq_params p = {.n = 0};
	pq_int(&p, before);
	PGresult *res;
	int rc = pq_exec(st, q, &p, &res, "reading the runs in flight", e);
	if (rc)
		return rc;
	for (int i = 0, n = pq->ntuples(res); i < n; i++)
		if (fn(pq->getvalue(res, i, 0), arg))
			break;
	pq->clear(res);
	return ST_OK;
}

static int
pgd_work(struct store *st, int64_t now, int any, int *due, int *targets, int *fresh,
    struct err *e)
{
	char *next, *some;
	/* Read with the pass's record (store_pg_history.c): the earliest
	 * pending receipt, due when it is not after now. */
	if (pq_ahead_take2(st, "receipt_next", &next, "deliver_targets", &some)) {
		*due = next && strtoll(next, NULL, 10) <= now;
		*targets = some && strcmp(some, "1") == 0;
		free(next);
		free(some);
		return *due || !(*targets || any) ? ST_OK : pgd_fresh(st, now, any, fresh, e);
	}
	static const char q[] = "SELECT EXISTS (SELECT 1 FROM receipts WHERE status = 'pending'"
	    " AND next_at <= $1)::int, EXISTS (SELECT 1 FROM tasks WHERE deliver IS NOT NULL"
	    " AND deleted_at IS NULL)::int";
	struct pq_params p = {.n = 0};
	pq_int(&p, now);
	long long v[2];
	int rc = pq_ints(st, q, &p, v, 2, "looking for deliveries", e);
	if (rc)
		return rc;
	*due = v[0] != 0;
	*targets = v[1] != 0;
	return *due || !(*targets || any) ? ST_OK : pgd_fresh(st, now, any, fresh, e);
}

const struct deliver_ops pg_deliver_ops = {
	.add = pgd_add, .list = pgd_list, .due = pgd_due, .claim = pgd_claim, .finish = pgd_finish,
	.progress = pgd_progress, .counts = pgd_counts, .work = pgd_work, .ended = pgd_ended, .running = pgd_running,
};
