#!/bin/sh
# store: none
# task-when: cron expressions, nicknames and time expressions, in zones,
# from a given instant, as RFC 3339 lines, UTC, descriptions and JSON; and
# the exit status 2 with one error line for everything it refuses.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

test_expect_success 'the next instant of a cron expression, in the zone' '
	task-when --tz Europe/Berlin "0 7 * * *" >actual &&
	echo 2026-11-23T07:00:00+01:00 >expect &&
	test_cmp expect actual
'

test_expect_success 'the expression may come as several words' '
	task-when --tz Europe/Berlin -n 3 0 7 "*" "*" 1 >actual &&
	cat >expect <<-\EOF &&
	2026-11-23T07:00:00+01:00
	2026-11-30T07:00:00+01:00
	2026-12-07T07:00:00+01:00
	EOF
	test_cmp expect actual
'

test_expect_success 'options may follow the schedule' '
	task-when "0 7 * * *" --tz Asia/Kolkata --utc >actual &&
	echo 2026-11-23T01:30:00Z >expect &&
	test_cmp expect actual
'

test_expect_success '--utc prints Z instants' '
	task-when --utc -n 2 @hourly >actual &&
	printf "2026-11-22T11:00:00Z\n2026-11-22T12:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'the zone defaults to TZ' '
	TZ=America/New_York task-when @daily >actual &&
	echo 2026-11-23T00:00:00-05:00 >expect &&
	test_cmp expect actual
'

test_expect_success '--from counts strictly after an instant, in the past too' '
	task-when --tz America/New_York --from 2026-03-07T12:00:00Z -n 3 "30 2 * * *" >actual &&
	cat >expect <<-\EOF &&
	2026-03-08T03:00:00-04:00
	2026-03-09T02:30:00-04:00
	2026-03-10T02:30:00-04:00
	EOF
	test_cmp expect actual
'

test_expect_success 'the fall-back: a fixed-time job fires once, a wildcard job twice' '
	task-when --tz America/New_York --from "2026-10-31 12:00" -n 2 "30 1 * * *" >actual &&
	printf "2026-11-01T01:30:00-04:00\n2026-11-02T01:30:00-05:00\n" >expect &&
	test_cmp expect actual &&
	task-when --tz America/New_York --from "2026-11-01 00:45" -n 3 "30 * * * *" >actual &&
	cat >expect <<-\EOF &&
	2026-11-01T01:30:00-04:00
	2026-11-01T01:30:00-05:00
	2026-11-01T02:30:00-05:00
	EOF
	test_cmp expect actual
'

test_expect_success 'Lord Howe and Chatham' '
	task-when --tz Australia/Lord_Howe --from 2026-10-03T00:00:00Z -n 2 "15 2 * * *" >actual &&
	printf "2026-10-04T02:30:00+11:00\n2026-10-05T02:15:00+11:00\n" >expect &&
	test_cmp expect actual &&
	task-when --tz Pacific/Chatham --from 2026-09-26T00:00:00Z "0 3 * * *" >actual &&
	echo 2026-09-27T03:45:00+13:45 >expect &&
	test_cmp expect actual
'

test_expect_success '--describe prints the description first' '
	task-when --describe --tz Europe/London -n 2 "0 9 * * 1-5" >actual &&
	cat >expect <<-\EOF &&
	Weekdays at 09:00
	2026-11-23T09:00:00+00:00
	2026-11-24T09:00:00+00:00
	EOF
	test_cmp expect actual
'

test_expect_success '--describe reads steps within hours, days of the month and months as words' '
	task-when --describe --tz Europe/London -n 3 "*/30 9-17 * * 1-5" >actual &&
	cat >expect <<-\EOF &&
	Every 30 minutes from 09:00 to 17:30, Monday to Friday
	2026-11-23T09:00:00+00:00
	2026-11-23T09:30:00+00:00
	2026-11-23T10:00:00+00:00
	EOF
	test_cmp expect actual &&
	for e in "0 9 1,15 * *" "0 0 13 * 5" "0 9 * 1-6 *" "0,7,13 * * * *"; do
		task-when --describe -n 1 "$e" | head -n 1 || return 1
	done >actual &&
	cat >expect <<-\EOF &&
	At 09:00 on days 1 and 15
	At 00:00 on day 13 and on Fridays
	Daily at 09:00 from January to June
	0,7,13 * * * *
	EOF
	test_cmp expect actual
'

