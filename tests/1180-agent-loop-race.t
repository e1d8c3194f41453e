#!/bin/sh
# An agent's task_update that sets `after` and a person's task-edit --after
# at once, each closing half of a loop (A after B, B after A): the tool's
# loop check and its write are one step, as task-edit's are, so at most
# one of them is made, round after round.
. "$AC_TOP/tests/lib.sh"
unset TASK_MCP TASK_MCP_ALLOW TASK_RUN_ID TASK_SCOPE

mcp_call() {
	printf '{"name":"%s","arguments":%s}\n' "$1" "$2" | task-mcp --call
}

test_expect_success 'setup: two tasks an agent made' '
	mcp_call task_create "{\"name\":\"A\",\"prompt\":\"a\",\"manual\":true}" >out &&
	mcp_call task_create "{\"name\":\"B\",\"prompt\":\"b\",\"manual\":true}" >>out &&
	test "$(store_sql "SELECT count(*) FROM tasks WHERE origin LIKE '\''agent:%'\''")" = 2
'

test_expect_success 'each alone sets its link' '
	mcp_call task_update "{\"id\":\"A\",\"after\":[\"B\"]}" >out &&
	grep -q "updated" out &&
	test "$(links)" = 1 &&
	store_sql "UPDATE tasks SET after_tasks = NULL" >/dev/null
'

test_expect_success 'a scoped agent follows only the tasks of its scope' '
	task-add --manual --scope other --name Other o >/dev/null &&
	task-add --manual --scope s --name Mine m >/dev/null &&
	echo "{\"name\":\"task_create\",\"arguments\":{\"name\":\"S\",\"prompt\":\"s\",\"manual\":true}}" |
		task-mcp --scope s --call >out &&
	echo "{\"name\":\"task_update\",\"arguments\":{\"id\":\"S\",\"after\":[\"Other\"]}}" |
		test_expect_code 2 task-mcp --scope s --call >out &&
	grep -q "^after: no task " out &&
	echo "{\"name\":\"task_update\",\"arguments\":{\"id\":\"S\",\"after\":[\"Mine\"]}}" |
		task-mcp --scope s --call >out &&
	grep -q "updated" out &&
	test "$(links)" = 1 &&
	task-rm Other Mine S >/dev/null &&
	store_sql "UPDATE tasks SET after_tasks = NULL" >/dev/null
'

# a_after_b_tool, b_after_a: the agent's half of the loop and the
# person's; judged: the tool call answered, and whichever came second was
# refused, saying it would make a loop.
a_after_b_tool() {
	mcp_call task_update "{\"id\":\"A\",\"after\":[\"B\"]}"
}
b_after_a() {
	task-edit --after A B
}
judged() {
	test -s out1 && ! test -s err1 &&
	if grep -q "updated" out1; then
		test "$r1" = 0 && test "$r2" != 0 &&
		grep -q "^task-edit: after: that would make a loop: " err2
	else
		test "$r1" != 0 && test "$r2" = 0 && ! test -s err2 &&
		grep -q "that would make a loop" out1
	fi
}

test_expect_success '40 rounds of a tool call and an edit at once: never a loop' '
	loop_race a_after_b_tool b_after_a judged
'

test_done
