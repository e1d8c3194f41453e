#!/bin/sh
# TASK_SLOT and TASK_ATTEMPT in the executor's environment: the scheduled
# instant (RFC 3339 UTC) of an on-time run, a catch-up, a one-shot's retry
# and a manual run (the instant it was asked for), and which try it is.
. "$AC_TOP/tests/lib.sh"

cat >show <<\EOF
#!/bin/sh
echo "$TASK_TRIGGER $TASK_SLOT $TASK_ATTEMPT" >>"$HOME/seen"
[ ! -e "$HOME/fail" ]
EOF
chmod +x show

test_expect_success 'an on-time run: its instant, attempt 1' '
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "0 7 * * *" --name daily \
		--exec "$PWD/show" p >id &&
	TASK_NOW=2026-11-23T07:00:20Z task-tick >/dev/null &&
	echo "schedule 2026-11-23T07:00:00Z 1" >expect &&
	test_cmp expect seen
'

test_expect_success 'a catch-up names the occurrence it fires, not the time it ran' '
	rm -f seen &&
	TASK_NOW=2026-11-26T15:12:00Z task-tick >/dev/null &&
	echo "catchup 2026-11-26T07:00:00Z 1" >expect &&
	test_cmp expect seen
'

test_expect_success 'a manual run: the instant it was asked for' '
	rm -f seen &&
	TASK_NOW=2026-11-26T16:30:05Z task-run "$(cat id)" >/dev/null &&
	echo "manual 2026-11-26T16:30:05Z 1" >expect &&
	test_cmp expect seen
'

test_expect_success 'a one-shot retried: the same instant, attempt 2 then 3' '
	rm -f seen && touch fail &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T08:00:00Z --retries 2 \
		--name once --exec "$PWD/show" p >/dev/null &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T08:01:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T08:03:00Z task-tick >/dev/null &&
	cat >expect <<-\EOF &&
	schedule 2026-11-23T08:00:00Z 1
	retry 2026-11-23T08:00:00Z 2
	retry 2026-11-23T08:00:00Z 3
	EOF
	test_cmp expect seen
'

test_done
