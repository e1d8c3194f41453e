#!/bin/sh
# An answer of a run that no pass of task-tick ended (task-run in the
# foreground) is delivered by the next pass all the same, a cron pass
# or a watcher's look, even in a store where nothing was delivered
# before: it waited until a pass ended a run of its own, for a manual
# task for ever.  So is that of a run whose ticker was killed (-9) once
# the run's end was recorded, before it started task-deliver, and that of
# a run by hand longer than the hour the pass's look reads back over, or
# than the day a delivery pass reads back over while others' runs move
# its cursor on.
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

# A run by hand longer than the day a delivery pass reads back over, while
# the runs of an hourly task move the pass's cursor on past that day: a
# pass that sees it in flight so long keeps its id (deliver_long_runs),
# and the pass after its end delivers it.  On a clock ten hours a second
# fast: the run takes some forty hours, each pass runs the hourly task.
base10=$(date +%s)
faster() {
	LD_PRELOAD=$AC_BUILD/tools/clock-offset.so CLOCK_SPEED=36000 CLOCK_BASE=$base10 \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 "$@"
}
# How far the cursor is past the start of task $1's run, and whether the
# long runs kept name it (1).
cursor_and_long() {
	store_sql "SELECT (SELECT value FROM settings WHERE key = 'deliver_cursor') - r.started_at,
		coalesce((SELECT value FROM settings WHERE key = 'deliver_long_runs'), '') LIKE '%' || r.id || '%'
		FROM runs r WHERE r.task_id = '$1'"
}

test_expect_success 'a run by hand of forty hours, the cursor moved past its first day: delivered' '
	reset_store && rm -f rcv/requests && : >seen &&
	printf "#!/bin/sh\nsleep 4\necho \"forty hours on\"\n" >long40 && chmod +x long40 &&
	id=$(faster task-add --manual --timeout 3d --exec "$PWD/long40" --name long40 --deliver @hook x) &&
	faster task-add --cron "0 * * * *" --exec "$PWD/job" --name hourly --deliver @hook y >/dev/null &&
	{ faster task-run "$id" >out40 & } && pid=$! &&
	while kill -0 $pid 2>/dev/null; do
		faster task-tick >/dev/null 2>>err && cursor_and_long "$id" >>seen && sleep 0.2 || return 1
	done &&
	wait $pid && echo "forty hours on" >expect && test_cmp expect out40 &&
	awk -F"|" "\$1 > 86400 + 300 && \$2 == 1 { n++ } END { exit !n }" seen &&
	faster task-tick >/dev/null 2>>err && test ! -s err &&
	store_sql "SELECT r.status FROM receipts r JOIN runs u ON u.id = r.run_id WHERE u.task_id = '"'"'$id'"'"'" >actual &&
	echo delivered >expect && test_cmp expect actual &&
	grep -c "forty hours on" rcv/requests >actual && echo 1 >expect && test_cmp expect actual
'

fi

test_done
