#!/bin/sh
# PostgreSQL: an import of many tasks brings the planner's statistics of
# tasks up to date when it commits, as autovacuum would a minute later (or
# never, where it is off, as on the suite's server).  Without them the
# planner takes the new tasks for a handful, and a pass that ran them
# right away walked every task at each run's end, looking for the few
# that follow it.  A small import leaves autovacuum to it.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z

# analyzed: when tasks' statistics were last taken ("" for never).
analyzed() {
	pg_sql "SELECT coalesce(last_analyze::text, '') FROM pg_stat_user_tables WHERE relname = 'tasks'"
}
analyzed_yet() {
	test -n "$(analyzed)"
}
# import N FROM: N one-shots at 07:00 named iFROM.. on standard input to task-add.
import() {
	awk -v n="$1" -v from="$2" 'BEGIN { for (i = from; i < from + n; i++)
		printf("{\"name\":\"i%d\",\"prompt\":\"p %d\",\"at\":\"2026-11-23T07:00:00Z\",\"exec\":\"true\"}\n", i, i) }' |
		task-add --json - >/dev/null
}

test_expect_success 'an import of 10 tasks leaves the statistics to autovacuum' '
	import 10 0 &&
	test "$(pg_sql "SELECT count(*) FROM tasks")" = 10 &&
	test -z "$(analyzed)"
'

test_expect_success 'an import of 1,200 tasks takes them at its commit' '
	import 1200 10 &&
	test "$(pg_sql "SELECT count(*) FROM tasks")" = 1210 &&
	test_until 10 analyzed_yet &&
	test "$(pg_sql "SELECT reltuples::int FROM pg_class WHERE relname = '\''tasks'\''")" = 1210
'

# The followers of a run's task, as store_pg_chain.c asks for them in the
# unit that records a run's end (store_pg_conn.c's settings of one).
test_expect_success 'the followers of a run are then read from their index alone' '
	pg_sql "BEGIN; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off;
		EXPLAIN SELECT id, after_tasks, enabled FROM tasks WHERE after_tasks IS NOT NULL
		AND deleted_at IS NULL AND strpos(after_tasks, '\''x'\'') > 0 ORDER BY created_at, id;
		ROLLBACK" >plan &&
	grep -q "Index Scan using tasks_after on tasks" plan
'

test_expect_success 'and a pass runs the 1,210, each once' '
	TASK_NOW=2026-11-23T07:00:05Z task-tick -j 8 >out 2>err &&
	test ! -s err &&
	test "$(pg_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 1210 &&
	test "$(pg_sql "SELECT count(DISTINCT task_id) FROM runs")" = 1210
'

test_done
