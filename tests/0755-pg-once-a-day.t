#!/bin/sh
# What task-tick says about the store itself (a clock off from the
# server's, a server that may lose what it acknowledged) it says once a day
# on a host, not at every pass: under cron that was a mail a minute.
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB
db=$(pg_db_of "$TASK_DB")
state=$HOME/.local/state/agentcron
skewed() {
	CLOCK_OFFSET=-3600 LD_PRELOAD=$AC_BUILD/tools/clock-offset.so \
		ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 "$@"
}

test_expect_success 'a clock an hour off: said at the first pass of the day, not at the next' '
	skewed task-tick >out 2>err &&
	echo "task-tick: this machine'\''s clock is 3600.X s behind the store'\''s ($TASK_DB); firing follows the store'\''s" >expect &&
	sed "s/3600\.[0-9]/3600.X/" err >actual && test_cmp expect actual &&
	skewed task-tick >out 2>err && test ! -s err &&
	TASK_HOST_ID=other skewed task-tick >out 2>err &&
	sed "s/3600\.[0-9]/3600.X/" err >actual && test_cmp expect actual
'

# Another day is the stamps made older: the idle pass's note, which holds
# within a UTC day (task-tick(1)), goes too, as at a day's first pass.
test_expect_success 'the stamps: private, one line, the day; another day says it again' '
	test "$(stat -c %a "$state")" = 700 &&
	for f in "$state"/said-clock-skew-*; do
		test "$(stat -c %a "$f")" = 600 &&
		echo "$(date -u -d "-3600 sec" +%Y-%m-%d)" >expect && test_cmp expect "$f" || return 1
	done &&
	for f in "$state"/said-clock-skew-*; do echo 2000-01-01 >"$f" || return 1; done &&
	rm -f "$state"/idle-* &&
	skewed task-tick >out 2>err && grep -q "clock is 3600" err &&
	skewed task-tick >out 2>err && test ! -s err
'

test_expect_success 'a stamp that cannot be written: said at every pass, never lost' '
	echo "not a directory" >state-file &&
	XDG_STATE_HOME=$PWD/state-file skewed task-tick >out 2>err && grep -q "clock is 3600" err &&
	XDG_STATE_HOME=$PWD/state-file skewed task-tick >out 2>err && grep -q "clock is 3600" err
'

test_expect_success 'a server without fsync and synchronous_commit: said once a day, naming both' '
	pg_sql "ALTER DATABASE $db SET agentcron.allow_nondurable = off" &&
	task-tick >out 2>err &&
	echo "task-tick: the PostgreSQL server of store '\''$TASK_DB'\'' runs with fsync and synchronous_commit off: a crash of it may lose what it acknowledged, and runs may repeat (see agentcron(7))" >expect &&
	test_cmp expect err &&
	task-tick >out 2>err && test ! -s err &&
	TASK_NOW=2026-11-23T06:00:00Z task-tick >out 2>err && test ! -s err &&
	rm "$state"/said-durability-* &&
	pg_sql "ALTER DATABASE $db SET synchronous_commit = on" &&
	task-tick >out 2>err && grep -q " runs with fsync off: a crash" err
'

test_expect_success 'a server that says it is meant so (agentcron.allow_nondurable): nothing said' '
	rm "$state"/said-durability-* &&
	pg_sql "ALTER DATABASE $db SET agentcron.allow_nondurable = on" &&
	task-tick >out 2>err && test ! -s err && ! ls "$state"/said-durability-* 2>/dev/null
'

test_done
