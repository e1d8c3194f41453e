#!/bin/sh
# What an agent gives a task reaches its runs' environment (TASK_INTENT,
# TASK_PAYLOAD, TASK_ATTACHMENTS, ...), where one variable holds at most
# 128 KiB: a task made with a longer one could never start ("Argument list
# too long").  The tools refuse such sizes, on create and on update, and
# the store is as it was; what fits is taken and runs.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
# big FIELD N: a task_create call of a manual task "big-FIELD" whose FIELD
# is N bytes (strings) or holds N bytes (lists, the payload).
big() {
	python3 "$AC_TOP/tests/tools/sized-task" "$1" "$2" call
}

test_expect_success 'fields past what a run'\''s environment holds are refused' '
	for f in intent channel context model payload attachments fallback_models mcp_allow
	do
		big $f 200000 || return 1
	done >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	cat >expect <<-\EOF &&
	Intent is longer than 4096 bytes.
	Channel is longer than 4096 bytes.
	Context is longer than 4096 bytes.
	Model is longer than 4096 bytes.
	Payload is longer than 65536 bytes.
	Attachments is longer than 65536 bytes.
	fallback_models is longer than 65536 bytes.
	mcp_allow is longer than 65536 bytes.
	EOF
	test_cmp expect out &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0
'

test_expect_success 'task_update is held to the same sizes' '
	printf "%s\n" "{\"name\":\"task_create\",\"arguments\":{\"name\":\"small\",\"prompt\":\"p\",\"manual\":true}}" |
		task-mcp --call >out &&
	id=$(store_sql "SELECT id FROM tasks WHERE name = '\''small'\''") &&
	python3 -c "
import json, sys
print(json.dumps({\"name\": \"task_update\", \"arguments\": {\"id\": sys.argv[1], \"intent\": \"i\" * 5000}}))
print(json.dumps({\"name\": \"task_update\", \"arguments\": {\"id\": sys.argv[1], \"payload\": {\"x\": \"a\" * 70000}}}))
" "$id" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	cat >expect <<-\EOF &&
	Intent is longer than 4096 bytes.
	Payload is longer than 65536 bytes.
	EOF
	test_cmp expect out &&
	test "$(store_sql "SELECT coalesce(intent, '\''-'\''), coalesce(payload, '\''-'\'') FROM tasks")" = "-|-"
'

test_expect_success 'what fits is taken, and the task runs' '
	reset_store &&
	{
		big intent 4096 && big payload 60000 && big attachments 60000
	} >calls &&
	task-mcp --call <calls >out &&
	test "$(grep -c "^Created task" out)" = 3 &&
	for id in $(store_sql "SELECT id FROM tasks ORDER BY name")
	do
		task-edit "$id" --exec "printenv TASK_NAME" >/dev/null &&
		task-run "$id" || return 1
	done >out &&
	printf "big-attachments\nbig-intent\nbig-payload\n" >expect &&
	test_cmp expect out
'

test_done
