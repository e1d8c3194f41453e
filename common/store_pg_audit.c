/* The PostgreSQL backend's audit trail (store_audit.h; the table is a
 * step of store_pg_schema.c's schema).  Every host appends to one chain: an
 * advisory lock held to the end of the unit makes appends one at a time. */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"
#include "store_audit.h"

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
		rc = pq_exec(st, store_sql(pq_sql(st), SQL_AUDIT_LAST), &p, &r,
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
	struct pq_params p = {.n = 0};
	struct row r = {.n = 0};
	store_audit_row(&r, a);
	pq_bind(&p, &r);
	int rc = pq_do(st, store_sql(pq_sql(st), SQL_AUDIT_APPEND), &p, NULL,
	    "adding to the audit trail", e);
	row_free(&r);
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
	struct audit_entry a;
	store_audit_read(&a, pq_cell, &(struct pq_row){pq, r, row});
	int stop = la->fn(&a, la->arg);
	audit_entry_free(&a);
	return stop;
}

static int
pga_list(struct store *st, const char *task_id, int desc, int64_t from, long limit, audit_fn fn,
    void *arg, struct err *e)
{
	static const char qa[] = "SELECT " STORE_SQL_AUDIT_COLS " FROM audit WHERE ($1::text IS NULL"
	    " OR task_id = $1) AND seq >= $2 ORDER BY seq LIMIT $3::bigint";
	static const char qd[] = "SELECT " STORE_SQL_AUDIT_COLS " FROM audit WHERE ($1::text IS NULL"
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
	return pq_do(st, store_sql(pq_sql(st), SQL_AUDIT_PRUNE), &p, n, "pruning the audit trail", e);
}

const struct audit_ops pg_audit_ops = {
	.last = pga_last,
	.append = pga_append,
	.list = pga_list,
	.prune = pga_prune,
};
