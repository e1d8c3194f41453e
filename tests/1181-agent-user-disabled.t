#!/bin/sh
# A person's stop stands: a task the user disabled (task-edit --disable,
# task-web's pause) or cancelled (task-rm --cancel) last is not enabled or
# scheduled again by an agent's task_update or a profile's update tool,
# which say so in one line; a task an agent disabled itself an agent may
# enable again.  Who did it is the audit trail's.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"
unset TASK_MCP TASK_MCP_ALLOW TASK_RUN_ID TASK_SCOPE
TASK_NOW=2026-11-23T06:00:00Z
export TASK_NOW

# call TOOL ARGS: one call through task-mcp (both profiles), its text in out.
call() {
	printf '{"name":"%s","arguments":%s}\n' "$1" "$2" |
		task-mcp --profile native,oneclaw --call >out
}

enabled() {
	store_sql "SELECT enabled FROM tasks WHERE name = 'T'"
}

refused() {
	echo "Refused: task 'T' was $1 by the user; only they can $2." >expect &&
	test_cmp expect out
}

test_expect_success 'setup: a task an agent made' '
	call task_create "{\"name\":\"T\",\"prompt\":\"p\",\"every\":\"1h\"}" &&
	id=$(store_sql "SELECT id FROM tasks WHERE name = '\''T'\''") &&
	test -n "$id" && echo "$id" >id
'

test_expect_success 'disabled by an agent: an agent enables it again' '
	call task_update "{\"id\":\"T\",\"enabled\":false}" && grep -q "updated" out &&
	test "$(enabled)" = 0 &&
	call task_update "{\"id\":\"T\",\"enabled\":true}" && grep -q "updated" out &&
	test "$(enabled)" = 1
'

test_expect_success 'disabled by the user: task_update may not enable it, and changes nothing' '
	task-edit --disable T >/dev/null &&
	store_dump | grep -v "restrict " >before &&
	test_expect_code 2 call task_update "{\"id\":\"T\",\"enabled\":true}" &&
	refused disabled "enable it" &&
	store_dump | grep -v "restrict " >after && test_cmp before after
'

test_expect_success 'nor the profile update tool' '
	test_expect_code 2 call update_scheduled_task "{\"task_id\":\"$(cat id)\",\"enabled\":true}" &&
	refused disabled "enable it" &&
	test "$(enabled)" = 0
'

test_expect_success 'the agent may still change the rest: it stays disabled' '
	call task_update "{\"id\":\"T\",\"prompt\":\"q\"}" && grep -q "updated" out &&
	test "$(enabled)" = 0
'

test_expect_success 'enabled by the user, disabled by an agent: the agent enables it' '
	task-edit --enable T >/dev/null &&
	call task_update "{\"id\":\"T\",\"enabled\":false}" &&
	call task_update "{\"id\":\"T\",\"enabled\":true}" && grep -q "updated" out &&
	test "$(enabled)" = 1
'

test_expect_success 'paused on task-web by a token: no agent enables it' '
	task-web --new-token ops >tok 2>/dev/null &&
	web_start &&
	test "$(req_as "$(cat tok)" body -X POST --data-urlencode "reason=too noisy" \
		"$url/tasks/$(cat id)/pause")" = 200 &&
	test "$(enabled)" = 0 &&
	test_expect_code 2 call task_update "{\"id\":\"T\",\"enabled\":true}" &&
	refused disabled "enable it" &&
	test "$(enabled)" = 0 &&
	task-edit --enable T >/dev/null
'

test_expect_success 'cancelled by the user: no new schedule from an agent' '
	task-rm --cancel T >/dev/null &&
	test_expect_code 2 call task_update "{\"id\":\"T\",\"every\":\"2h\"}" &&
	refused cancelled "schedule it again" &&
	test "$(store_sql "SELECT status FROM tasks WHERE name = '\''T'\''")" = cancelled
'

test_done
