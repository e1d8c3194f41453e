#!/bin/sh
# A failing recurring task is counted and paused the same whatever the
# pass rhythm: under one pass a minute (the crontab line), an occurrence
# whose retry the next occurrence overtook counts as one failure at once;
# retries fall on whole minutes, which every pass honours; an occurrence
# started a few seconds late is a scheduled run, not a catch-up; task-show
# and task-ls give a retry's own time, never its occurrence's past one.
. "$AC_TOP/tests/lib.sh"

cat >hook <<\EOF
#!/bin/sh
cat >>"$HOME/events"
EOF
chmod +x hook

test_expect_success 'every minute, failing, one pass a minute: paused after 2 occurrences' '
	TASK_NOW=2026-11-30T09:00:30Z task-add --cron "* * * * *" --pause-after 2 --retries 1 \
		--name fail1m --exec false x >id &&
	for m in 01 02 03 04 05 06; do
		TASK_NOW=2026-11-30T09:$m:00Z task-tick >/dev/null 2>>tick.err || return 1
	done &&
	TASK_NOW=2026-11-30T09:06:10Z task-show fail1m >show &&
	grep "^status: *pending (paused)$" show &&
	grep "^failures: *2$" show &&
	grep "^paused: *paused after 2 failures in a row: exited with status 1$" show &&
	task-log --limit 0 | cut -f5-7 | sort >actual &&
	printf "schedule\t2026-11-30T09:01:00Z\tfailed\nschedule\t2026-11-30T09:02:00Z\tfailed\n" >expect &&
	test_cmp expect actual &&
	grep -c "is paused after 2 failures in a row" tick.err >n && echo 1 >expect && test_cmp expect n &&
	test_expect_code 1 env TASK_NOW=2026-11-30T09:06:10Z task-status --check >check &&
	grep "^AGENTCRON WARNING - 1 task paused by failures (.fail1m.)" check
'

test_expect_success 'the same with each pass 5 s late: scheduled runs, not catch-ups' '
	reset_store &&
	TASK_NOW=2026-11-30T09:00:30Z task-add --cron "* * * * *" --pause-after 2 --retries 1 \
		--name fail1m --exec false x >/dev/null &&
	for m in 01 02 03 04; do
		TASK_NOW=2026-11-30T09:$m:05Z task-tick >/dev/null 2>&1 || return 1
	done &&
	task-log --limit 0 | cut -f5-7 | sort >actual &&
	printf "schedule\t2026-11-30T09:01:00Z\tfailed\nschedule\t2026-11-30T09:02:00Z\tfailed\n" >expect &&
	test_cmp expect actual &&
	task-ls --status paused | cut -f2 >actual && echo fail1m >expect && test_cmp expect actual
'

test_expect_success 'a retry waits for a whole minute; task-show and task-ls give its time' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --retries 2 --name hourly \
		--exec false x >id &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:00:10Z task-show hourly >show &&
	grep "^next run: *2026-11-23 07:01 UTC (2026-11-23T07:01:00Z), a retry of the occurrence of 2026-11-23 07:00 UTC, which failed$" show &&
	task-ls | cut -f2,4 >actual &&
	printf "hourly\t2026-11-23T07:01:00Z\n" >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:00:59Z task-tick >/dev/null 2>&1 &&
	test "$(task-log --limit 0 | wc -l)" -eq 1 &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick >/dev/null 2>&1 &&
	task-log --limit 1 | cut -f5,6 >actual &&
	printf "retry\t2026-11-23T07:00:00Z\n" >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:01:10Z task-show hourly >show &&
	grep "^next run: *2026-11-23 07:03 UTC (2026-11-23T07:03:00Z), a retry of" show
'

test_expect_success 'a retry no pass reached counts failed at the next occurrence, and pauses' '
	reset_store && : >tick.err && rm -f events &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --retries 1 --pause-after 2 \
		--name gappy --notify "$PWD/hook" --exec false x >id &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>>tick.err &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >/dev/null 2>>tick.err &&
	task-ls --json | grep -q "\"consecutive_failures\":1," &&
	TASK_NOW=2026-11-23T09:00:00Z task-tick >/dev/null 2>>tick.err &&
	task-log --limit 0 | cut -f5,6 | sort >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\nschedule\t2026-11-23T08:00:00Z\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T09:00:10Z task-show gappy >show &&
	grep "^status: *pending (paused)$" show && grep "^failures: *2$" show &&
	grep "^task-tick: task .gappy. ([0-9a-f]\{8\}) is paused after 2 failures in a row: exited with status 1; task-edit --enable [0-9a-f]\{8\} resumes it$" tick.err &&
	grep -c "^{\"event\":\"paused\",.*\"reason\":\"paused after 2 failures in a row: exited with status 1\"" events >n &&
	echo 1 >expect && test_cmp expect n &&
	TASK_NOW=2026-11-23T10:00:00Z task-tick >/dev/null 2>&1 &&
	test "$(task-log --limit 0 | wc -l)" -eq 2
'

test_done