test_expect_success 'a time expression prints its one instant' '
	task-when --tz Europe/London "tomorrow at 10am" >actual &&
	echo 2026-11-23T10:00:00+00:00 >expect &&
	test_cmp expect actual &&
	task-when --tz America/New_York --utc in 2 hours >actual &&
	echo 2026-11-22T12:00:00Z >expect &&
	test_cmp expect actual &&
	task-when --describe --tz Europe/London "Dec 25 at 7am" >actual &&
	printf "Once on 2026-12-25 at 07:00\n2026-12-25T07:00:00+00:00\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a time expression of four words or more that starts with a number' '
	task-when --tz Europe/London "5 minutes from now" >actual &&
	echo 2026-11-22T10:05:00+00:00 >expect &&
	test_cmp expect actual &&
	task-when --tz Europe/London 1 hour and 30 minutes from now >actual &&
	echo 2026-11-22T11:30:00+00:00 >expect &&
	test_cmp expect actual &&
	task-when --tz Europe/London "1 may at 9" >actual &&
	echo 2027-05-01T09:00:00+01:00 >expect &&
	test_cmp expect actual &&
	test_expect_code 2 task-when --tz Europe/London "15 may 2020 at 9" >out 2>err &&
	grep -q "in the past" err &&
	test_expect_code 2 task-when "0 7 * blorp *" 2>err &&
	grep -q "bad month field" err &&
	test_expect_code 2 task-when "0 7 1 2" 2>err &&
	grep -q "expected 5 fields" err
'

test_expect_success 'a time expression is read at --from' '
	task-when --tz Europe/London --from 2026-01-01T09:00:00Z "in 30 minutes" >actual &&
	echo 2026-01-01T09:30:00+00:00 >expect &&
	test_cmp expect actual
'

test_expect_success '--json prints one object per instant' '
	task-when --json --describe --tz Europe/Berlin -n 2 "@daily" >actual &&
	cat >expect <<-\EOF &&
	{"at":"2026-11-22T23:00:00Z","local":"2026-11-23T00:00:00+01:00","tz":"Europe/Berlin","description":"Daily at 00:00"}
	{"at":"2026-11-23T23:00:00Z","local":"2026-11-24T00:00:00+01:00","tz":"Europe/Berlin","description":"Daily at 00:00"}
	EOF
	test_cmp expect actual &&
	task-when --json --tz UTC "2026-12-01T07:00:00Z" >actual &&
	echo "{\"at\":\"2026-12-01T07:00:00Z\",\"local\":\"2026-12-01T07:00:00+00:00\",\"tz\":\"UTC\"}" >expect &&
	test_cmp expect actual
'

test_expect_success 'an invalid cron expression: exit 2, one line naming the field' '
	test_expect_code 2 task-when "0 25 * * *" >out 2>err &&
	test_cmp /dev/null out &&
	echo "task-when: bad hour field '\''25'\'': 25 is out of range 0-23" >expect &&
	test_cmp expect err
'

test_expect_success 'an expression that can never fire: exit 2' '
	test_expect_code 2 task-when "0 0 30 2 *" >out 2>err &&
	echo "task-when: '\''0 0 30 2 *'\'' can never fire (February has no day 30)" >expect &&
	test_cmp expect err
'

test_expect_success 'one that never fires in the zone: exit 2' '
	test_expect_code 2 task-when --tz America/New_York "* 2 8 3 */7" >out 2>err &&
	test_one_line err &&
	grep -q "never fires after" err
'

test_expect_success 'a time in the past: exit 2, in the zone' '
	test_expect_code 2 task-when --tz Europe/London "2026-01-01 09:00" >out 2>err &&
	echo "task-when: '\''2026-01-01 09:00'\'' is 2026-01-01 09:00 GMT in Europe/London, which is in the past" >expect &&
	test_cmp expect err
'

test_expect_success 'not understood: exit 2 and what to try' '
	test_expect_code 2 task-when --tz Europe/London blorp >out 2>err &&
	echo "task-when: cannot understand time '\''blorp'\'' (read in Europe/London): unknown word '\''blorp'\''; try '\''tomorrow at 10am'\'', '\''in 2 hours'\'' or 2026-11-23T07:00:00Z" >expect &&
	test_cmp expect err
'

test_expect_success 'unknown zone, @reboot, bad -n, no schedule, bad --from: exit 2' '
	test_expect_code 2 task-when --tz Mars/Base @daily 2>err &&
	echo "task-when: unknown time zone '\''Mars/Base'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-when @reboot 2>err && test_one_line err &&
	test_expect_code 2 task-when -n 0 @daily 2>err && test_one_line err &&
	test_expect_code 2 task-when 2>err && test_one_line err &&
	test_expect_code 2 task-when --from blorp @daily 2>err && test_one_line err &&
	test_expect_code 2 task-when --tz ../../etc/passwd @daily 2>err && test_one_line err &&
	test_expect_code 2 task-when --bogus @daily 2>err && test_one_line err
'

test_expect_success 'a schedule with a newline in it: still one error line' '
	nl="
" &&
	test_expect_code 2 task-when "tomorrow${nl}blorp" 2>err && test_one_line err &&
	test_expect_code 2 task-when --tz America/New_York "* 2 8 3${nl}*/7" 2>err &&
	test_one_line err
'

test_expect_success 'TASK_NOW that is not RFC 3339: exit 2' '
	TASK_NOW=yesterday test_expect_code 2 task-when @daily 2>err &&
	test_one_line err
'

test_expect_success '--help and --version' '
	task-when --help >out && grep -q "^usage: task-when" out &&
	task-when --version >out && grep -q "^task-when " out
'

test_done
