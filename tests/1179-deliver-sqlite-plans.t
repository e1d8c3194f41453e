#!/bin/sh
# A delivery pass finds the runs that ended since the last through the
# index of their starts (runs_started), and the runs in flight for longer
# than a day through the tasks with one (tasks_in_flight): it reads no
# table of runs whole, however many a store keeps.
# The plans are read by tests/tools/deliver-plans (task-deliver with its
# statements traced), so no timing is needed.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z
now=$(date -u -d 2026-11-23T07:00:00Z +%s)

# The plan lines that read the runs whole.
walks() { grep -E "^PLAN SCAN (r|runs)( |$)" "$1"; }

test_expect_success 'a store of 60,000 runs over 60 days, a task that delivers' '
	id=$(task-add --manual --exec true --deliver exec:true --name told x) &&
	store_sql "INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at)
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
		SELECT '\''r'\'' || n.i, '\''$id'\'', NULL, '\''manual'\'', '\''success'\'',
		$now - 86400 * 60 + 86 * n.i - 3, $now - 86400 * 60 + 86 * n.i FROM n" &&
	store_sql "INSERT INTO settings (key, value) VALUES ('\''deliver_cursor'\'', $now)" &&
	test "$(store_sql "SELECT count(*) FROM runs")" = 60000
'

test_expect_success 'task-deliver: the runs that ended, the runs in flight, through indexes' '
	"$AC_BUILD/tools/deliver-plans" >plans &&
	grep -A6 "^SQL SELECT id, ended_at FROM runs WHERE started_at >= " plans >ended &&
	grep -q "^PLAN .*USING INDEX runs_started" ended &&
	grep -A4 "^SQL SELECT id FROM runs WHERE id IN (SELECT run_in_flight" plans >long &&
	grep -q "^PLAN .*tasks_in_flight" long &&
	! walks plans
'

test_done
