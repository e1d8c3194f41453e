#!/bin/sh
# Enabling a task again computes its next run from now, from the command
# line as from the agent tools: an occurrence that went by while it was
# disabled is not a missed run to fire at once.
. "$AC_TOP/tests/lib.sh"

# fired: the runs task-log knows of, as "trigger slot".
fired() {
	task-log --limit 0 | cut -f5,6
}

test_expect_success 'task-edit --enable: the next occurrence from now, and nothing fires now' '
	id=$(TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --exec true --disabled brief) &&
	TASK_NOW=2026-11-24T08:00:00Z task-edit "$id" --enable >out &&
	cat >expect <<-\EOF &&
	enabled: false -> true
	next run: 2026-11-25 07:00 UTC
	EOF
	test_cmp expect out &&
	TASK_NOW=2026-11-24T08:00:30Z task-tick >out &&
	test ! -s out && fired >actual && test ! -s actual &&
	TASK_NOW=2026-11-25T07:00:30Z task-tick >/dev/null &&
	fired >actual &&
	printf "schedule\t2026-11-25T07:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a task never disabled still catches up on what it missed (missed=once)' '
	reset_store &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --exec true brief >/dev/null &&
	TASK_NOW=2026-11-24T08:00:30Z task-tick >/dev/null &&
	fired >actual &&
	printf "catchup\t2026-11-24T07:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'enabling an enabled task changes nothing' '
	reset_store &&
	id=$(TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --exec true brief) &&
	TASK_NOW=2026-11-24T08:00:00Z test_expect_code 0 task-edit "$id" --enable >out 2>err &&
	test ! -s out &&
	echo "task-edit: task '\''$id'\'': nothing changed" >expect && test_cmp expect err
'

test_expect_success 'the native task_update tool does the same' '
	reset_store &&
	id=$(TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --exec true --disabled brief) &&
	mkdir -p config/agentcron &&
	echo "agent_edit = all" >config/agentcron/config &&
	echo "{\"name\":\"task_update\",\"arguments\":{\"id\":\"$id\",\"enabled\":true}}" |
		TASK_NOW=2026-11-24T08:00:00Z task-mcp --call >/dev/null &&
	task-ls --json | sed "s/.*\"next_run_at\":\([^,]*\),.*/\1/" >actual &&
	echo "\"2026-11-25T07:00:00Z\"" >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-24T08:00:30Z task-tick >out &&
	test ! -s out
'

test_done
