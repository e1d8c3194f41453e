#!/bin/sh
# A recurring task's run recovered as interrupted (its task-tick stopped
# with SIGSTOP until the lease ran out, recovered by a pass on another
# host), whose executor then succeeds late: before the retry armed at
# recovery starts, the success completes the occurrence (the retry is
# cancelled, the task moves on as after a success, the note says so);
# once the retry started, both runs stay on record and only the note is
# added.  Counted from the executors' own log.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z
LOG=$PWD/log
export LOG

# The executor: logs its start and end; a first attempt waits for the file
# go, a retry for go2.
cat >job <<\EOF
#!/bin/sh
echo "start $TASK_ATTEMPT" >>"$LOG"
echo $$ >"$TASK_NAME.$TASK_ATTEMPT.pid"
f=go && [ "$TASK_ATTEMPT" -gt 1 ] && f=go2
while ! test -f "$f"; do sleep 0.05; done
echo "end $TASK_ATTEMPT" >>"$LOG"
echo fine
EOF
chmod +x job || exit 1

# ended N: the executors' log has N ends.
ended() {
	test "$(grep -c "^end " "$LOG" 2>/dev/null)" -ge "$1"
}

# recover_stopped NAME: a new task NAME (every 10 minutes) has its run of
# 07:00 start in a task-tick on host a (pid in tick), which is then
# stopped; a pass on host b at 07:05 recovers the run (its lease ran out at
# 07:02:02) and arms the retry of 07:00 at 07:06:00.  Its id in id.
recover_stopped() {
	id=$(TASK_NOW=2026-11-23T06:55:00Z task-add --cron "*/10 * * * *" --timeout 60 --name "$1" \
	    --exec "$PWD/job" x) &&
	{ TASK_HOST_ID=a task-tick >a.out 2>a.err & } && tick=$! && test_when_finished "test_end \$tick" &&
	test_until 60 test -s "$1.1.pid" &&
	kill -STOP $tick &&
	TASK_NOW=2026-11-23T07:05:00Z TASK_HOST_ID=b task-tick >b.out 2>b.err &&
	grep -q "\"status\":\"interrupted\",.*\"error\":\"its lease ran out at 2026-11-23T07:02:02Z; the process running it (pid $tick on [^ )]*) stopped answering\"" b.out &&
	task-show --json "$(task-ls | cut -f1)" >show &&
	grep -q "\"status\":\"pending\",\"next_run_at\":\"2026-11-23T07:00:00Z\",\"due_at\":\"2026-11-23T07:06:00Z\",\"last_run_at\":\"2026-11-23T07:00:00Z\",\"last_status\":\"interrupted\"" show
}

# both_recorded: the recovered run, its late success only a note, and the
# retry that ran.
both_recorded() {
	task-log --task $id | cut -f5-7 | sort >actual &&
	printf "retry\t2026-11-23T07:00:00Z\tsuccess\nschedule\t2026-11-23T07:00:00Z\tinterrupted\n" >expect &&
	test_cmp expect actual &&
	task-log "$(task-log --task $id --status interrupted | cut -f1)" | sed -n "/^note:/,\$p" >note &&
	grep -q "^  late result, after the run had been recovered: success at 2026-11-23T07:00:00Z, exit 0, [0-9]* ms; output: fine\$" note &&
	grep -q "its result (success) is kept as the run.s note\$" a.err
}

# task_state: status, next_run_at, due_at, last_status, consecutive_failures.
task_state() {
	task-show --json "$(task-ls | cut -f1)" |
	sed 's/.*"status":"\([a-z]*\)","next_run_at":"\([^"]*\)","due_at":"\([^"]*\)".*"last_status":"\([a-z]*\)".*"consecutive_failures":\([0-9]*\),.*/\1 \2 \3 \4 \5/'
}

test_expect_success 'a late success before the retry started completes the occurrence; the retry is cancelled' '
	recover_stopped rec &&
	touch go && test_until 60 ended 1 &&
	kill -CONT $tick && wait $tick &&
	test ! -s a.out &&
	grep -q "^task-tick: run [0-9a-f]* of task .[0-9a-f]*. had been recovered as interrupted before it ended; its result (success) is kept as the run.s note, and completed its occurrence: the retry armed at recovery is cancelled\$" a.err &&
	task_state >actual &&
	echo "pending 2026-11-23T07:10:00Z 2026-11-23T07:10:00Z success 0" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:06:00Z task-tick >out &&
	test ! -s out &&
	task-log --task $id | cut -f5-7 >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tinterrupted\n" >expect &&
	test_cmp expect actual &&
	task-log "$(task-log --task $id | cut -f1)" | sed -n "/^note:/,\$p" >note &&
	grep -q "^  late result, after the run had been recovered: success at 2026-11-23T07:00:00Z, exit 0, [0-9]* ms; it completed the occurrence, and the retry armed at recovery was cancelled; output: fine\$" note
'

test_expect_success 'the task goes on with its next occurrence, as after a success' '
	TASK_NOW=2026-11-23T07:10:00Z task-tick >out &&
	grep -q "\"trigger\":\"schedule\",\"slot\":\"2026-11-23T07:10:00Z\",\"status\":\"success\"" out &&
	printf "start 1\nend 1\nstart 1\nend 1\n" >expect && test_cmp expect "$LOG"
'

test_expect_success 'a late success after the retry started: both runs recorded, nothing else changes' '
	reset_store && rm -f go go2 "$LOG" ./*.pid &&
	recover_stopped again &&
	{ TASK_NOW=2026-11-23T07:06:00Z TASK_HOST_ID=c task-tick >c.out 2>c.err & } && c=$! && test_when_finished "test_end \$c" &&
	test_until 60 test -s again.2.pid &&
	touch go && test_until 60 ended 1 &&
	kill -CONT $tick && wait $tick &&
	touch go2 && wait $c &&
	grep -q "\"trigger\":\"retry\",\"slot\":\"2026-11-23T07:00:00Z\",\"status\":\"success\"" c.out &&
	task_state >actual &&
	echo "pending 2026-11-23T07:10:00Z 2026-11-23T07:10:00Z success 0" >expect &&
	test_cmp expect actual &&
	both_recorded &&
	printf "start 1\nstart 2\nend 1\nend 2\n" >expect && test_cmp expect "$LOG"
'

test_expect_success 'a late success after the retry finished changes nothing but the note' '
	reset_store && rm -f go go2 "$LOG" ./*.pid &&
	recover_stopped done &&
	touch go2 &&
	TASK_NOW=2026-11-23T07:06:00Z TASK_HOST_ID=c task-tick >c.out 2>c.err &&
	grep -q "\"trigger\":\"retry\",\"slot\":\"2026-11-23T07:00:00Z\",\"status\":\"success\"" c.out &&
	task_state >before &&
	touch go && test_until 60 ended 2 &&
	kill -CONT $tick && wait $tick &&
	task_state >actual && test_cmp before actual &&
	both_recorded &&
	printf "start 1\nstart 2\nend 2\nend 1\n" >expect && test_cmp expect "$LOG"
'

test_expect_success 'nothing is left running' '
	test -z "$(task-log --limit 0 --status running)"
'

test_done
