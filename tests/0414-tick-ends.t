#!/bin/sh
# Recurrences that end, fired by task-tick with TASK_NOW moving time: an
# --until fires through its end and a --count that many times, then the
# task is completed; a catch-up after days of downtime never fires past the
# end under any missed policy; London's spring-forward and fall-back
# changes; a copied task goes on where the original was.
. "$AC_TOP/tests/lib.sh"

# runs ID: trigger, slot and status of the task's runs, oldest slot first.
runs() {
	task-log --limit 0 --task "$1" | cut -f5-7 | sort -k2
}

# state ID: status, next run and end of the task.
state() {
	task-show --json "$1" | sed 's/.*"status":"\([^"]*\)","next_run_at":\([^,]*\),.*"ends_at":\([^,]*\),.*/\1 \2 \3/'
}

# tick TIME...: one task-tick pass at each instant.
tick() {
	for at; do TASK_NOW=$at task-tick || return 1; done
}

test_expect_success 'every hour until 17:00 fires through 17:00, then is completed' '
	id=$(TASK_NOW=2026-11-23T09:30:00Z task-add --cron "0 * * * *" --until 17:00 --tz Europe/London \
		--exec true hourly) &&
	tick 2026-11-23T10:00:05Z 2026-11-23T11:00:05Z 2026-11-23T12:00:05Z 2026-11-23T13:00:05Z \
		2026-11-23T14:00:05Z 2026-11-23T15:00:05Z 2026-11-23T16:00:05Z >out &&
	echo "pending \"2026-11-23T17:00:00Z\" \"2026-11-23T17:00:00Z\"" >expect &&
	state "$id" >actual && test_cmp expect actual &&
	tick 2026-11-23T17:00:05Z 2026-11-23T18:00:05Z 2026-11-24T17:00:05Z >>out &&
	test "$(wc -l <out)" -eq 8 &&
	runs "$id" >actual &&
	for h in 10 11 12 13 14 15 16 17; do
		printf "schedule\t2026-11-23T%s:00:00Z\tsuccess\n" $h || return 1
	done >expect &&
	test_cmp expect actual &&
	echo "completed null \"2026-11-23T17:00:00Z\"" >expect &&
	state "$id" >actual && test_cmp expect actual &&
	TASK_NOW=2026-11-24T17:00:05Z task-show "$id" | sed -n "/^status:/p; /^next run:/p; /^ends:/p" >actual &&
	cat >expect <<-\EOF &&
	status:       completed
	next run:     none
	ends:         2026-11-23 17:00 GMT (until)
	EOF
	test_cmp expect actual
'

test_expect_success 'daily at 09:00, 7 times: fires 7 times and completes' '
	id=$(TASK_NOW=2026-11-23T08:00:00Z task-add --daily 09:00 --count 7 --tz Europe/London \
		--exec true seven) &&
	for d in 23 24 25 26 27 28 29 30; do tick 2026-11-${d}T09:00:30Z || return 1; done >out &&
	tick 2026-12-01T09:00:30Z 2026-12-02T09:00:30Z >>out &&
	test "$(wc -l <out)" -eq 7 &&
	runs "$id" | cut -f2 >actual &&
	printf "2026-11-2%sT09:00:00Z\n" 3 4 5 6 7 8 9 >expect &&
	test_cmp expect actual &&
	echo "completed null \"2026-11-29T09:00:00Z\"" >expect &&
	state "$id" >actual && test_cmp expect actual
'

# A task added on the 20th at 09:30, fired at 10:00, then three days down.
downtime() {
	id=$(TASK_NOW=2026-11-20T09:30:00Z task-add --cron "0 * * * *" --until 17:00 --tz Europe/London \
		--missed "$1" --exec true "down $1") &&
	cid=$(TASK_NOW=2026-11-20T08:00:00Z task-add --daily 09:00 --count 3 --tz Europe/London \
		--missed "$1" --exec true "count $1") &&
	tick 2026-11-20T09:00:05Z 2026-11-20T10:00:05Z >/dev/null
}

