#!/bin/sh
# An answer of a run that no pass of task-tick ended (task-run in the
# foreground) is delivered by the next pass all the same, a cron pass
# or a watcher's look, even in a store where nothing was delivered
# before: it waited until a pass ended a run of its own, for a manual
# task for ever.  So is that of a run whose ticker was killed (-9) once
# the run's end was recorded, before it started task-deliver, and that of
# a run by hand longer than the hour the pass's look reads back over.
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

# A run by hand longer than the hour an idle pass looks back over for
# runs no pass ended: its end notes itself (deliver_late_end), and the next
# pass delivers it.  Made so in the store first (the note as its end
# writes it), then for real on SQLite, on a clock that runs fast: on
# PostgreSQL a run's times follow the server's clock, which no shim moves.
test_expect_success 'a run by hand of three hours, its end noted, then a pass from cron: delivered' '
	reset_store && rm -f rcv/requests &&
	id=$(TASK_NOW=2026-11-23T06:30:00Z task-add --manual --exec "$PWD/job" --name long3 \
		--deliver @hook x) &&
	TASK_NOW=2026-11-23T06:31:00Z task-tick >/dev/null 2>err && test ! -s err &&
	TASK_NOW=2026-11-23T10:00:00Z task-run "$id" >/dev/null &&
	store_sql "UPDATE runs SET started_at = started_at - 3 * 3600" &&
	store_sql "INSERT INTO settings (key, value) SELECT '"'"'deliver_late_end'"'"', ended_at FROM runs" &&
	TASK_NOW=2026-11-23T10:01:00Z task-tick >/dev/null 2>err && test ! -s err &&
	store_sql "SELECT status, answer FROM receipts" >actual &&
	echo "delivered|HTTP 200" >expect && test_cmp expect actual
'

if test "$AC_STORE" = sqlite; then

# fast CMD...: CMD on a clock that runs an hour a second from base (all
# the processes given the same base agree on the time).
base=$(date +%s)
fast() {
	LD_PRELOAD=$AC_BUILD/tools/clock-offset.so CLOCK_SPEED=3600 CLOCK_BASE=$base \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 "$@"
}

test_expect_success 'a run of three hours on a clock running fast: its end noted, delivered' '
	reset_store && rm -f rcv/requests &&
	printf "#!/bin/sh\nsleep 3\necho \"three hours on\"\n" >long && chmod +x long &&
	id=$(fast task-add --manual --timeout 1d --exec "$PWD/long" --name long --deliver @hook x) &&
	fast task-run "$id" >out && echo "three hours on" >expect && test_cmp expect out &&
	store_sql "SELECT CASE WHEN ended_at - started_at >= 3 * 3600 THEN 1 ELSE 0 END FROM runs" >actual &&
	echo 1 >expect && test_cmp expect actual &&
	fast task-tick >/dev/null 2>err && test ! -s err &&
	store_sql "SELECT status, answer FROM receipts" >actual &&
	echo "delivered|HTTP 200" >expect && test_cmp expect actual &&
	check text webhook >actual && echo "three hours on" >expect && test_cmp expect actual
'

test_expect_success 'once delivered, the next passes start no delivery for it' '
	fast task-tick >/dev/null 2>err && test ! -s err &&
	store_sql "SELECT value FROM settings WHERE key = '"'"'deliver_cursor'"'"'" >cursor &&
	store_sql "SELECT value FROM settings WHERE key = '"'"'deliver_late_end'"'"'" >late &&
	test "$(cat cursor)" -ge "$(cat late)" &&
	store_sql "SELECT count(*) FROM receipts" >actual && echo 1 >expect && test_cmp expect actual
'


fi

test_done
