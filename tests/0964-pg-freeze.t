#!/bin/sh
# A ticker frozen (SIGSTOP) for 6 s, twice, with owner_timeout = 12, while
# 8 runs of its own are in flight and another host watches the same
# database: a freeze shorter than the fencing limit (2/3 of owner_timeout:
# a sign of life every twelfth, runs ended at three quarters) ends
# nothing.  The second freeze comes 3 s after the first ends, so a
# ticker that fences sooner meets its limit whatever the phase of its
# beats.  A busy machine has 2 s (a sixth of owner_timeout) to resume
# the ticker.  The runs wait for the test to release them (a barrier), so
# they are in flight through both freezes.
. "$AC_TOP/tests/lib.sh"
mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
printf "owner_timeout = 12\n" >"$XDG_CONFIG_HOME/agentcron/config" &&
chmod 600 "$XDG_CONFIG_HOME/agentcron/config" || exit 1
LOG=$PWD/log RELEASE=$PWD/release
export LOG RELEASE

# The executor logs its start and end and runs until released (a minute
# at most, so nothing outlives a failed test long).
cat >job <<\EOF
#!/bin/sh
echo "start $TASK_ID $(date +%s%N)" >>"$LOG"
i=0
while [ ! -f "$RELEASE" ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "end $TASK_ID $(date +%s%N)" >>"$LOG"
EOF
chmod +x job || exit 1

started() { test "$(cat "$LOG" 2>/dev/null | grep -c "^start ")" -ge "$1"; }
# stopped PID: the process is stopped (state T), so the freeze has begun.
stopped() { test "$(cut -d" " -f3 "/proc/$1/stat" 2>/dev/null)" = T; }
# freeze PID SECONDS: PID stopped for SECONDS, counted from when it was.
freeze() {
	kill -STOP "$1" && test_until 60 stopped "$1" && sleep "$2" && kill -CONT "$1" &&
	test_until 60 eval '! stopped '"$1"
}
succeeded() { test "$(pg_sql "SELECT count(*) FROM runs WHERE status = 'success'")" -ge "$1"; }

test_expect_success 'a ticker frozen for 6 s twice (owner_timeout 12) ends none of its runs; no other host takes them' '
	for i in 1 2 3 4 5 6 7 8; do
		task-add --at "$(in_s 0)" --exec "$PWD/job" --force --name r$i x >/dev/null || return 1
	done &&
	{ TASK_HOST_ID=h1 task-tick --watch -j 8 >h1.out 2>h1.err & } &&
	h1=$! && echo "$h1" >>"$TEST_TMP/.pids" &&
	{ test_until 30 started 8 || { cat h1.err; false; }; } &&
	test "$(cat /proc/$h1/comm)" = task-tick &&
	test_start_ready h2.out h2.err env TASK_HOST_ID=h2 task-tick --watch &&
	h2=$test_ready_pid &&
	freeze "$h1" 6 && sleep 3 && freeze "$h1" 6 &&
	touch "$RELEASE" &&
	{ test_until 30 succeeded 8 || { cat h1.err h2.err; false; }; } &&
	kill -TERM "$h1" "$h2" && wait "$h1" && wait "$h2" &&
	{ ! grep -E "sign of life|silent|recover" h1.err h2.err || false; } &&
	test "$(grep -c "^start " log)" = 8 &&
	test "$(grep -c "^end " log)" = 8 &&
	test "$(grep "^start " log | cut -d" " -f2 | sort -u | wc -l)" = 8 &&
	pg_sql "SELECT status, count(*), count(DISTINCT owner_id), count(note), count(error)
		FROM runs GROUP BY status" >actual &&
	echo "success|8|1|0|0" >expect && test_cmp expect actual
'

test_done
