#!/bin/sh
# A task's status reads the same on its page, on the tasks page and in
# task-show: "(paused)" for a pause with a reason, "(disabled)" for a task
# only disabled (the task's page said "paused" of every disabled task).
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

on=$(task-add --manual --name on "p")
off=$(task-add --manual --name off "p")
held=$(task-add --manual --name held "p")
task-edit --disable "$off" >/dev/null
tok=$(task-web --new-token me 2>/dev/null)
web_start

test_expect_success 'the pause of held, with a reason, through the API' '
	test "$(req_as "$tok" out -d reason=audit "$url/tasks/$held/pause")" = 200
'

test_expect_success 'each status as task-show says it, on the task page and the tasks page' '
	for id in $on $off $held; do
		task-show "$id" | sed -n "s/^status: *//p" >>expect || return 1
	done &&
	cat >want <<-\EOF &&
	pending
	pending (disabled)
	pending (paused)
	EOF
	test_cmp want expect &&
	for id in $on $off $held; do
		test "$(req_as "$tok" page "$url/tasks/$id")" = 200 &&
		sed -n "s|^<tr><th>status</th><td class=\"[a-z]*\">\(.*\)</td></tr>\$|\1|p" page >>task-page ||
		return 1
	done &&
	test_cmp expect task-page &&
	test "$(req_as "$tok" page "$url/tasks?sort=name")" = 200 &&
	sed -n "s|.*\">\([a-z]*\)</a></td><td class=\"[a-z]*\">\([^<]*\)</td>.*|\1 \2|p" page >tasks-page &&
	cat >expect <<-\EOF &&
	held pending (paused)
	off pending (disabled)
	on pending
	EOF
	test_cmp expect tasks-page
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
