#!/bin/sh
# An answer of a run that no pass of task-tick ended (task-run in the
# foreground) is delivered by the next pass all the same, a cron pass
# or a watcher's look, even in a store where nothing was delivered
# before: it waited until a pass ended a run of its own, for a manual
# task for ever.  So is that of a run whose ticker was killed (-9) once
# the run's end was recorded, before it started task-deliver.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "by hand"\n' >job && chmod +x job || exit 1
delivered() {
	test "$(store_sql "SELECT count(*) FROM receipts WHERE status = 'delivered'")" = "$1"
}

test_expect_success 'task-run in the foreground, then a pass from cron: delivered' '
	reset_store &&
	id=$(TASK_NOW=2026-11-23T06:30:00Z task-add --manual --exec "$PWD/job" --name byhand \
		--deliver @hook x) && echo "$id" >id &&
	TASK_NOW=2026-11-23T06:31:00Z task-tick >/dev/null 2>err && test ! -s err &&
	TASK_NOW=2026-11-23T10:00:00Z task-run "$id" >out && echo "by hand" >expect && test_cmp expect out &&
	TASK_NOW=2026-11-23T10:01:00Z task-tick >/dev/null 2>err && test ! -s err &&
	store_sql "SELECT status, answer FROM receipts" >actual &&
	echo "delivered|HTTP 200" >expect && test_cmp expect actual &&
	check text webhook >actual && echo "by hand" >expect && test_cmp expect actual
'

test_expect_success 'a second task-run, then a watcher: delivered within its look' '
	rm -f rcv/requests &&
	TASK_NOW=2026-11-23T11:00:00Z task-run "$(cat id)" >out &&
	TASK_NOW=2026-11-23T11:01:00Z tick_watch && test_when_finished tick_stop &&
	test_until 30 delivered 2
'

test_expect_success 'a task without targets run by hand starts no delivery' '
	reset_store && rm -f rcv/requests &&
	id=$(TASK_NOW=2026-11-23T06:30:00Z task-add --manual --exec "$PWD/job" --name quiet x) &&
	TASK_NOW=2026-11-23T10:00:00Z task-run "$id" >/dev/null &&
	TASK_NOW=2026-11-23T10:01:00Z task-tick >/dev/null 2>err && test ! -s err &&
	store_sql "SELECT count(*) FROM settings WHERE key = '"'"'deliver_cursor'"'"'" >actual &&
	echo 0 >expect && test_cmp expect actual
'

# crashed_after_end N: a fresh store, a task with a target due at 07:00,
# and a pass killed at its Nth commit: true when that left the run ended
# with no receipt.  The sanitizers' runtime is not first in a preloaded
# process: told not to mind.
crashed_after_end() {
	reset_store && rm -f rcv/requests &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --name crashed \
		--deliver @hook x >/dev/null &&
	{ TASK_NOW=2026-11-23T07:00:00Z LD_PRELOAD=$AC_BUILD/tools/crash.so CRASH_AT=$1 \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		task-tick >/dev/null 2>&1; test $? -eq 137; } &&
	test "$(store_sql "SELECT status FROM runs")" = success &&
	test "$(store_sql "SELECT count(*) FROM receipts")" = 0
}

test_expect_success 'a ticker killed after the run ended, before delivery: the next pass delivers' '
	n=1 && until crashed_after_end $n; do
		n=$((n + 1)) && test $n -le 12 || return 1
	done &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick >/dev/null 2>err && test ! -s err &&
	store_sql "SELECT status, answer FROM receipts" >actual &&
	echo "delivered|HTTP 200" >expect && test_cmp expect actual
'

test_done
