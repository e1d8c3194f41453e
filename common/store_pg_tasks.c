/* The PostgreSQL backend's tasks, settings and owners (the processes
 * that claim, each a row with a heartbeat on the server's clock). */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"

int
pg_task_find_twin(struct store *st, const struct task *t, int *found, char id[37], struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char lock[] = "SELECT pg_advisory_xact_lock(hashtext($1))";
	char dedup[17], *which;
	struct pq_params p = {.n = 0};
	PGresult *r;
	*found = 0;
	task_dedup_key(t, dedup);
	/* Two hosts adding the same task at once: one of them finds the other's. */
	which = t->key ? xasprintf("key:%s", t->key) : xasprintf("dedup:%s", dedup);
	pq_text(&p, which);
	int rc = pq_do(st, lock, &p, NULL, "looking for a twin", e);
	free(which);
	if (rc)
		return rc;
	pq_text(&p, t->key ? t->key : dedup);
	if ((rc = pq_exec(st, store_sql(pq_sql(st), t->key ? SQL_TASK_BY_KEY : SQL_TASK_BY_DEDUP), &p,
	    &r, "looking for a twin", e)))
		return rc;
	if (pq->ntuples(r)) {
		*found = 1;
		pq_get_copy(pq, r, 0, 0, id, 37);
	}
	pq->clear(r);
	return ST_OK;
}

/* A task inserted or updated (row_task); *rows written. */
static int
task_write(struct store *st, const struct task *t, int update, long *rows, const char *what,
    struct err *e)
{
	struct pq_params p = {.n = 0};
	struct row r;
	row_task(&r, t, update);
	pq_bind(&p, &r);
	int rc = pq_do(st, store_sql(pq_sql(st), update ? SQL_TASK_UPDATE : SQL_TASK_INSERT), &p,
	    rows, what, e);
	row_free(&r);
	return rc;
}

int
pg_task_insert(struct store *st, const struct task *t, struct err *e)
{
	int rc = task_write(st, t, 0, NULL, "adding a task", e);
	if (!rc)
		pq_tasks_added(st, 1);
	return rc;
}

int
pg_task_put(struct store *st, const struct task *t, struct err *e)
{
	long rows = 0;
	int rc = task_write(st, t, 1, &rows, "updating a task", e);
	return !rc && rows == 0 ? ST_NOTFOUND : rc;
}

int
pg_task_prefix(struct store *st, const struct id_range *ids, int trashed, char (*found)[37],
    int max, int *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* The ids are C-collated: a prefix is a range whatever the database's
	 * collation. */
	struct pq_params p = {.n = 0};
	pq_text(&p, ids->from);
	pq_text(&p, ids->to);
	pq_int(&p, trashed);
	pq_int(&p, max);
	PGresult *r;
	int rc = pq_exec(st, store_sql(pq_sql(st), SQL_TASK_PREFIX), &p, &r, "looking up a task",
	    e);
	if (rc)
		return rc;
	*n = pq->ntuples(r) < max ? pq->ntuples(r) : max;
	for (int i = 0; i < *n; i++)
		pq_get_copy(pq, r, i, 0, found[i], 37);
	pq->clear(r);
	return ST_OK;
}

/* Task id, its row locked (hold) in a unit. */
static int
task_row(struct store *st, const char *id, int hold, struct task *t, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	PGresult *r;
	const char *q = store_sql(pq_sql(st), hold && st->depth ? SQL_TASK_GET_LOCK : SQL_TASK_GET);
	int rc = pq_exec(st, q, &p, &r, "reading a task", e);
	if (rc)
		return rc;
	if (!pq->ntuples(r)) {
		pq->clear(r);
		return ST_NOTFOUND;
	}
	task_read(t, pq_cell, &(struct pq_row){pq, r, 0});
	pq->clear(r);
	return ST_OK;
}

int
pg_task_get(struct store *st, const char *id, struct task *t, struct err *e)
{
	return task_row(st, id, 1, t, e);
}

int
pg_task_look(struct store *st, const char *id, struct task *t, struct err *e)
{
	return task_row(st, id, 0, t, e);
}

struct list_ctx {
	task_fn fn;
	void *arg;
};

static int
list_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct list_ctx *c = arg;
	struct task t;
	task_read(&t, pq_cell, &(struct pq_row){pq, r, row});
	int stop = c->fn(&t, c->arg);
	task_free(&t);
	return stop;
}

int
pg_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	struct pq_params p = {.n = 0};
	struct row r;
	char *q = store_sql_task_list(pq_sql(st)->d, f, 0, &r);
	pq_bind(&p, &r);
	struct list_ctx c = {fn, arg};
	int rc = pq_each_row(st, q, &p, f->limit, list_row, &c, "listing tasks", e);
	free(q);
	row_free(&r);
	return rc;
}

int
pg_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	struct row row;
	static const char lock[] = "SELECT pg_advisory_xact_lock(hashtext('agentcron task quota'))";
	if (f->serialize) {
		int rc = pq_do(st, lock, &p, NULL, "counting tasks", e);
		if (rc)
			return rc;
	}
	char *q = store_sql_task_list(pq_sql(st)->d, f, 1, &row);
	pq_bind(&p, &row);
	PGresult *r;
	int rc = pq_exec_dynamic(st, q, &p, &r, "counting tasks", e);
	free(q);
	row_free(&row);
	if (!rc) {
		*n = (long)pq_get_int(pq, r, 0, 0);
		pq->clear(r);
	}
	return rc;
}

