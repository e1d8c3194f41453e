#!/bin/sh
# store: none
# task-when previews intervals (--every, 'every 90 minutes'), several cron
# expressions and --not-before as task-add reads them: the instants, the
# description, the ends, DST in real time, and the refusals.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T12:00:00Z

test_expect_success '--every from an anchor: the anchor first, then each interval' '
	task-when --tz Europe/London -d -n 4 --every 90m --from "2026-11-23 10:00" >actual &&
	cat >expect <<-\EOF &&
	Every 90 minutes from 2026-11-23 10:00
	2026-11-23T10:00:00+00:00
	2026-11-23T11:30:00+00:00
	2026-11-23T13:00:00+00:00
	2026-11-23T14:30:00+00:00
	EOF
	test_cmp expect actual
'

test_expect_success '--every without --from counts from now, to the minute; an anchor in the past keeps its phase' '
	TASK_NOW=2026-11-22T12:00:42Z task-when --utc -d -n 2 --every 2h30m >actual &&
	cat >expect <<-\EOF &&
	Every 2 hours 30 minutes from 2026-11-22 12:00
	2026-11-22T14:30:00Z
	2026-11-22T17:00:00Z
	EOF
	test_cmp expect actual &&
	task-when --utc -n 2 "every 7 hours from 2026-11-01 00:00" >actual &&
	printf "2026-11-22T14:00:00Z\n2026-11-22T21:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'an interval in words, with an anchor in words' '
	task-when --tz Europe/London -d -n 2 "every 2 hours from 9am" >actual &&
	cat >expect <<-\EOF &&
	Every 2 hours from 2026-11-23 09:00
	2026-11-23T09:00:00+00:00
	2026-11-23T11:00:00+00:00
	EOF
	test_cmp expect actual &&
	for w in "every 90 minutes" "Every 1h30m" "every an hour and 30 minutes" "every 90m"; do
		task-when -d --utc "$w" >actual &&
		printf "Every 90 minutes from 2026-11-22 12:00\n2026-11-22T13:30:00Z\n" >expect &&
		test_cmp expect actual || { echo "$w"; return 1; }
	done &&
	task-when -d --utc "every day" | head -1 >actual &&
	echo "Every day from 2026-11-22 12:00" >expect &&
	test_cmp expect actual
'

test_expect_success 'real time across DST: every 1d moves an hour on the wall clock, --daily does not' '
	task-when --tz Europe/London -n 3 --every 1d --from "2026-10-24 09:00" >actual &&
	cat >expect <<-\EOF &&
	2026-10-24T09:00:00+01:00
	2026-10-25T08:00:00+00:00
	2026-10-26T08:00:00+00:00
	EOF
	test_cmp expect actual &&
	task-when --tz Europe/London -n 3 --from "2026-10-24 08:00" --daily 09:00 >actual &&
	cat >expect <<-\EOF &&
	2026-10-24T09:00:00+01:00
	2026-10-25T09:00:00+00:00
	2026-10-26T09:00:00+00:00
	EOF
	test_cmp expect actual
'

test_expect_success 'an interval that ends, and one held back by --not-before' '
	task-when --utc -d --every 6h --from "2026-11-23 00:00" --count 3 >actual &&
	cat >expect <<-\EOF &&
	Every 6 hours from 2026-11-23 00:00, 3 times
	2026-11-23T00:00:00Z
	2026-11-23T06:00:00Z
	2026-11-23T12:00:00Z
	EOF
	test_cmp expect actual &&
	task-when --utc -d -n 2 --every 6h --from "2026-11-23 00:00" --not-before "2026-11-24 01:00" >actual &&
	cat >expect <<-\EOF &&
	Every 6 hours from 2026-11-23 00:00, not before 2026-11-24 01:00
	2026-11-24T06:00:00Z
	2026-11-24T12:00:00Z
	EOF
	test_cmp expect actual
'

