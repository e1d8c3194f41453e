/* The PostgreSQL backend's audit trail (store_audit.h; the table is a
 * step of store_pg.c's schema).  Every host appends to one chain: an
 * advisory lock held to the end of the unit makes appends one at a time. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"
#include "store_audit.h"

#define AUDIT_COLS "seq, at, actor, action, task_id, before, after, prev, hash"

static int
pga_last(struct store *st, int64_t *seq, char hash[65], struct err *e)
{
	static const char lock[] = "SELECT pg_advisory_xact_lock(hashtext('agentcron audit'))";
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	PGresult *r;
	*seq = 0;
	hash[0] = 0;
	int rc = pq_do(st, lock, &p, NULL, "locking the audit trail", e);
	if (!rc)
		rc = pq_exec(st, "SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1", &p, &r,
		    "reading the audit trail", e);
	if (rc)
		return rc;
	if (pq->ntuples(r) > 0) {
		*seq = (int64_t)pq_get_int(pq, r, 0, 0);
		pq_get_copy(pq, r, 0, 1, hash, 65);
	}
	pq->clear(r);
	return ST_OK;
}

static int
pga_append(struct store *st, const struct audit_entry *a, struct err *e)
{
	static const char q[] = "INSERT INTO audit (" AUDIT_COLS ")"
	    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
	struct pq_params p = {.n = 0};
	pq_int(&p, a->seq);
	pq_int(&p, a->at);
	pq_text(&p, a->actor);
	pq_text(&p, a->action);
	pq_text(&p, a->task_id[0] ? a->task_id : NULL);
	pq_text(&p, a->before);
	pq_text(&p, a->after);
	pq_text(&p, a->prev);
	pq_text(&p, a->hash);
	int rc = pq_do(st, q, &p, NULL, "adding to the audit trail", e);
	return rc;
}

struct list_arg {
	audit_fn fn;
	void *arg;
};

static int
entry_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct list_arg *la = arg;
	struct audit_entry a = {0};
	a.seq = (int64_t)pq_get_int(pq, r, row, 0);
	a.at = (int64_t)pq_get_int(pq, r, row, 1);
	a.actor = pq_get_text(pq, r, row, 2);
	pq_get_copy(pq, r, row, 3, a.action, sizeof a.action);
	pq_get_copy(pq, r, row, 4, a.task_id, sizeof a.task_id);
	a.before = pq_get_text(pq, r, row, 5);
	a.after = pq_get_text(pq, r, row, 6);
	pq_get_copy(pq, r, row, 7, a.prev, sizeof a.prev);
	pq_get_copy(pq, r, row, 8, a.hash, sizeof a.hash);
	int stop = la->fn(&a, la->arg);
	audit_entry_free(&a);
	return stop;
}

static int
pga_list(struct store *st, const char *task_id, int desc, int64_t from, long limit, audit_fn fn,
    void *arg, struct err *e)
{
	static const char qa[] = "SELECT " AUDIT_COLS " FROM audit WHERE ($1::text IS NULL"
	    " OR task_id = $1) AND seq >= $2 ORDER BY seq LIMIT $3::bigint";
	static const char qd[] = "SELECT " AUDIT_COLS " FROM audit WHERE ($1::text IS NULL"
	    " OR task_id = $1) AND seq >= $2 ORDER BY seq DESC LIMIT $3::bigint";
	struct pq_params p = {.n = 0};
	struct list_arg la = {fn, arg};
	pq_text(&p, task_id);
	pq_int(&p, from);
	if (limit > 0)
		pq_int(&p, limit);
	else
		pq_text(&p, NULL);
	int rc = pq_each_row(st, desc ? qd : qa, &p, limit, entry_row, &la, "reading the audit trail", e);
	return rc;
}

static int
pga_prune(struct store *st, int64_t upto, long *n, struct err *e)
{
	struct pq_params p = {.n = 0};
	pq_int(&p, upto);
	return pq_do(st, "DELETE FROM audit WHERE seq <= $1", &p, n, "pruning the audit trail", e);
}

const struct audit_ops pg_audit_ops = {
	.last = pga_last,
	.append = pga_append,
	.list = pga_list,
	.prune = pga_prune,
};
