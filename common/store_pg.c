/* The PostgreSQL backend: one database that any number of hosts share.
 * This file is its table of operations.  A unit of work is a transaction
 * whose task reads lock their rows (FOR UPDATE); claims lock due rows with
 * SKIP LOCKED, so tickers on several hosts claim side by side.  Every
 * process that claims is a row in `processes` with a heartbeat on the
 * server's clock.  The connection, statements, transactions and wake-ups:
 * store_pg_conn.c; the schema: store_pg_schema.c; tasks and settings:
 * store_pg_tasks.c; runs, claims and conversations: store_pg_runs.c. */
#include "pg_uri.h"
#include "store_pg.h"

#define STORE_PG_OP_MS 60000      /* how long a statement may wait for the server unless told */

static const struct store_ops pg_ops = {
	.close = pg_close,
	.refresh = pg_refresh,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.task_find_twin = pg_task_find_twin,
	.task_insert = pg_task_insert,
	.task_prefix = pg_task_prefix,
	.task_get = pg_task_get,
	.task_look = pg_task_look,
	.task_put = pg_task_put,
	.task_list = pg_task_list,
	.task_count = pg_task_count,
	.task_trash = pg_task_trash,
	.trash_restore = pg_trash_restore,
	.trash_purge = pg_trash_purge,
	.task_queue = pg_task_queue,
	.setting_get = pg_setting_get,
	.setting_set = pg_setting_set,
	.run_list = pg_run_list,
	.run_prefix = pg_run_prefix,
	.owner_start = pg_owner_start,
	.owner_beat = pg_owner_beat,
	.owner_stop = pg_owner_stop,
	.owner_bury = pg_owner_bury,
	.claim_scan = pg_claim_scan,
	.run_insert = pg_run_insert,
	.run_finish = pg_run_finish,
	.tasks_put_many = pg_tasks_put_many,
	.runs_finish_many = pg_runs_finish_many,
	.runs_insert_many = pg_runs_insert_many,
	.run_note = pg_run_note,
	.run_gate = pg_run_gate,
	.due_next = pg_due_next,
	.run_claims = pg_run_claims,
	.wake = pg_wake,
	.wake_fd = pg_wake_fd,
	.wake_take = pg_wake_take,
	.history_load = pg_history_load,
	.history_add = pg_history_add,
	.history_clear = pg_history_clear,
	.call_add = pg_call_add,
	.call_list = pg_call_list,
	.call_spend = pg_call_spend,
	.spend_add = pg_spend_add,
	.spend_read = pg_spend_read,
	.reserve = pg_reserve,
	.run_cost = pg_run_cost,
	.call_usage = pg_call_usage,
	.durability = pg_durability,
	.async_standbys = pg_async_standbys,
	.idle_look = pg_idle_look,
	.idle_mark = pg_idle_mark,
	.history = &pg_history_ops,
	.web = &pg_web_ops,
	.audit = &pg_audit_ops,
	.deliver = &pg_deliver_ops,
	.chain = &pg_chain_ops,
};

/* Opened, unless a pass from cron (cron set; cfg the config file it read)
 * took the idle note first on the connection (*done): then no more is
 * asked. */
static int
pg_open(struct store *st, const char *uri, int cron, const char *cfg, int64_t now, int *done,
    struct err *e)
{
	char locator[2048];
	store_locator_of(uri, locator, sizeof locator);
	set_str(&st->name, locator);
	set_str(&st->locator, locator);
	if (!st->password)
		st->password = pg_uri_password(uri);
	st->ops = &pg_ops;
	int rc = pg_conn_open(st, uri, e);
	if (!rc && cron && (*done = pg_idle_take(st, cfg, now)))
		return ST_OK;
	if (!rc)
		rc = pg_migrate(st, e);
	/* A server that stops answering after login fails the statement
	 * (its connection cut) instead of holding the program forever;
	 * programs that know better set their own (store_deadline). */
	if (!rc && !st->op_ms)
		st->op_ms = STORE_PG_OP_MS;
	if (rc) {
		pg_close(st);
		st->ops = NULL;
	}
	return rc;
}

int
store_pg_open(struct store *st, const char *uri, struct err *e)
{
	int done = 0;
	return pg_open(st, uri, 0, NULL, 0, &done, e);
}

int
store_pg_open_pass(struct store *st, const char *uri, const char *cfg, int64_t now, int *done,
    struct err *e)
{
	return pg_open(st, uri, 1, cfg, now, done, e);
}