test_expect_success 'catch-up after 3 days down, missed once: one run, the last occurrence, then done' '
	downtime once &&
	tick 2026-11-23T07:10:00Z 2026-11-23T08:10:00Z 2026-11-24T09:10:00Z >/dev/null &&
	runs "$id" >actual &&
	printf "schedule\t2026-11-20T10:00:00Z\tsuccess\ncatchup\t2026-11-20T17:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	runs "$cid" >actual &&
	printf "schedule\t2026-11-20T09:00:00Z\tsuccess\ncatchup\t2026-11-22T09:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	state "$id" >actual && echo "completed null \"2026-11-20T17:00:00Z\"" >expect && test_cmp expect actual &&
	state "$cid" >actual && echo "completed null \"2026-11-22T09:00:00Z\"" >expect && test_cmp expect actual
'

test_expect_success '... missed skip: the skip on record, nothing fired past the end, done' '
	downtime skip &&
	tick 2026-11-23T07:10:00Z 2026-11-23T08:10:00Z 2026-11-24T09:10:00Z >out &&
	test ! -s out &&
	runs "$id" >actual &&
	printf "schedule\t2026-11-20T10:00:00Z\tsuccess\ncatchup\t2026-11-20T17:00:00Z\tskipped\n" >expect &&
	test_cmp expect actual &&
	runs "$cid" >actual &&
	printf "schedule\t2026-11-20T09:00:00Z\tsuccess\ncatchup\t2026-11-22T09:00:00Z\tskipped\n" >expect &&
	test_cmp expect actual &&
	state "$id" >actual && echo "completed null \"2026-11-20T17:00:00Z\"" >expect && test_cmp expect actual &&
	state "$cid" >actual && echo "completed null \"2026-11-22T09:00:00Z\"" >expect && test_cmp expect actual
'

test_expect_success '... missed all: each missed occurrence up to the end, one per pass, then done' '
	downtime all &&
	i=0 && while [ $i -lt 12 ]; do tick 2026-11-23T07:10:00Z >/dev/null || return 1; i=$((i + 1)); done &&
	runs "$id" >actual &&
	printf "schedule\t2026-11-20T10:00:00Z\tsuccess\n" >expect &&
	for h in 11 12 13 14 15 16 17; do
		printf "catchup\t2026-11-20T%s:00:00Z\tsuccess\n" $h || return 1
	done >>expect &&
	test_cmp expect actual &&
	runs "$cid" >actual &&
	printf "schedule\t2026-11-20T09:00:00Z\tsuccess\ncatchup\t2026-11-21T09:00:00Z\tsuccess\ncatchup\t2026-11-22T09:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	state "$id" >actual && echo "completed null \"2026-11-20T17:00:00Z\"" >expect && test_cmp expect actual &&
	state "$cid" >actual && echo "completed null \"2026-11-22T09:00:00Z\"" >expect && test_cmp expect actual
'

test_expect_success 'fall back: a wildcard job with --until inside the repeated hour, in either pass' '
	id=$(TASK_NOW=2026-10-24T22:50:00Z task-add --cron "*/30 * * * *" --until "2026-10-25 01:45" \
		--tz Europe/London --exec true "fall first") &&
	id2=$(TASK_NOW=2026-10-24T22:50:00Z task-add --cron "*/30 * * * *" --until "2026-10-25 01:45 GMT" \
		--tz Europe/London --exec true "fall second") &&
	tick 2026-10-24T23:00:05Z 2026-10-24T23:30:05Z 2026-10-25T00:00:05Z 2026-10-25T00:30:05Z \
		2026-10-25T01:00:05Z 2026-10-25T01:30:05Z 2026-10-25T02:00:05Z >/dev/null &&
	runs "$id" | cut -f2 >actual &&
	printf "%s\n" 2026-10-24T23:00:00Z 2026-10-24T23:30:00Z 2026-10-25T00:00:00Z 2026-10-25T00:30:00Z >expect &&
	test_cmp expect actual &&
	echo "completed null \"2026-10-25T00:45:00Z\"" >expect &&
	state "$id" >actual && test_cmp expect actual &&
	runs "$id2" | cut -f2 >actual &&
	printf "%s\n" 2026-10-24T23:00:00Z 2026-10-24T23:30:00Z 2026-10-25T00:00:00Z 2026-10-25T00:30:00Z \
		2026-10-25T01:00:00Z 2026-10-25T01:30:00Z >expect &&
	test_cmp expect actual &&
	echo "completed null \"2026-10-25T01:45:00Z\"" >expect &&
	state "$id2" >actual && test_cmp expect actual
