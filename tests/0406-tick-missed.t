#!/bin/sh
# Missed runs (the machine was off, task-tick did not run): `once` fires
# one catch-up run and moves to the next future occurrence; `skip` moves on
# without firing, on record as skipped; `all` fires each missed occurrence,
# one per pass, the newest 100 at most.  No floods.
. "$AC_TOP/tests/lib.sh"

# runs: trigger, slot and status of every run, oldest slot first.
runs() {
	task-log --limit 0 | cut -f5-7 | sort -k2
}

test_expect_success 'once: after a 3-day gap one catch-up run, then the next future occurrence' '
	TASK_NOW=2026-11-20T06:30:00Z task-add --cron "0 * * * *" --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:10:00Z task-tick >out &&
	test "$(wc -l <out)" -eq 1 &&
	runs >actual &&
	printf "catchup\t2026-11-23T07:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	task-ls | cut -f3,4 >actual &&
	printf "pending\t2026-11-23T08:00:00Z\n" >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:11:00Z task-tick >out && test ! -s out
'

test_expect_success 'once is the default, and a single late occurrence fires as a catch-up' '
	reset_store &&
	TASK_NOW=2026-11-20T06:30:00Z task-add --at 2026-11-20T07:00:00Z --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:10:00Z task-tick >out &&
	runs >actual &&
	printf "catchup\t2026-11-20T07:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual && test "$(task-ls | cut -f3)" = completed
'

test_expect_success 'up to a minute late is on time' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 7 * * *" --missed skip --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick >out &&
	runs >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tsuccess\n" >expect && test_cmp expect actual
'

test_expect_success 'skip: nothing fires, the skip is on record, the next occurrence is the future one' '
	reset_store &&
	TASK_NOW=2026-11-20T06:30:00Z task-add --cron "0 7 * * *" --missed skip --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:30:00Z task-tick >out &&
	test ! -s out &&
	runs >actual &&
	printf "catchup\t2026-11-23T07:00:00Z\tskipped\n" >expect && test_cmp expect actual &&
	task-log --json | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","task_id":"<id2>","slot":"2026-11-23T07:00:00Z","trigger":"catchup","status":"skipped","started_at":"2026-11-23T07:30:00Z","ended_at":"2026-11-23T07:30:00Z","exit_code":null,"duration_ms":<ms>,"attempt":0,"error":"missed its time (2026-11-23T07:00:00Z) by 1800 s; skipped (--missed skip)","name":"x"}
	EOF
	test_cmp expect actual &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-24T07:00:00Z\tskipped\n" >expect && test_cmp expect actual
'

test_expect_success 'skip on a missed one-shot: skipped, and done' '
	reset_store &&
	TASK_NOW=2026-11-20T06:30:00Z task-add --at 2026-11-20T07:00:00Z --missed skip --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:30:00Z task-tick >out && test ! -s out &&
	task-ls | cut -f3,4,6 >actual &&
	printf "completed\t-\tskipped\n" >expect && test_cmp expect actual
'

test_expect_success 'all: each missed occurrence fires, one per pass' '
	reset_store &&
	TASK_NOW=2026-11-20T06:30:00Z task-add --cron "0 7 * * *" --missed all --exec true x >/dev/null &&
	for i in 1 2 3 4 5; do TASK_NOW=2026-11-23T08:00:00Z task-tick || exit 1; done >out &&
	test "$(wc -l <out)" -eq 4 &&
	runs >actual &&
	cat >expect <<-\EOF &&
	catchup	2026-11-20T07:00:00Z	success
	catchup	2026-11-21T07:00:00Z	success
	catchup	2026-11-22T07:00:00Z	success
	catchup	2026-11-23T07:00:00Z	success
	EOF
	test_cmp expect actual &&
	task-ls | cut -f4 >actual && echo 2026-11-24T07:00:00Z >expect && test_cmp expect actual
'

test_expect_success 'all is bounded: the newest 100 missed occurrences at most' '
	reset_store &&
	TASK_NOW=2026-11-20T06:30:00Z task-add --cron "* * * * *" --missed all --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T12:00:30Z task-tick >out &&
	runs >actual &&
	printf "catchup\t2026-11-23T10:21:00Z\tsuccess\n" >expect && test_cmp expect actual &&
	task-ls | cut -f4 >actual && echo 2026-11-23T10:22:00Z >expect && test_cmp expect actual
'

test_expect_success 'a task due again within the same pass waits for the next pass' '
	TASK_NOW=2026-11-23T12:00:30Z task-tick >out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"x","trigger":"catchup","slot":"2026-11-23T10:22:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T12:00:30Z","ended_at":"2026-11-23T12:00:30Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual
'

test_done
