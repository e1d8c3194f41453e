#!/bin/sh
# The due and overdue tasks, counted from the due index (store_task_due)
# for task-status and task-web's overview: more overdue tasks than are
# listed (all counted, the first 100 listed), a task due within the grace
# (due, not overdue), a run asked for of a task not yet due (due), and a
# disabled task (neither).  Time moved with TASK_NOW.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"
export TASK_HOST_ID=alpha TASK_EXEC=true

test_expect_success 'setup: 105 tasks of 07:00, one of 07:04, one of tomorrow asked to run, one disabled' '
	i=0 &&
	while [ $i -lt 105 ]; do
		i=$((i + 1)) &&
		TASK_NOW=2026-11-24T06:00:00Z task-add --cron "0 7 * * *" --name "t$i" "Summarise $i" >/dev/null ||
		return 1
	done &&
	TASK_NOW=2026-11-24T06:00:00Z task-add --cron "4 7 * * *" --name late "Late" >/dev/null &&
	TASK_NOW=2026-11-24T06:00:00Z task-add --cron "0 7 * * *" --name held "Held" >/dev/null &&
	TASK_NOW=2026-11-24T06:00:00Z task-edit held --disable >/dev/null &&
	TASK_NOW=2026-11-24T06:00:00Z task-add --cron "0 9 25 * *" --name asked "Asked" >/dev/null &&
	TASK_NOW=2026-11-24T06:00:00Z task-run --queue asked >/dev/null
'

test_expect_success 'task-status counts all due and overdue, lists the first 100' '
	TASK_NOW=2026-11-24T07:04:30Z task-status --json >out &&
	grep -q "\"due\":107,\"overdue\":105," out &&
	tr "{" "\n" <out | grep -c "^\"id\":.*\"name\":\"t[0-9]*\"" >n &&
	echo 100 >expect &&
	test_cmp expect n
'

test_expect_success 'a task within its grace is due, not overdue; one disabled is neither' '
	TASK_NOW=2026-11-24T07:00:30Z task-status --json >out &&
	grep -q "\"due\":106,\"overdue\":0," out &&
	TASK_NOW=2026-11-24T07:05:30Z task-status --json >out &&
	grep -q "\"due\":107,\"overdue\":106," out
'

task-web --new-token ci >tok 2>/dev/null
TASK_NOW=2026-11-24T07:04:30Z web_start

test_expect_success 'the overview shows the overdue count, not the length of the list' '
	test -n "$url" &&
	curl -s --max-time 20 -o page -H "Authorization: Bearer $(cat tok)" -H "Accept: text/html" "$url/" &&
	grep -q "<tr><td>overdue</td><td class=\"failed\">105</td></tr>" page
'

web_stop
test_done