'

test_expect_success 'spring forward: a fixed-time job with --count over the change' '
	id=$(TASK_NOW=2026-03-27T12:00:00Z task-add --cron "30 1 * * *" --count 3 --tz Europe/London \
		--exec true "spring") &&
	tick 2026-03-28T01:30:05Z 2026-03-29T00:30:05Z 2026-03-29T01:00:05Z 2026-03-30T00:30:05Z \
		2026-03-31T00:30:05Z >out &&
	test "$(wc -l <out)" -eq 3 &&
	runs "$id" >actual &&
	printf "schedule\t%s\tsuccess\n" 2026-03-28T01:30:00Z 2026-03-29T01:00:00Z 2026-03-30T00:30:00Z >expect &&
	test_cmp expect actual &&
	echo "completed null \"2026-03-30T00:30:00Z\"" >expect &&
	state "$id" >actual && test_cmp expect actual
'

test_expect_success 'fall back: a fixed-time job with --count fires once in the repeated hour' '
	id=$(TASK_NOW=2026-10-23T12:00:00Z task-add --cron "30 1 * * *" --count 3 --tz Europe/London \
		--exec true "fall count") &&
	tick 2026-10-24T00:30:05Z 2026-10-25T00:30:05Z 2026-10-25T01:30:05Z 2026-10-26T01:30:05Z \
		2026-10-27T01:30:05Z >out &&
	test "$(wc -l <out)" -eq 3 &&
	runs "$id" >actual &&
	printf "schedule\t%s\tsuccess\n" 2026-10-24T00:30:00Z 2026-10-25T00:30:00Z 2026-10-26T01:30:00Z >expect &&
	test_cmp expect actual &&
	echo "completed null \"2026-10-26T01:30:00Z\"" >expect &&
	state "$id" >actual && test_cmp expect actual
'

test_expect_success 'a task copied mid-way goes on to the same end, not a new count' '
	id=$(TASK_NOW=2026-11-23T08:00:00Z task-add --daily 09:00 --count 4 --tz Europe/London \
		--exec true "copied") &&
	tick 2026-11-23T09:00:30Z 2026-11-24T09:00:30Z >/dev/null &&
	task-show --json "$id" | sed "s/,\"runs\":\[.*\]}\$/}/" >task.json &&
	copy=$(new_store copy) &&
	TASK_DB=$copy TASK_NOW=2026-11-24T12:00:00Z task-add --json - <task.json >/dev/null &&
	for d in 25 26 27 28; do
		TASK_DB=$copy tick 2026-11-${d}T09:00:30Z || return 1
	done >out &&
	test "$(wc -l <out)" -eq 2 &&
	TASK_DB=$copy task-log --limit 0 | cut -f6 | sort >actual &&
	printf "2026-11-25T09:00:00Z\n2026-11-26T09:00:00Z\n" >expect &&
	test_cmp expect actual &&
	TASK_DB=$copy state "$id" >actual &&
	echo "completed null \"2026-11-26T09:00:00Z\"" >expect && test_cmp expect actual
'

test_done
