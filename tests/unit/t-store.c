/* The store's hot queries must ride their indexes: a pass of task-tick, a
 * dedup check and a heartbeat lookup cost the same on a million tasks as on
 * ten.  This asks SQLite for the plan of every statement the store prepared
 * while doing that work, so an index that steals a plan fails here. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store_sqlite.h"
#include "tap.h"

/* A claim that only looks. */
static int
look(struct task *t, int last_attempt, struct run *r, int *decision, void *arg, struct err *e)
{
	(void)t, (void)last_attempt, (void)r, (void)e;
	(*(int *)arg)++;
	*decision = CLAIM_SKIP;
	return ST_OK;
}

static int
count_task(const struct task *t, void *arg)
{
	(void)t;
	(*(int *)arg)++;
	return 0;
}

/* The plan of sql as one line, "SEARCH tasks USING INDEX ...; ...". */
static void
plan_of(sqlite3 *db, const char *sql, struct buf *out)
{
	char *q = xasprintf("EXPLAIN QUERY PLAN %s", sql);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, q, -1, &s, NULL) == SQLITE_OK) {
		while (sqlite3_step(s) == SQLITE_ROW)
			buf_printf(out, "%s; ", (const char *)sqlite3_column_text(s, 3));
		sqlite3_finalize(s);
	}
	free(q);
}

/* 2,000 tasks, one in 50 a heartbeat, one in 7 completed. */
static void
fill(struct store *st, struct zones *zs, int64_t now)
{
	struct err e;
	check_int(store_begin(st, &e), ST_OK, "begin");
	for (int i = 0; i < 2000; i++) {
		struct task t;
		int dup;
		char dupid[37];
		task_init(&t);
		t.prompt = xasprintf("prompt %d", i);
		t.tz = xstrdup("UTC");
		t.kind = i % 50 == 0 ? KIND_HEARTBEAT : KIND_CRON;
		if (t.kind == KIND_CRON)
			t.cron = xasprintf("%d %d * * *", i % 60, i % 24);
		int rc = task_finalize(&t, 1, 1, now, zs, &e);
		if (i % 7 == 0) {
			t.status = STATUS_COMPLETED;
			t.next_run_at = t.due_at = TIME_NONE;
		}
		if (rc || store_task_add(st, &t, 1, &dup, dupid, &e)) {
			check(0, "add task %d: %s", i, e.msg);
			break;
		}
		task_free(&t);
	}
	check_int(store_commit(st, &e), ST_OK, "commit 2,000 tasks");
}

/* The work of a pass and of an add. */
static void
work(struct store *st, int64_t now)
{
	struct err e;
	struct claim_look lk;
	int n, seen_due = 0;
	check_int(store_claim_look(st, &lk, &e), ST_OK, "next due instant");
	struct owner self;
	check_int(owner_self(&self, &e), ST_OK, "this process as an owner");
	check_int(store_owner_start(st, &self, &e), ST_OK, "registered");
	struct due_cursor cur;
	due_cursor_init(&cur);
	struct claim_req q = {.what = CLAIM_DUE, .now = now + 86400, .cur = &cur, .max = 8};
	check_int(store_claim(st, &q, look, &seen_due, NULL, &n, &e), ST_OK, "scan due tasks");
	check_int(seen_due, 8, "a batch of due tasks");
	check_int(n, 0, "none fired");
	int beats = 0;
	struct task_filter hb;
	task_filter_init(&hb);
	hb.kinds = 1u << KIND_HEARTBEAT;
	hb.statuses = 1u << STATUS_PENDING;
	hb.enabled = 1;
	check_int(store_task_list(st, &hb, count_task, &beats, &e), ST_OK, "heartbeat tasks");
	check_int(beats, 34, "every pending, not completed, heartbeat task");
}

/* The plan of every statement the work prepared, and of those it does not
 * keep prepared. */
