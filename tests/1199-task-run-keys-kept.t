#!/bin/sh
# task-run --payload --key: the event's key outlives the run it started,
# as task-web's do (1195).  Once that run and its input are pruned (keep),
# the same key within hook_keep (default 7 days), queued or run now, is
# still a duplicate and starts nothing; past hook_keep it is forgotten and
# fires again.
. "$AC_TOP/tests/lib.sh"

keep_a_day_from 2026-11-23T07:00:00Z || exit 1

id=$(task-add --manual --name hook --exec cat "handle it") || exit 1
short=$(printf %.8s "$id")

test_expect_success 'one event queued and one run now, each with its key' '
	task-run --queue --payload "{\"n\":1}" --key ev-1 hook >out &&
	echo "$id" >expect && test_cmp expect out &&
	task-tick >/dev/null &&
	task-run --payload "{\"n\":2}" --key ev-2 hook >out &&
	printf "handle it\n\n{\"n\":2}" >expect && test_cmp expect out &&
	task-log --task hook | cut -f5,7 >actual &&
	printf "event\tsuccess\nevent\tsuccess\n" >expect && test_cmp expect actual &&
	store_sql "SELECT key FROM web_hook_events ORDER BY key" >actual &&
	printf "key:ev-1\nkey:ev-2\n" >expect && test_cmp expect actual
'

test_expect_success 'their runs pruned by a pass two days on (keep = 1d; the newest 20 stay)' '
	filler_runs "$id" 25 $((now + 3600)) &&
	TASK_NOW=$(rfc3339 $((now + 2 * 86400))) task-tick >/dev/null &&
	test "$(rows_in runs)" = 20 && test "$(rows_in run_inputs)" = 0 &&
	test "$(rows_in web_hook_events)" = 2
'

test_expect_success 'the same keys again, queued or now: duplicates, nothing run' '
	export TASK_NOW=$(rfc3339 $((now + 2 * 86400 + 60))) &&
	echo "task-run: task $short: event '\''ev-1'\'' was delivered before (its run is no longer kept, its key is: hook_keep); nothing run" >expect &&
	task-run --queue --payload "{\"n\":1}" --key ev-1 hook >out 2>err &&
	test_cmp expect err && test ! -s out &&
	sed "s/ev-1/ev-2/" expect >expect2 &&
	task-run --payload "{\"n\":2}" --key ev-2 hook >out 2>err &&
	test_cmp expect2 err && test ! -s out &&
	task-run --json --payload "{\"n\":2}" --key ev-2 hook >out 2>/dev/null &&
	echo "{\"task_id\":\"$id\",\"key\":\"ev-2\",\"run_id\":null,\"duplicate\":true}" >expect &&
	test_cmp expect out &&
	task-tick >/dev/null &&
	test "$(rows_in runs)" = 20 && test "$(rows_in run_inputs)" = 0 &&
	test "$(store_sql "SELECT queued FROM tasks")" = 0
'

test_expect_success 'past hook_keep the keys are forgotten: the same key fires again' '
	TASK_NOW=$(rfc3339 $((now + 7 * 86400 - 1))) task-log --prune >/dev/null &&
	test "$(rows_in web_hook_events)" = 2 &&
	TASK_NOW=$(rfc3339 $((now + 7 * 86400 + 1))) task-log --prune >/dev/null &&
	test "$(rows_in web_hook_events)" = 0 &&
	TASK_NOW=$(rfc3339 $((now + 7 * 86400 + 2))) task-run --payload "{\"n\":3}" --key ev-2 hook >out &&
	printf "handle it\n\n{\"n\":3}" >expect && test_cmp expect out &&
	store_sql "SELECT key FROM web_hook_events" >actual &&
	echo key:ev-2 >expect && test_cmp expect actual
'

test_done
