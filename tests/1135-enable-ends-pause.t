#!/bin/sh
# A task paused for its failures and enabled again, by whichever door, is
# paused no more: its reason goes and its failures count from nothing, so
# it is paused again after as many.  An agent's tool (OneClaw's
# update_scheduled_task with "enabled": true) set the flag alone: the task
# read "pending (paused)" while it ran, and never paused again.
. "$AC_TOP/tests/lib.sh"
test_config 'agent_edit = all' || exit 1

# paused_at HOURS...: passes at each hour of 2026-11-30.
passes() {
	for h in "$@"; do
		TASK_NOW=2026-11-30T$h:00:00Z task-tick >/dev/null 2>>tick.err || return 1
	done
}

# state: status, failures and the pause's reason of the task.
state() {
	TASK_NOW=2026-11-30T$1:00:30Z task-show --json fail | python3 -c '
import json, sys
t = json.load(sys.stdin)
print(t["status"], t["enabled"], t["consecutive_failures"], t.get("paused"))'
}

test_expect_success 'paused after 2 failures' '
	TASK_NOW=2026-11-30T06:30:00Z task-add --cron "0 * * * *" --retries 0 --pause-after 2 \
		--name fail --exec false x >id &&
	passes 07 08 &&
	state 08 >actual &&
	echo "pending False 2 paused after 2 failures in a row: exited with status 1" >expect &&
	test_cmp expect actual
'

test_expect_success 'enabled by an agent tool: no longer paused, failures from 0' '
	printf "%s\n" "{\"name\":\"update_scheduled_task\",\"arguments\":{\"task_id\":\"$(cat id)\",\"enabled\":true}}" |
		TASK_NOW=2026-11-30T08:30:00Z task-mcp -p oneclaw --call >out &&
	grep -q "updated successfully" out &&
	state 08 >actual &&
	echo "pending True 0 None" >expect &&
	test_cmp expect actual
'

test_expect_success 'and paused again after 2 more failures, not later' '
	passes 09 &&
	state 09 >actual &&
	echo "pending True 1 None" >expect &&
	test_cmp expect actual &&
	passes 10 &&
	state 10 >actual &&
	echo "pending False 2 paused after 2 failures in a row: exited with status 1" >expect &&
	test_cmp expect actual &&
	passes 11 &&
	state 11 >actual &&
	test_cmp expect actual
'

test_expect_success 'enabled by task-edit --enable: the same' '
	TASK_NOW=2026-11-30T11:30:00Z task-edit fail --enable >/dev/null &&
	state 11 >actual &&
	echo "pending True 0 None" >expect &&
	test_cmp expect actual
'

test_done