static void
check_plans(sqlite3 *db)
{
	static const struct { const char *needle, *index; } want[] = {
		{"dedup = ", "tasks_dedup"},
		{"ORDER BY due_at LIMIT 1", "tasks_due"},
		{"due_at <= ", "tasks_due"},
		{"idem_key = ", "tasks_key"},
	};
	int seen[sizeof want / sizeof want[0]] = {0};
	for (sqlite3_stmt *s = sqlite3_next_stmt(db, NULL); s; s = sqlite3_next_stmt(db, s)) {
		const char *sql = sqlite3_sql(s);
		for (size_t i = 0; sql && i < sizeof want / sizeof want[0]; i++) {
			if (!strstr(sql, want[i].needle) || strncmp(sql, "SELECT", 6))
				continue;
			struct buf plan = {0};
			plan_of(db, sql, &plan);
			check(plan.data && strstr(plan.data, want[i].index) && !strstr(plan.data, "TEMP B-TREE"),
			    "'%s' uses %s: %s", want[i].needle, want[i].index, plan.data ? plan.data : "");
			buf_free(&plan);
			seen[i] = 1;
		}
	}
	/* The key lookup is prepared only for tasks with a key, and listings
	 * are not kept prepared: ask for their plans as the store writes them. */
	static const char *const uncached[][2] = {
		{"SELECT id FROM tasks WHERE idem_key = 'k' AND deleted_at IS NULL", "tasks_key"},
		{"SELECT id FROM tasks WHERE deleted_at IS NULL AND status = 'pending' AND kind ="
		    " 'heartbeat' AND enabled = 1 ORDER BY ifnull(next_run_at, 9223372036854775807),"
		    " rowid", "tasks_heartbeat"},
	};
	for (size_t i = 0; i < 2; i++) {
		struct buf plan = {0};
		plan_of(db, uncached[i][0], &plan);
		check(plan.data && strstr(plan.data, uncached[i][1]) && !strstr(plan.data, "TEMP B-TREE"),
		    "uses %s: %s", uncached[i][1], plan.data ? plan.data : "");
		buf_free(&plan);
	}
	seen[3] = 1;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		check(seen[i], "a statement with '%s' was prepared", want[i].needle);
}

int
main(void)
{
	char dir[] = "/tmp/t-store.XXXXXX", path[64];
	struct store *st;
	struct err e;
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/tasks.db", dir);
	check_int(store_open(path, 0, &st, &e), ST_OK, "open a new store");
	struct zones *zs = zones_new();
	int64_t now = 1795341600;
	fill(st, zs, now);
	work(st, now);
	check_plans(sq_db(st));

	/* Filtered listings: few matches are found through an index, not a walk. */
	struct task_filter f;
	task_filter_init(&f);
	f.statuses = 1u << STATUS_COMPLETED;
	f.limit = 5;
	int listed = 0;
	check_int(store_task_list(st, &f, count_task, &listed, &e), ST_OK, "list completed tasks");
	check_int(listed, 5, "five completed tasks");

	/* The tasks an agent made (counted at each of its adds): through the
	 * index that holds only agents' tasks, none of the user's thousands. */
	task_filter_init(&f);
	f.origin = "agent:run:0123";
	struct row p;
	char *sql = store_sql_task_list(sq_sql(st)->d, &f, 1, &p);
	struct buf plan = {0};
	plan_of(sq_db(st), sql, &plan);
	check(plan.data && strstr(plan.data, "USING INDEX tasks_origin (origin=?)"),
	    "an agent's tasks are counted through tasks_origin: %s", plan.data ? plan.data : "");
	buf_free(&plan);
	row_free(&p);
	free(sql);

	zones_free(zs);
	store_close(st);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "%s/tasks.db", dir);
	unlink(cmd);
	snprintf(cmd, sizeof cmd, "%s/tasks.db-wake", dir);
	unlink(cmd);
	rmdir(dir);
	return tap_done();
}
