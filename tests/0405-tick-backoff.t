#!/bin/sh
# After a run: a failing one-shot retries with backoff (60 s, doubling,
# capped at an hour) up to its retries, then fails; a success resets the
# count; a failing recurring task without retries moves on to its next occurrence.
. "$AC_TOP/tests/lib.sh"

# state: status, next run, last status and failures of the only task.
state() {
	task-show --json "$(task-ls | cut -f1)" |
		sed "s/.*\"status\":\"\([a-z]*\)\".*\"next_run_at\":\([^,]*\),.*\"last_status\":\"\([a-z]*\)\".*\"consecutive_failures\":\([0-9]*\).*/\1 \2 \3 \4/"
}

# tick_next: run task-tick at the task's next run; prints its trigger.
tick_next() {
	next=$(task-ls | cut -f4) && [ "$next" != - ] &&
	TASK_NOW=$next task-tick >tick.out 2>/dev/null &&
	sed "s/.*\"trigger\":\"\([a-z]*\)\".*/\1/" tick.out
}

test_expect_success 'a failing one-shot: 60, 120, 240 s, then failed after 3 retries' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec false x >/dev/null &&
	for i in 1 2 3 4; do tick_next && state || exit 1; done >actual &&
	cat >expect <<-\EOF &&
	schedule
	pending "2026-11-23T07:01:00Z" failed 1
	retry
	pending "2026-11-23T07:03:00Z" failed 2
	retry
	pending "2026-11-23T07:07:00Z" failed 3
	retry
	failed null failed 4
	EOF
	test_cmp expect actual &&
	task-log --limit 0 | cut -f5,6,7 | sort >actual &&
	cat >expect <<-\EOF &&
	retry	2026-11-23T07:01:00Z	failed
	retry	2026-11-23T07:03:00Z	failed
	retry	2026-11-23T07:07:00Z	failed
	schedule	2026-11-23T07:00:00Z	failed
	EOF
	test_cmp expect actual
'

test_expect_success 'the backoff doubles up to an hour and stays there' '
	reset_store &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --retries 9 --exec false x >/dev/null &&
	prev=$(date -u -d 2026-11-23T07:00:00Z +%s) &&
	for i in 1 2 3 4 5 6 7 8 9; do
		tick_next >/dev/null && next=$(task-ls | cut -f4) &&
		now=$(date -u -d "$next" +%s) && echo $((now - prev)) && prev=$now || exit 1
	done >actual &&
	printf "%s\n" 60 120 240 480 960 1920 3600 3600 3600 >expect &&
	test_cmp expect actual &&
	tick_next >/dev/null && state >actual &&
	echo "failed null failed 10" >expect && test_cmp expect actual
'

test_expect_success '--retries 0: the first failure is final' '
	reset_store &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --retries 0 --exec false x >/dev/null &&
	tick_next >/dev/null && state >actual &&
	echo "failed null failed 1" >expect && test_cmp expect actual
'

test_expect_success 'a success resets the count: the retry succeeds, the one-shot completes' '
	reset_store && rm -f flag &&
	printf "#!/bin/sh\nif [ -e flag ]; then echo ok; else touch flag; exit 1; fi\n" >flaky && chmod +x flaky &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/flaky" x >/dev/null &&
	{ tick_next && state && tick_next && state; } >actual &&
	cat >expect <<-\EOF &&
	schedule
	pending "2026-11-23T07:01:00Z" failed 1
	retry
	completed null success 0
	EOF
	test_cmp expect actual
'

test_expect_success 'a failing recurring task without retries moves to its next occurrence; a success resets the count' '
	reset_store && rm -f flag &&
	printf "#!/bin/sh\nn=\$(cat count 2>/dev/null || echo 0); echo \$((n + 1)) >count; [ \$n -ge 2 ]\n" >third && chmod +x third &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "*/10 * * * *" --retries 0 --exec "$PWD/third" x >/dev/null &&
	for i in 1 2 3; do tick_next && state || exit 1; done >actual &&
	cat >expect <<-\EOF &&
	schedule
	pending "2026-11-23T06:20:00Z" failed 1
	schedule
	pending "2026-11-23T06:30:00Z" failed 2
	schedule
	pending "2026-11-23T06:40:00Z" success 0
	EOF
	test_cmp expect actual
'

test_expect_success 'a plan moves on to its next instant after a failure; its last one retries' '
	reset_store &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --plan 2026-11-23T07:00:00Z --plan 2026-11-23T08:00:00Z \
		--retries 1 --exec false x >/dev/null &&
	for i in 1 2 3; do tick_next && state || exit 1; done >actual &&
	cat >expect <<-\EOF &&
	schedule
	pending "2026-11-23T08:00:00Z" failed 1
	schedule
	pending "2026-11-23T08:01:00Z" failed 2
	retry
	failed null failed 3
	EOF
	test_cmp expect actual
'

test_done
