#!/bin/sh
# task-when --until and --count: a cron schedule that ends lists every
# instant up to its end (or -n of them), --describe says the end, and the
# refusals are task-add's; across London's DST changes too.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T09:30:00Z

test_expect_success '--until: every instant through the end, the end included' '
	task-when --tz Europe/London --describe --until 17:00 "0 * * * *" >actual &&
	cat >expect <<-\EOF &&
	Hourly at :00 until 2026-11-23 17:00
	2026-11-23T10:00:00+00:00
	2026-11-23T11:00:00+00:00
	2026-11-23T12:00:00+00:00
	2026-11-23T13:00:00+00:00
	2026-11-23T14:00:00+00:00
	2026-11-23T15:00:00+00:00
	2026-11-23T16:00:00+00:00
	2026-11-23T17:00:00+00:00
	EOF
	test_cmp expect actual
'

test_expect_success '--count: that many instants; -n lists fewer, never more' '
	task-when --tz Europe/London --describe --count 3 "0 9 * * *" >actual &&
	cat >expect <<-\EOF &&
	Daily at 09:00, 3 times
	2026-11-24T09:00:00+00:00
	2026-11-25T09:00:00+00:00
	2026-11-26T09:00:00+00:00
	EOF
	test_cmp expect actual &&
	task-when --tz Europe/London -n 2 --count 3 "0 9 * * *" >actual &&
	sed -n "2,3p" expect >expect2 &&
	test_cmp expect2 actual &&
	task-when --tz Europe/London -n 10 --count 3 --utc "0 9 * * *" >actual &&
	printf "2026-11-2%sT09:00:00Z\n" 4 5 6 >expect &&
	test_cmp expect actual
'

test_expect_success 'both: the earlier end wins; --json carries the description' '
	task-when --tz Europe/London --count 5 --until "wed 12:00" --json --describe "0 9 * * *" >actual &&
	cat >expect <<-\EOF &&
	{"at":"2026-11-24T09:00:00Z","local":"2026-11-24T09:00:00+00:00","tz":"Europe/London","description":"Daily at 09:00 until 2026-11-25 12:00, 5 times"}
	{"at":"2026-11-25T09:00:00Z","local":"2026-11-25T09:00:00+00:00","tz":"Europe/London","description":"Daily at 09:00 until 2026-11-25 12:00, 5 times"}
	EOF
	test_cmp expect actual
'

test_expect_success '--from moves the start the end is armed from' '
	task-when --tz Europe/London --from "2026-12-01 08:00" --count 2 "0 9 * * 1" >actual &&
	printf "2026-12-07T09:00:00+00:00\n2026-12-14T09:00:00+00:00\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'fall back: a wildcard job with --until inside the repeated hour' '
	task-when --tz Europe/London --from 2026-10-24T23:10:00Z --until "2026-10-25 01:45" \
		"*/30 * * * *" >actual &&
	cat >expect <<-\EOF &&
	2026-10-25T00:30:00+01:00
	2026-10-25T01:00:00+01:00
	2026-10-25T01:30:00+01:00
	EOF
	test_cmp expect actual &&
	task-when --tz Europe/London --from 2026-10-24T23:10:00Z --until "2026-10-25 01:45 GMT" \
		"*/30 * * * *" >actual &&
	cat >expect <<-\EOF &&
	2026-10-25T00:30:00+01:00
	2026-10-25T01:00:00+01:00
	2026-10-25T01:30:00+01:00
	2026-10-25T01:00:00+00:00
	2026-10-25T01:30:00+00:00
	EOF
	test_cmp expect actual
'

test_expect_success 'spring forward and fall back: a fixed-time job counted over the change' '
	task-when --tz Europe/London --from 2026-03-27T12:00:00Z --count 3 --describe "30 1 * * *" >actual &&
	cat >expect <<-\EOF &&
	Daily at 01:30, 3 times
	2026-03-28T01:30:00+00:00
	2026-03-29T02:00:00+01:00
	2026-03-30T01:30:00+01:00
	EOF
	test_cmp expect actual &&
	task-when --tz Europe/London --from 2026-10-23T12:00:00Z --count 3 "30 1 * * *" >actual &&
	cat >expect <<-\EOF &&
	2026-10-24T01:30:00+01:00
	2026-10-25T01:30:00+01:00
	2026-10-26T01:30:00+00:00
	EOF
	test_cmp expect actual
'

test_expect_success 'refused in one line, exit 2, nothing printed' '
	while IFS="|" read -r args msg; do
		eval "test_expect_code 2 task-when --tz Europe/London $args" >out 2>err &&
		test ! -s out && echo "task-when: $msg" >expect && test_cmp expect err || return 1
	done <<-\EOF
	--until yesterday @daily|--until: '"'"'yesterday'"'"' is 2026-11-22 09:30 GMT in Europe/London, which is in the past
	--until 23:00 @daily|--until 2026-11-23 23:00 GMT comes before the first occurrence, 2026-11-24 00:00 GMT; it would never run
	--from 2026-12-01 --until 2026-11-30 @daily|--until: '"'"'2026-11-30'"'"' is 2026-11-30 00:00 GMT in Europe/London, which is in the past
	--count 0 @daily|bad --count '"'"'0'"'"': expected a number of occurrences from 1 to 100000
	--count -2 @daily|bad --count '"'"'-2'"'"': expected a number of occurrences from 1 to 100000
	--count 100001 @daily|bad --count '"'"'100001'"'"': expected a number of occurrences from 1 to 100000
	--count 2 "tomorrow at 10am"|--until and --count end a cron schedule; '"'"'tomorrow at 10am'"'"' is one instant
	--until friday "in 2 hours"|--until and --count end a cron schedule; '"'"'in 2 hours'"'"' is one instant
	--until "when pigs fly" @daily|--until: cannot understand time '"'"'when pigs fly'"'"' (read in Europe/London): unknown word '"'"'when'"'"'; try '"'"'tomorrow at 10am'"'"', '"'"'in 2 hours'"'"' or 2026-11-23T07:00:00Z
	EOF
'

test_expect_success 'date_order = dmy reads --until day first' '
	mkdir -p config/agentcron && echo "date_order = dmy" >config/agentcron/config &&
	task-when --tz UTC --describe --until "2/12/2026" "0 12 * * *" >actual &&
	rm config/agentcron/config &&
	cat >expect <<-\EOF &&
	Daily at 12:00 until 2026-12-02 00:00
	2026-11-23T12:00:00+00:00
	2026-11-24T12:00:00+00:00
	2026-11-25T12:00:00+00:00
	2026-11-26T12:00:00+00:00
	2026-11-27T12:00:00+00:00
	2026-11-28T12:00:00+00:00
	2026-11-29T12:00:00+00:00
	2026-11-30T12:00:00+00:00
	2026-12-01T12:00:00+00:00
	EOF
	test_cmp expect actual
'

test_done