/* An update of task id by one of its instants (now): an SQL_*. */
static int
task_stamp(struct store *st, int which, const char *id, int64_t now, const char *what,
    struct err *e)
{
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	pq_int(&p, now);
	long rows = 0;
	int rc = pq_do(st, store_sql(pq_sql(st), which), &p, &rows, what, e);
	return !rc && rows == 0 ? ST_NOTFOUND : rc;
}

int
pg_task_trash(struct store *st, const char *id, int64_t now, struct err *e)
{
	return task_stamp(st, SQL_TASK_TRASH, id, now, "deleting a task", e);
}

int
pg_trash_restore(struct store *st, const char *id, char restored[37], struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	if (id)
		pq_text(&p, id);
	PGresult *r;
	int rc = pq_exec(st, store_sql(pq_sql(st), id ? SQL_TASK_RESTORE : SQL_TASK_RESTORE_LAST), &p,
	    &r, "restoring a task", e);
	if (rc)
		return rc;
	int found = pq->ntuples(r) > 0;
	if (found)
		pq_get_copy(pq, r, 0, 0, restored, 37);
	pq->clear(r);
	return found ? ST_OK : ST_NOTFOUND;
}

int
pg_trash_purge(struct store *st, long *n, struct err *e)
{
	return pq_do(st, store_sql(pq_sql(st), SQL_TRASH_PURGE), NULL, n, "emptying the trash", e);
}

int
pg_task_queue(struct store *st, const char *id, int64_t now, struct err *e)
{
	return task_stamp(st, SQL_TASK_QUEUE, id, now, "queueing a run", e);
}

int
pg_setting_get(struct store *st, const char *key, char **value, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	char ahead[64];
	snprintf(ahead, sizeof ahead, "setting:%s", key);
	if (pq_ahead_take(st, ahead, value))
		return ST_OK;
	struct pq_params p = {.n = 0};
	pq_text(&p, key);
	PGresult *r;
	int rc = pq_exec(st, store_sql(pq_sql(st), SQL_SETTING_GET), &p, &r, "reading a setting", e);
	if (rc)
		return rc;
	if (pq->ntuples(r))
		*value = pq_get_text(pq, r, 0, 0);
	pq->clear(r);
	return ST_OK;
}

int
pg_setting_set(struct store *st, const char *key, const char *value, struct err *e)
{
	struct pq_params p = {.n = 0};
	pq_text(&p, key);
	if (value)
		pq_text(&p, value);
	return pq_do(st, store_sql(pq_sql(st), value ? SQL_SETTING_SET : SQL_SETTING_DEL), &p, NULL,
	    "writing a setting", e);
}

/* ---- owners ---- */

int
pg_owner_start(struct store *st, struct err *e)
{
	static const char q[] = "INSERT INTO processes (id, host, node, pid, start) VALUES ($1, $2,"
	    " $3, $4, $5)";
	/* Long-gone processes: nothing refers to them once their runs ended. */
	static const char qold[] = "DELETE FROM processes WHERE beat_at < clock_timestamp() -"
	    " interval '7 days' AND NOT EXISTS (SELECT 1 FROM runs WHERE " STORE_SQL_IN_FLIGHT
	    " AND runs.owner_id = processes.id)";
	struct pq_params p = {.n = 0};
	const struct owner *o = &st->self;
	pq_text(&p, o->id);
	pq_text(&p, o->host);
	pq_text(&p, o->node);
	pq_int(&p, o->pid);
	pq_int(&p, o->start);
	int rc = pq_do(st, q, &p, NULL, "registering this process", e);
	return rc ? rc : pq_do(st, qold, NULL, NULL, "forgetting old processes", e);
}

int
pg_owner_beat(struct store *st, int *alive, struct err *e)
{
	static const char q[] = "UPDATE processes SET beat_at = clock_timestamp() WHERE id = $1"
	    " AND NOT dead";
	struct pq_params p = {.n = 0};
	long rows = 0;
	pq_text(&p, st->self.id);
	int rc = pq_do(st, q, &p, &rows, "showing this process is alive", e);
	*alive = rows > 0;
	return rc;
}

void
pg_owner_stop(struct store *st)
{
	static const char q[] = "DELETE FROM processes WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM"
	    " runs WHERE " STORE_SQL_IN_FLIGHT " AND runs.owner_id = $1)";
	struct pq_params p = {.n = 0};
	struct err e;
	if (st->depth || !pq_connected(st))
		return;
	pq_text(&p, st->self.id);
	pq_do(st, q, &p, NULL, "leaving", &e);
}

int
pg_owner_bury(struct store *st, const char *owner_id, int64_t stale_after, int *dead, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* Gone from the table counts as dead; a sign of life since does not. */
	static const char q[] = "WITH buried AS (UPDATE processes SET dead = true WHERE id = $1 AND"
	    " beat_at < clock_timestamp() - make_interval(secs => $2) RETURNING 1)"
	    " SELECT EXISTS (SELECT 1 FROM buried) OR NOT EXISTS (SELECT 1 FROM processes WHERE id = $1)";
	struct pq_params p = {.n = 0};
	pq_text(&p, owner_id);
	pq_int(&p, stale_after);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "declaring a silent process dead", e);
	if (rc)
		return rc;
	*dead = strcmp(pq->getvalue(r, 0, 0), "t") == 0;
	pq->clear(r);
	return ST_OK;
}