test_expect_success 'several --cron (and --daily, --weekly): the union, each instant once' '
	task-when --tz Europe/London -d -n 6 --cron "0 7 * * 1-5" --cron "0 10 * * 6,0" \
		--cron "0 7 * * 1" --weekly "sun 18:00" >actual &&
	cat >expect <<-\EOF &&
	Weekdays at 07:00, weekends at 10:00, every Monday at 07:00 and every Sunday at 18:00
	2026-11-22T18:00:00+00:00
	2026-11-23T07:00:00+00:00
	2026-11-24T07:00:00+00:00
	2026-11-25T07:00:00+00:00
	2026-11-26T07:00:00+00:00
	2026-11-27T07:00:00+00:00
	EOF
	test_cmp expect actual &&
	task-when --utc -n 3 --cron "0 7 * * 1-5; 0 10 * * 6,0" >actual &&
	printf "2026-11-23T07:00:00Z\n2026-11-24T07:00:00Z\n2026-11-25T07:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'each expression keeps its DST rule: fixed-time once, wildcard in both passes' '
	task-when --tz Europe/London --from 2026-10-24T23:00:00Z -n 4 \
		--cron "30 1 * * *" --cron "45 * 25 10 *" >actual &&
	cat >expect <<-\EOF &&
	2026-10-25T00:45:00+01:00
	2026-10-25T01:30:00+01:00
	2026-10-25T01:45:00+01:00
	2026-10-25T01:45:00+00:00
	EOF
	test_cmp expect actual
'

test_expect_success '--not-before on a cron expression, given as flags or as SCHEDULE' '
	task-when --utc -d -n 2 --not-before "2026-12-24" "0 9 * * *" >actual &&
	cat >expect <<-\EOF &&
	Daily at 09:00, not before 2026-12-24 00:00
	2026-12-24T09:00:00Z
	2026-12-25T09:00:00Z
	EOF
	test_cmp expect actual &&
	task-when --utc -n 2 --not-before "2026-12-24" --daily 9am >actual2 &&
	sed 1d expect >expect2 && test_cmp expect2 actual2
'

test_expect_success '--json carries the description of each' '
	task-when --utc --json -d --every 1h --from "2026-11-23 10:00" >actual &&
	echo "{\"at\":\"2026-11-23T10:00:00Z\",\"local\":\"2026-11-23T10:00:00+00:00\",\"tz\":\"UTC\",\"description\":\"Every hour from 2026-11-23 10:00\"}" >expect &&
	test_cmp expect actual
'

test_expect_success 'refused, each in one line with exit 2' '
	while IFS="|" read -r args msg; do
		eval "test_expect_code 2 task-when $args" >out 2>err &&
		test_cmp /dev/null out &&
		echo "task-when: $msg" >expect &&
		test_cmp expect err || { echo "$args"; return 1; }
	done <<-\EOF
	--every 30s|bad --every '\''30s'\'': expected an interval from 1 minute to 366 days
	--every 400d|bad --every '\''400d'\'': expected an interval from 1 minute to 366 days
	--every 1mo|--every: bad interval '\''1mo'\'': write one such as 90m, 2h30m, 1d or '\''90 minutes'\''
	--every 2h --cron "0 * * * *"|give one schedule, not --every and --cron
	--cron "0 9 * * *" --cron "0 25 * * *"|cron expression 2 of 2 ('\''0 25 * * *'\''): bad hour field '\''25'\'': 25 is out of range 0-23
	--at tomorrow --not-before "next week"|--not-before holds back recurring tasks (--cron, --daily, --weekly, --every); a one-shot task (--at) has its own times
	--every 1h --not-before "2 hours ago"|--not-before: '\''2 hours ago'\'' is 2026-11-22 10:00 UTC in UTC, which is in the past
	"every monday at 9"|'\''every monday at 9'\'' is not an interval in real time (minutes, hours, days, weeks); a calendar recurrence (every monday, every day at 9am, every month) is --daily, --weekly or --cron
	"every month"|'\''every month'\'' is not an interval in real time (minutes, hours, days, weeks); a calendar recurrence (every monday, every day at 9am, every month) is --daily, --weekly or --cron
	--every 1h --until "in 30 minutes"|--until 2026-11-22 12:30 UTC comes before the first occurrence, 2026-11-22 13:00 UTC; it would never run
	EOF
'

test_done
