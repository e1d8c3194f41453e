#!/bin/sh
# task-tick fires intervals, several cron expressions and --not-before as
# task-when previews them, with TASK_NOW moving time: each instant once
# when expressions share it, intervals in real time across DST, nothing
# before the start, the missed-run policies and the ends.
. "$AC_TOP/tests/lib.sh"

# runs ID: trigger, slot and status of the task's runs, oldest slot first.
runs() {
	task-log --limit 0 --task "$1" | cut -f5-7 | sort -k2
}

# tick TIME...: one task-tick pass at each instant.
tick() {
	for at; do TASK_NOW=$at task-tick || return 1; done
}

test_expect_success 'several expressions: each instant once, the shared one too' '
	id=$(TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --cron "0 7,12 * * 1-5" \
		--exec true two) &&
	tick 2026-11-23T07:00:10Z 2026-11-23T07:00:40Z 2026-11-23T12:00:10Z 2026-11-24T07:00:10Z >out &&
	runs "$id" >actual &&
	cat >expect <<-\EOF &&
	schedule	2026-11-23T07:00:00Z	success
	schedule	2026-11-23T12:00:00Z	success
	schedule	2026-11-24T07:00:00Z	success
	EOF
	test_cmp expect actual &&
	task-when --utc -n 3 --from 2026-11-23T06:00:00Z --cron "0 7 * * *" --cron "0 7,12 * * 1-5" |
		sed "s/:00Z$/:00Z/" >preview &&
	runs "$id" | cut -f2 >fired &&
	test_cmp preview fired
'

test_expect_success 'an interval fires in real time across the fall-back change, as task-when lists it' '
	id=$(TASK_NOW=2026-10-24T20:00:00Z task-add --every 5h --from "2026-10-24 22:00" \
		--tz Europe/London --exec true iv) &&
	task-when --utc --tz Europe/London -n 4 --every 5h --from "2026-10-24 22:00" >preview &&
	tick 2026-10-24T21:00:05Z 2026-10-25T02:00:05Z 2026-10-25T07:00:05Z 2026-10-25T12:00:05Z >out &&
	runs "$id" | cut -f2 >fired &&
	test_cmp preview fired &&
	cat >expect <<-\EOF &&
	2026-10-24T21:00:00Z
	2026-10-25T02:00:00Z
	2026-10-25T07:00:00Z
	2026-10-25T12:00:00Z
	EOF
	test_cmp expect fired
'

test_expect_success '--not-before: nothing before it, then on schedule' '
	id=$(TASK_NOW=2026-11-23T00:00:00Z task-add --every 1h --from "2026-11-23 00:00" \
		--not-before "2026-11-23 03:30" --exec true nb) &&
	tick 2026-11-23T01:00:05Z 2026-11-23T02:00:05Z 2026-11-23T03:00:05Z 2026-11-23T04:00:05Z \
		2026-11-23T05:00:05Z >out &&
	runs "$id" >actual &&
	printf "schedule\t2026-11-23T0%s:00:00Z\tsuccess\n" 4 5 >expect &&
	test_cmp expect actual
'

test_expect_success 'missed runs of an interval: once, skip and all' '
	for m in once skip all; do
		TASK_NOW=2026-11-23T00:00:00Z task-add --every 2h --from "2026-11-23 02:00" --missed $m \
			--exec true --name $m "p $m" >id.$m || return 1
	done &&
	tick 2026-11-23T07:30:00Z 2026-11-23T07:31:00Z 2026-11-23T07:32:00Z >out &&
	runs "$(cat id.once)" >actual &&
	printf "catchup\t2026-11-23T06:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	runs "$(cat id.skip)" >actual &&
	printf "catchup\t2026-11-23T06:00:00Z\tskipped\n" >expect &&
	test_cmp expect actual &&
	runs "$(cat id.all)" >actual &&
	printf "catchup\t2026-11-23T0%s:00:00Z\tsuccess\n" 2 4 6 >expect &&
	test_cmp expect actual &&
	for m in once skip all; do
		task-show --json "$(cat id.$m)" | grep -o "\"next_run_at\":\"[^\"]*\"" || return 1
	done >actual &&
	printf "\"next_run_at\":\"2026-11-23T08:00:00Z\"\n%.0s" 1 2 3 >expect &&
	test_cmp expect actual
'

test_expect_success 'an interval that ends: --count fires that many, then the task is completed' '
	id=$(TASK_NOW=2026-11-23T00:00:00Z task-add --every 90m --from "2026-11-23 01:00" --count 3 \
		--exec true counted) &&
	tick 2026-11-23T01:00:05Z 2026-11-23T02:30:05Z 2026-11-23T04:00:05Z 2026-11-23T05:30:05Z >out &&
	runs "$id" | cut -f2 >actual &&
	printf "2026-11-23T%s:00Z\n" 01:00 02:30 04:00 >expect &&
	test_cmp expect actual &&
	task-show --json "$id" | grep -o "\"status\":\"[a-z]*\",\"next_run_at\":null" >actual &&
	echo "\"status\":\"completed\",\"next_run_at\":null" >expect &&
	test_cmp expect actual
'

test_done
