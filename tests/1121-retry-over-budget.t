#!/bin/sh
# A recurring task's retry that its budget skips is given up: the task
# goes on at its next occurrence, and the occurrence it was for counts as
# one failure, as when the next occurrence overtakes a retry: toward
# --pause-after (the pause said once, with the failure's reason) and for
# the followers of its failure (task-add --after TASK:failure).
. "$AC_TOP/tests/lib.sh"
test_config "provider = echo"

# spend: asks the model (spending tokens), then fails.
cat >spend <<\EOF
#!/bin/sh
llm-call >/dev/null || exit 2
echo "$TASK_TRIGGER $TASK_SLOT" >>"$HOME/seen"
echo "broke at $TASK_SLOT" >&2
exit 1
EOF
cat >hook <<\EOF
#!/bin/sh
sed 's/.*"event":"\([a-z]*\)".*"reason":\([^,]*\),.*/\1 \2/' >>"$HOME/events"
EOF
chmod +x spend hook

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null 2>>tick.err
}

test_expect_success 'the retry skipped over budget: its occurrence counts failed, the task goes on' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --budget 3tok/day --name up \
		--exec "$PWD/spend" "one two three four" >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --after up:failure --name alert --exec cat tell >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	tick 2026-11-23T07:01:00Z &&
	task-log --task up --limit 0 | cut -f5-7 >actual &&
	cat >expect <<-\EOF &&
	retry	2026-11-23T07:00:00Z	skipped
	schedule	2026-11-23T07:00:00Z	failed
	EOF
	test_cmp expect actual &&
	task_failures | sort >actual &&
	cat >expect <<-\EOF &&
	alert None 0
	up 2026-11-23T08:00:00Z 1
	EOF
	test_cmp expect actual &&
	task-log --task alert --limit 0 | cut -f5-7 >actual &&
	printf "after\t2026-11-23T07:00:00Z\tsuccess\n" >expect && test_cmp expect actual
'

test_expect_success 'and brings --pause-after: paused once, with the failure as the reason' '
	reset_store && rm -f seen events && : >tick.err &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --budget 3tok/day --pause-after 1 \
		--notify "$PWD/hook" --name up --exec "$PWD/spend" "one two three four" >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	tick 2026-11-23T07:01:00Z &&
	tick 2026-11-23T08:00:00Z &&
	cat >expect <<-\EOF &&
	failure null
	paused "paused after 1 failures in a row: exited with status 1 broke at 2026-11-23T07:00:00Z"
	EOF
	test_cmp expect events &&
	task-ls | cut -f2-4 >actual &&
	printf "up\tpaused\t2026-11-23T08:00:00Z\n" >expect && test_cmp expect actual &&
	echo "schedule 2026-11-23T07:00:00Z" >expect && test_cmp expect seen
'

test_done
