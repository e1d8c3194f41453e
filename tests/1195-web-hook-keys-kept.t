#!/bin/sh
# task-web's POST /hooks/TASK: an event's key outlives the run it started.
# Once that run and its input are pruned (keep), a redelivery of the key
# within hook_keep (default 7 days) still gets its 200 "duplicate" and
# starts nothing; pruning forgets keys older than hook_keep, with a body
# or without one, and a bad hook_keep is refused.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

keep_a_day_from 2026-11-23T07:00:00Z || exit 1

hooked_task || exit 1

web_start

test_expect_success 'an event with a body and one without: each queued, then run' '
	test "$(hook -H "X-GitHub-Delivery: d-1" --data-binary "{\"n\":1}")" = 202 &&
	task-tick >/dev/null &&
	test "$(hook -H "Idempotency-Key: b-1")" = 202 &&
	task-tick >/dev/null &&
	test "$(queued)" = 0 &&
	test "$(store_sql "SELECT trigger FROM runs ORDER BY trigger")" = "$(printf "event\nmanual")"
'

test_expect_success 'their runs pruned two days on (keep = 1d; the newest 20 stay), inputs with them' '
	filler_runs "$id" 25 $((now + 3600)) &&
	TASK_NOW=$(rfc3339 $((now + 2 * 86400))) task-log --prune >/dev/null &&
	test "$(rows_in runs)" = 20 && test "$(rows_in run_inputs)" = 0 &&
	test "$(rows_in web_hook_events)" = 2
'

test_expect_success 'a redelivery of either: 200 duplicate, nothing queued' '
	echo "{\"task\":\"$id\",\"duplicate\":true}" >expect &&
	test "$(hook -H "X-GitHub-Delivery: d-1" --data-binary "{\"n\":1}")" = 200 &&
	test_cmp expect body &&
	test "$(hook -H "Idempotency-Key: b-1")" = 200 &&
	test_cmp expect body &&
	test "$(queued)" = 0 && test "$(rows_in run_inputs)" = 0
'

test_expect_success 'past hook_keep the keys are forgotten: a redelivery is a new event' '
	TASK_NOW=$(date -u -d @$((now + 7 * 86400 - 1)) +%Y-%m-%dT%H:%M:%SZ) task-log --prune >/dev/null &&
	test "$(rows_in web_hook_events)" = 2 &&
	TASK_NOW=$(date -u -d @$((now + 7 * 86400 + 1)) +%Y-%m-%dT%H:%M:%SZ) task-log --prune >/dev/null &&
	test "$(rows_in web_hook_events)" = 0 &&
	test "$(hook -H "X-GitHub-Delivery: d-1" --data-binary "{\"n\":1}")" = 202 &&
	test "$(queued)" = 1 && test "$(rows_in run_inputs)" = 1
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_expect_success 'hook_keep: a duration or forever; anything else refused' '
	echo "hook_keep = 500" >>config/agentcron/config &&
	test_expect_code 2 task-log --prune 2>err &&
	echo "task-log: $PWD/config/agentcron/config: bad hook_keep '\''500'\'': expected a duration like 7d, 12h or 2w, or forever" >expect &&
	test_cmp expect err &&
	sed -i "s/^hook_keep = .*/hook_keep = forever/" config/agentcron/config &&
	TASK_NOW=$(date -u -d @$((now + 30 * 86400)) +%Y-%m-%dT%H:%M:%SZ) task-log --prune >/dev/null &&
	test "$(rows_in web_hook_events)" = 1
'

test_done
