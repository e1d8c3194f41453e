#!/bin/sh
# PostgreSQL, several hosts: a task-tick on host a is stopped (SIGSTOP)
# for longer than owner_timeout while its run goes on; a pass on host b
# declares it dead, recovers the run as interrupted and arms the retry of
# its occurrence.  Continued once its executor succeeded, a records the
# success late: it completes the occurrence of the interval task, whose
# retry never runs, and, with --count 1, the task itself.
. "$AC_TOP/tests/lib.sh"
mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
printf "owner_timeout = 4\n" >"$XDG_CONFIG_HOME/agentcron/config" || exit 1
export TASK_NOW=2026-11-23T07:00:00Z
LOG=$PWD/log
export LOG

# The executor: logs its start and end, and waits for the file go.
cat >job <<\EOF
#!/bin/sh
echo "start $TASK_NAME $TASK_ATTEMPT" >>"$LOG"
echo $$ >"$TASK_NAME.$TASK_ATTEMPT.pid"
while ! test -f go; do sleep 0.05; done
echo "end $TASK_NAME $TASK_ATTEMPT" >>"$LOG"
echo fine
EOF
chmod +x job || exit 1

# recovered: a pass on host b at 07:01 (before the run's lease of 07:02:02
# runs out) has recovered a's run, a being silent.
recovered() {
	TASK_NOW=2026-11-23T07:01:00Z TASK_HOST_ID=b task-tick >>b.out 2>>b.err &&
	grep -q "\"status\":\"interrupted\"" b.out
}

# stopped_recovered NAME ARG...: task NAME (every 10 minutes from 07:00,
# ARG) runs on host a (pid in tick), which is stopped until b recovered the
# run and armed its retry at 07:02:00.  Its id in id.
stopped_recovered() {
	rm -f go b.out b.err "$1".*pid &&
	id=$(TASK_NOW=2026-11-23T06:55:00Z task-add --every 10m --from 2026-11-23T07:00:00Z \
	    --timeout 60 --name "$@" --exec "$PWD/job" x) &&
	{ TASK_HOST_ID=a task-tick >a.out 2>a.err & } && tick=$! && test_when_finished "test_end \$tick" &&
	test_until 60 test -s "$1.1.pid" &&
	kill -STOP $tick &&
	test_until 40 recovered &&
	grep -q "\"error\":\"the process running it (pid $tick on [^ )]*) stopped showing signs of life [0-9]* s ago\"" b.out &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-23T07:02:00Z\tinterrupted\n" >expect &&
	test_cmp expect actual
}

# late_success NAME ARG...: stopped_recovered, then the executor succeeds
# and a is continued: the success completes the occurrence.
late_success() {
	stopped_recovered "$@" &&
	touch go && test_until 60 grep -q "^end $1 " "$LOG" &&
	kill -CONT $tick && { wait $tick || :; } &&
	grep -q "^task-tick: run [0-9a-f]* of task .[0-9a-f]*. had been recovered as interrupted before it ended; its result (success) is kept as the run.s note, and completed its occurrence: the retry armed at recovery is cancelled\$" a.err
}

test_expect_success 'a late success on a host declared dead completes the occurrence; no retry runs' '
	late_success every &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-23T07:10:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	task-show --json $id | grep -q "\"due_at\":\"2026-11-23T07:10:00Z\",.*\"consecutive_failures\":0," &&
	TASK_NOW=2026-11-23T07:02:00Z TASK_HOST_ID=c task-tick >out &&
	test ! -s out &&
	pg_sql "SELECT r.status, r.attempt, r.note LIKE '\''late result, after the run had been recovered: success at %; it completed the occurrence, and the retry armed at recovery was cancelled; output: fine%'\'' FROM runs r" >actual &&
	echo "interrupted|1|t" >expect && test_cmp expect actual
'

test_expect_success 'the last occurrence of a counted task: the task is completed' '
	pg_sql "DELETE FROM tasks" >/dev/null &&
	late_success last --count 1 &&
	task-ls --status completed,pending,running | cut -f3,4,6 >actual &&
	printf "completed\t-\tsuccess\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:02:00Z TASK_HOST_ID=c task-tick >out &&
	test ! -s out
'

test_expect_success 'once the retry started, the late success is a note: both runs recorded' '
	pg_sql "DELETE FROM tasks" >/dev/null &&
	stopped_recovered retried &&
	{ TASK_NOW=2026-11-23T07:02:00Z TASK_HOST_ID=c task-tick >c.out 2>c.err & } && c=$! && test_when_finished "test_end \$c" &&
	test_until 60 test -s retried.2.pid &&
	touch go && { wait $c || :; } &&
	kill -CONT $tick && { wait $tick || :; } &&
	grep -q "its result (success) is kept as the run.s note\$" a.err &&
	grep -q "\"trigger\":\"retry\",\"slot\":\"2026-11-23T07:00:00Z\",\"status\":\"success\"" c.out &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-23T07:10:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	pg_sql "SELECT r.trigger, r.status, r.attempt, r.note LIKE '\''late result, after the run had been recovered: success at %, exit 0, % ms; output: fine%'\'' FROM runs r JOIN tasks t ON t.id = r.task_id WHERE t.name = '\''retried'\'' ORDER BY r.attempt" >actual &&
	printf "schedule|interrupted|1|t\nretry|success|2|\n" >expect && test_cmp expect actual
'

test_expect_success 'each execution started and ended once; a retry only where it had started' '
	for n in "every 1" "last 1" "retried 1" "retried 2"; do
		echo "start $n" && echo "end $n" || return 1
	done | sort >expect &&
	sort "$LOG" >actual && test_cmp expect actual &&
	test -z "$(task-log --limit 0 --status running)"
'

test_done
