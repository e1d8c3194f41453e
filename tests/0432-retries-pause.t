#!/bin/sh
# Recurring tasks retry a failed occurrence at the same instant (trigger
# retry, TASK_ATTEMPT 2, 3, ...) after 30 s, 2 min, ... on the next whole
# minute (from the minute the attempt ended in), never past the next
# occurrence and never after the permanent-failure exit status; after
# --pause-after failed occurrences in a row the task is paused: disabled,
# the reason on record, said once to the notify hook, listed as paused, and
# task-edit --enable resumes it.
. "$AC_TOP/tests/lib.sh"

# The executor: logs trigger, slot and attempt; fails while "failures"
# says so (a number counted down, or "always"), with exit status $CODE.
cat >flaky <<\EOF
#!/bin/sh
echo "$TASK_TRIGGER $TASK_SLOT $TASK_ATTEMPT" >>"$HOME/seen"
n=$(cat "$HOME/failures" 2>/dev/null || echo 0)
case $n in
always) echo boom >&2; exit "${CODE:-1}" ;;
0) echo fine; exit 0 ;;
esac
echo $((n - 1)) >"$HOME/failures"
echo boom >&2
exit 1
EOF
cat >hook <<\EOF
#!/bin/sh
cat >>"$HOME/events"
EOF
chmod +x flaky hook

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null 2>>tick.err
}

test_expect_success 'a failed occurrence is retried at its instant on the next minute, then 2 min later' '
	echo 2 >failures &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --name hourly --exec "$PWD/flaky" p >id &&
	tick 2026-11-23T07:00:00Z &&
	tick 2026-11-23T07:00:30Z &&
	tick 2026-11-23T07:00:59Z &&
	tick 2026-11-23T07:01:00Z &&
	tick 2026-11-23T07:02:59Z &&
	tick 2026-11-23T07:03:00Z &&
	cat >expect <<-\EOF &&
	schedule 2026-11-23T07:00:00Z 1
	retry 2026-11-23T07:00:00Z 2
	retry 2026-11-23T07:00:00Z 3
	EOF
	test_cmp expect seen &&
	task-log --limit 0 | cut -f5-7 | sort >actual &&
	cat >expect <<-\EOF &&
	retry	2026-11-23T07:00:00Z	failed
	retry	2026-11-23T07:00:00Z	success
	schedule	2026-11-23T07:00:00Z	failed
	EOF
	test_cmp expect actual &&
	task-ls | cut -f3,4 >actual &&
	printf "pending\t2026-11-23T08:00:00Z\n" >expect && test_cmp expect actual &&
	test "$(task-ls --json | sed "s/.*\"consecutive_failures\":\([0-9]*\).*/\1/")" = 0
'

test_expect_success 'task-show says a retry waits, and when' '
	echo 1 >failures && rm -f seen &&
	tick 2026-11-23T08:00:00Z &&
	TASK_NOW=2026-11-23T08:00:10Z task-show "$(cat id)" >show &&
	grep "^next run: *2026-11-23 08:01 UTC (2026-11-23T08:01:00Z), a retry of the occurrence of 2026-11-23 08:00 UTC, which failed$" show
'

test_expect_success 'retries spent: the occurrence counts as one failure and the task moves on' '
	reset_store && rm -f seen && echo always >failures &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --exec "$PWD/flaky" p >/dev/null &&
	for t in 07:00:00 07:01:00 07:03:00 07:13:00; do tick 2026-11-23T${t}Z || return 1; done &&
	test "$(wc -l <seen)" -eq 3 &&
	task-ls --json | sed "s/.*\"next_run_at\":\"\([^\"]*\)\".*\"consecutive_failures\":\([0-9]*\).*/\1 \2/" >actual &&
	echo "2026-11-23T08:00:00Z 1" >expect && test_cmp expect actual
'

test_expect_success 'never past the next occurrence' '
	reset_store && rm -f seen && echo always >failures &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "*/2 * * * *" --retries 5 --exec "$PWD/flaky" p >/dev/null &&
	tick 2026-11-23T07:00:00Z && tick 2026-11-23T07:01:00Z && tick 2026-11-23T07:02:00Z &&
	cat >expect <<-\EOF &&
	schedule 2026-11-23T07:00:00Z 1
	retry 2026-11-23T07:00:00Z 2
	schedule 2026-11-23T07:02:00Z 1
	EOF
	test_cmp expect seen
'

test_expect_success 'the permanent-failure exit status is never retried' '
	reset_store && rm -f seen && echo always >failures &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --exec "$PWD/flaky" p >/dev/null &&
	CODE=78 tick 2026-11-23T07:00:00Z && CODE=78 tick 2026-11-23T07:01:00Z &&
	echo "schedule 2026-11-23T07:00:00Z 1" >expect && test_cmp expect seen &&
	test "$(task-ls | cut -f4)" = 2026-11-23T08:00:00Z
