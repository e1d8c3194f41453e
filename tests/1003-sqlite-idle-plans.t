#!/bin/sh
# An idle pass on SQLite walks no table of tasks: each statement it runs
# is planned on an index that finds its rows, or on a partial index that
# holds only the few tasks it is about (queued ones, ones that deliver).
# A walk of every live task (tasks_order, the table) cost a second a pass
# at a million tasks.  The plans are read by tests/tools/tick-plans,
# task-tick with its statements traced, so no timing is needed.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

# The plan lines that walk tasks other than through those partial indexes.
walks() {
	grep -E "^PLAN SCAN tasks( |$)" "$1" |
		grep -v -E "USING (COVERING )?INDEX (tasks_queued|tasks_deliver)( |$)"
}

test_expect_success 'an idle pass, with and without tasks that deliver, walks no table of tasks' '
	task-add --at 2026-11-23T09:00:00Z --name later "p" >/dev/null &&
	task-add --cron "0 8 * * *" --name daily "q" >/dev/null &&
	"$AC_BUILD/tools/tick-plans" >plans &&
	grep -q "^SQL .*FROM tasks .*deliver IS NOT NULL" plans &&
	! walks plans &&
	task-add --at 2026-11-23T10:00:00Z --deliver exec:true --name told "r" >/dev/null &&
	"$AC_BUILD/tools/tick-plans" >plans2 &&
	grep -q "^SQL .*FROM tasks .*deliver IS NOT NULL" plans2 &&
	! walks plans2
'

test_done
