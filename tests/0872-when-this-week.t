#!/bin/sh
# "this week" and "this weekend" at exact instants: Monday to Friday "this
# weekend" is Saturday at the present time of day; said within the week or
# the weekend they are the first of its days whose noon (or the time given)
# is still ahead; with no noon left they are refused with advice.  Across
# the DST changes of New York, London and Sydney, in task-when and task-add.
. "$AC_TOP/tests/lib.sh"

# when ZONE NOW EXPRESSION: the instant, in UTC.
when() {
	TZ=$1 TASK_NOW=$2 task-when --utc "$3"
}

test_expect_success 'Monday to Friday, the weekend is Saturday at the time of day; the week is today' '
	{
		when America/New_York 2026-03-06T15:00:00Z "this weekend" &&
		when America/New_York 2026-03-06T15:00:00Z "this weekend at 10am" &&
		when America/New_York 2026-03-06T15:00:00Z "this week" &&
		when America/New_York 2026-03-06T18:00:00Z "this week" &&
		when Europe/London 2026-11-23T08:00:00Z "the weekend" &&
		when Europe/London 2026-11-23T08:00:00Z "this week at 6pm"
	} >actual &&
	cat >expect <<-\EOF &&
	2026-03-07T15:00:00Z
	2026-03-07T15:00:00Z
	2026-03-06T17:00:00Z
	2026-03-07T17:00:00Z
	2026-11-28T08:00:00Z
	2026-11-23T18:00:00Z
	EOF
	test_cmp expect actual
'

test_expect_success 'within the weekend: today at noon while ahead, then Sunday, across DST' '
	{
		# New York springs forward on Sunday 2026-03-08 at 02:00 (EST to EDT).
		when America/New_York 2026-03-07T16:00:00Z "this weekend" &&
		when America/New_York 2026-03-07T20:00:00Z "this weekend" &&
		when America/New_York 2026-03-07T20:00:00Z "this week" &&
		when America/New_York 2026-03-07T20:00:00Z "this weekend at 2:30am" &&
		when America/New_York 2026-03-08T06:30:00Z "this weekend" &&
		# London falls back on Sunday 2026-10-25 at 02:00 (BST to GMT).
		when Europe/London 2026-10-24T13:00:00Z "this weekend" &&
		when Europe/London 2026-10-24T13:00:00Z "this weekend at 1:30am" &&
		# Sydney springs forward on Sunday 2026-10-04 at 02:00 (AEST to AEDT).
		when Australia/Sydney 2026-10-03T15:00:00Z "this week" &&
		when Australia/Sydney 2026-10-03T15:00:00Z "this weekend at 2:30am"
	} >actual &&
	cat >expect <<-\EOF &&
	2026-03-07T17:00:00Z
	2026-03-08T16:00:00Z
	2026-03-08T16:00:00Z
	2026-03-08T07:30:00Z
	2026-03-08T16:00:00Z
	2026-10-25T12:00:00Z
	2026-10-25T00:30:00Z
	2026-10-04T01:00:00Z
	2026-10-03T16:30:00Z
	EOF
	test_cmp expect actual
'

test_expect_success 'no noon left: refused with advice (exit 2), a time given still works' '
	test_expect_code 2 env TZ=Europe/London TASK_NOW=2026-11-22T14:30:00Z task-when "this week" \
		>out 2>err &&
	echo "task-when: cannot understand time '\''this week'\'' (read in Europe/London): this week has no noon left ahead; name a time, as in '\''this week at 6pm'\'', or say '\''next week'\''" >expect &&
	test_cmp expect err && test ! -s out &&
	test_expect_code 2 env TZ=Europe/London TASK_NOW=2026-11-22T14:30:00Z task-when "this weekend" \
		>out 2>err &&
	grep -q "this weekend has no noon left ahead; name a time, as in .this weekend at 6pm., or say .next weekend.$" err &&
	when Europe/London 2026-11-22T14:30:00Z "this weekend at 6pm" >actual &&
	echo 2026-11-22T18:00:00Z >expect && test_cmp expect actual &&
	test_expect_code 2 env TZ=Europe/London TASK_NOW=2026-11-22T19:00:00Z task-when \
		"this week at 6pm" >out 2>err &&
	grep -q "which is in the past$" err
'

test_expect_success 'task-add --at reads them the same' '
	TZ=America/New_York TASK_NOW=2026-03-07T20:00:00Z task-add --at "this weekend" --name w \
		--exec true x >id &&
	TZ=America/New_York TASK_NOW=2026-03-07T20:00:00Z task-when --utc --id "$(cat id)" >actual &&
	echo 2026-03-08T16:00:00Z >expect && test_cmp expect actual &&
	test_expect_code 2 env TZ=Europe/London TASK_NOW=2026-11-22T14:30:00Z task-add \
		--at "this week" --name w2 --exec true x >out 2>err &&
	test ! -s out && task-ls | wc -l | tr -d " " >n && echo 1 >expect && test_cmp expect n
'

test_done