'

test_expect_success 'paused after --pause-after failed occurrences in a row, said once' '
	reset_store && rm -f seen events && echo always >failures && : >tick.err &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --retries 0 --pause-after 3 \
		--name fragile --notify "$PWD/hook" --exec "$PWD/flaky" p >id &&
	for h in 07 08 09 10; do tick 2026-11-23T$h:00:00Z || return 1; done &&
	test "$(wc -l <seen)" -eq 3 &&
	test "$(wc -l <events)" -eq 3 &&
	grep -c "^{\"event\":\"paused\",.*\"reason\":\"paused after 3 failures in a row: exited with status 1 boom\"" events >n &&
	echo 1 >expect && test_cmp expect n &&
	sed -n "3p" events | grep -q "^{\"event\":\"paused\"," &&
	grep "^task-tick: task .fragile. ([0-9a-f]\{8\}) is paused after 3 failures in a row: exited with status 1 boom; task-edit --enable [0-9a-f]\{8\} resumes it$" tick.err &&
	task-ls --status paused | cut -f2,3 >actual &&
	printf "fragile\tpaused\n" >expect && test_cmp expect actual &&
	task-show "$(cat id)" >show &&
	grep "^status: *pending (paused)$" show &&
	grep "^paused: *paused after 3 failures in a row: exited with status 1 boom$" show &&
	task-ls --json | grep -q "\"enabled\":false,.*\"paused\":\"paused after 3 failures in a row: exited with status 1 boom\""
'

test_expect_success 'task-ls --status filters paused beside the statuses' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --at 2026-11-30T07:00:00Z --name later --exec true p >/dev/null &&
	task-ls --status paused,pending | cut -f2 | sort >actual &&
	printf "fragile\nlater\n" >expect && test_cmp expect actual &&
	task-ls --status failed >out 2>err && test ! -s out &&
	test_expect_code 2 task-ls --status paused,bogus 2>err && test_one_line err &&
	echo "{\"name\":\"task_list\",\"arguments\":{\"status\":[\"paused\"]}}" |
		TASK_NOW=2026-11-23T10:30:00Z task-mcp --call >out &&
	grep -q "^1\. fragile$" out && test_expect_code 1 grep -q later out &&
	grep -q "^   Status: pending, paused after 3 failures in a row: exited with status 1 boom$" out
'

test_expect_success 'task-edit --enable resumes it with a fresh count' '
	echo 0 >failures && rm -f seen &&
	TASK_NOW=2026-11-23T11:10:00Z task-edit --enable "$(cat id)" >/dev/null &&
	task-ls --status paused >out && test ! -s out &&
	task-ls --json | grep -q "\"paused\":null" &&
	tick 2026-11-23T12:00:00Z &&
	echo "schedule 2026-11-23T12:00:00Z 1" >expect && test_cmp expect seen
'

test_expect_success 'five in a row by default; --pause-after 0 never pauses' '
	reset_store && echo always >failures &&
	TASK_NOW=2026-11-23T00:30:00Z task-add --cron "0 * * * *" --retries 0 --name five --exec "$PWD/flaky" p >/dev/null &&
	TASK_NOW=2026-11-23T00:30:00Z task-add --cron "0 * * * *" --retries 0 --pause-after 0 --name never \
		--exec "$PWD/flaky" q >/dev/null &&
	for h in 01 02 03 04 05 06 07; do tick 2026-11-23T$h:00:00Z || return 1; done &&
	task-ls | cut -f2,3 | sort >actual &&
	printf "five\tpaused\nnever\tpending\n" >expect && test_cmp expect actual
'

test_expect_success 'tasks of the seeds'\'' profiles keep their rules: no retry, no pause' '
	reset_store && rm -f seen && echo always >failures &&
	printf "%s\n" "{\"name\":\"schedule_task\",\"arguments\":{\"description\":\"kai\",\"prompt\":\"k\",\"cron\":\"0 * * * *\"}}" \
		"{\"name\":\"scheduler.create\",\"arguments\":{\"intent\":\"tp\",\"cron\":\"0 * * * *\",\"message\":\"t\"}}" |
		TASK_NOW=2026-11-23T00:30:00Z task-mcp -p kai -p toolpack --call >/dev/null &&
	test "$(task-ls | wc -l)" -eq 2 &&
	for t in 01:00:00 01:01:00 01:03:00 02:00:00 03:00:00 04:00:00 05:00:00 06:00:00; do
		TASK_EXEC=$PWD/flaky tick 2026-11-23T${t}Z || return 1
	done &&
	test "$(grep -c "^retry" seen)" -eq 0 && test "$(wc -l <seen)" -eq 12 &&
	task-ls | cut -f3 >actual && printf "pending\npending\n" >expect && test_cmp expect actual
'

test_done
