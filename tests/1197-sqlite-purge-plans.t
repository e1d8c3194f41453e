#!/bin/sh
# Emptying the trash (task-rm --purge) finds the rows of the tasks it
# removes for good through indexes by task: their runs, model calls,
# inputs, trigger and events' keys; it reads no such table whole,
# however many rows other tasks keep there.  The plans, those of the
# statements that write included, are read by tests/tools/rm-plans
# (task-rm with its statements traced), so no timing is needed.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

# The plan lines that read one of those tables whole.
walks() {
	grep -E "^PLAN SCAN (runs|llm_calls|run_inputs|web_hook_events|web_hooks|receipts)( |$)" "$1"
}

kept=$(task-add --manual --exec cat --name kept x)
gone=$(task-add --manual --exec cat --name gone y)

test_expect_success 'a kept task with 2,000 events, a trashed one with an event and a trigger' '
	task-run --payload "{}" --key k1 --queue "$gone" &&
	task-tick >/dev/null &&
	task-web --trigger-token "$gone" >/dev/null 2>&1 &&
	task-web --trigger-token "$kept" >/dev/null 2>&1 &&
	store_sql "INSERT INTO run_inputs (id, task_id, kind, key, input, created_at)
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
		SELECT '\''i'\'' || i, '\''$kept'\'', '\''event'\'', '\''key:'\'' || i, '\''{}'\'', 0 FROM n" &&
	store_sql "INSERT OR IGNORE INTO web_hook_events (task_id, key, at)
		SELECT task_id, key, 0 FROM run_inputs" &&
	task-rm "$gone" 2>/dev/null
'

test_expect_success 'task-rm --purge: every row of the task found through an index' '
	"$AC_BUILD/tools/rm-plans" --purge >plans &&
	grep -A3 "^SQL DELETE FROM run_inputs WHERE task_id IN" plans >inputs &&
	grep -q "^PLAN SEARCH run_inputs USING .*INDEX .*(task_id=?)" inputs &&
	grep -A3 "^SQL DELETE FROM web_hook_events WHERE task_id IN" plans >events &&
	grep -q "^PLAN SEARCH web_hook_events USING .*INDEX .*(task_id=?)" events &&
	grep -A3 "^SQL DELETE FROM web_hooks WHERE task_id IN" plans >hooks &&
	grep -q "^PLAN SEARCH web_hooks USING .*INDEX .*(task_id=?)" hooks &&
	! walks plans &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 1 &&
	test "$(store_sql "SELECT count(*) FROM run_inputs WHERE task_id = '\''$gone'\''")" = 0 &&
	test "$(store_sql "SELECT count(*) FROM run_inputs")" = 2000
'

test_done
