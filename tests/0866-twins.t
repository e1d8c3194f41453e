#!/bin/sh
# task-add and twins: a task that would run the same thing is refused
# (exit 4, nothing on stdout, nothing added) so a script is never handed
# another task's id; --if-missing asks for that id instead, exit 0; another
# name, executor, model or MCP servers make another task, added.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z
mkdir -p config/agentcron &&
printf '{"mcpServers":{"notes":{"command":"true"}}}\n' >config/agentcron/mcp.json || exit 1

a=$(task-add --daily 07:00 --name brief --exec true "Summarise the news") || exit 1

test_expect_success 'a twin is refused: exit 4, one line, nothing printed or added' '
	test_expect_code 4 task-add --daily 07:00 --name brief --exec true "Summarise the news" >out 2>err &&
	test_one_line err &&
	echo "task-add: task $a \"brief\" is the same, pending; not added (--if-missing prints its id instead, --force adds another)" >expect &&
	test_cmp expect err && test ! -s out &&
	test "$(task-ls | wc -l)" -eq 1
'

test_expect_success '--if-missing: the twin'\''s id, exit 0' '
	b=$(task-add --if-missing --daily 07:00 --name brief --exec true "Summarise the news" 2>err) &&
	test "$b" = "$a" && test_one_line err &&
	test "$(task-ls | wc -l)" -eq 1
'

test_expect_success 'another executor, name, model or MCP servers: another task' '
	c=$(task-add --daily 07:00 --name brief --exec "echo hi" "Summarise the news") &&
	d=$(task-add --daily 07:00 --name "brief 2" --exec true "Summarise the news") &&
	m=$(task-add --daily 07:00 --name brief --exec true --model gpt-4o "Summarise the news") &&
	n=$(task-add --daily 07:00 --name brief --exec true --mcp notes "Summarise the news") &&
	for x in "$c" "$d" "$m" "$n"; do test "$x" != "$a" || return 1; done &&
	test "$(task-ls | wc -l)" -eq 5
'

test_expect_success '--force adds a twin; the same --key still returns its task' '
	f=$(task-add --force --daily 07:00 --name brief --exec true "Summarise the news") &&
	test "$f" != "$a" &&
	k1=$(task-add --key retry-1 --manual --exec true "keyed") &&
	k2=$(task-add --key retry-1 --manual --exec true "keyed" 2>/dev/null) &&
	test "$k1" = "$k2"
'

test_done
