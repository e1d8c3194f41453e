#!/bin/sh
# task-when takes task-add's schedule flags (--cron, --at, --plan, --daily,
# --weekly) and reads them with task-add's own code: what it lists is what
# task-add would schedule, ends included, and it refuses what task-add
# refuses, with task-add's words.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:30:00Z

test_expect_success 'each schedule flag, listed' '
	task-when --tz Europe/London --describe --daily 9am --count 3 >actual &&
	cat >expect <<-\EOF &&
	Daily at 09:00, 3 times
	2026-11-23T09:00:00+00:00
	2026-11-24T09:00:00+00:00
	2026-11-25T09:00:00+00:00
	EOF
	test_cmp expect actual &&
	task-when --tz Europe/London -n 2 --weekly mon,thu 6:30pm >actual &&
	printf "%s\n" 2026-11-23T18:30:00+00:00 2026-11-26T18:30:00+00:00 >expect &&
	test_cmp expect actual &&
	task-when --utc --until "nov 24" --cron "0 */6 * * *" >actual &&
	printf "%s\n" 2026-11-23T12:00:00Z 2026-11-23T18:00:00Z 2026-11-24T00:00:00Z >expect &&
	test_cmp expect actual &&
	task-when --tz America/New_York --describe --at "tomorrow at 10am" >actual &&
	printf "%s\n" "Once on 2026-11-24 at 10:00" 2026-11-24T10:00:00-05:00 >expect &&
	test_cmp expect actual &&
	task-when --utc --plan "friday noon" --plan "tomorrow 9am" >actual &&
	printf "%s\n" 2026-11-24T09:00:00Z 2026-11-27T12:00:00Z >expect &&
	test_cmp expect actual
'

# The property the flags are for: the first instant task-when lists is the
# next run task-add stores, for the same flags.
test_expect_success 'what task-when lists first is the next run task-add schedules' '
	while IFS="|" read -r flags; do
		eval "set -- $flags" &&
		first=$(task-when --utc "$@" | head -n 1) &&
		id=$(task-add --exec true "$@" p) &&
		next=$(task-show --json "$id" | sed "s/.*\"next_run_at\":\"\([^\"]*\)\".*/\1/") &&
		test "$first" = "$next" || { echo "$flags: task-when $first, task-add $next"; return 1; }
	done <<-\EOF
	--daily 06:29
	--daily 06:31 --tz Europe/Paris
	--weekly sun noon --tz Pacific/Auckland
	--cron "*/7 * * * *"
	--cron "0 9 1,15 * *" --tz America/Los_Angeles
	--at "in 90 minutes"
	--plan "dec 1 9am" --plan "nov 30 9am"
	--daily "half past 8" --count 2
	EOF
'

test_expect_success 'refused as task-add refuses, one line, exit 2' '
	while IFS="|" read -r flags msg; do
		eval "set -- $flags" &&
		test_expect_code 2 task-when "$@" >out 2>err &&
		test ! -s out && test_one_line err &&
		echo "task-when: $msg" >expect && test_cmp expect err || { echo "$flags"; return 1; }
	done <<-\EOF
	--daily 25:00|bad time of day '"'"'25:00'"'"': hour 25 is out of range 0-23; write one such as 09:00, 9am, 9:30pm, noon or '"'"'half past 9'"'"'
	--daily 9am --at 10am|give one schedule, not --daily and --at
	--daily 9am "0 7 * * *"|give the schedule once: --daily, or '"'"'0 7 * * *'"'"'
	--at 10am --count 3|--until and --count end a recurring schedule; --at is not one
	--at "yesterday 9am"|--at: '"'"'yesterday 9am'"'"' is 2026-11-22 09:00 UTC in UTC, which is in the past
	--cron "0 0 30 2 *"|'"'"'0 0 30 2 *'"'"' can never fire (February has no day 30)
	--weekly funday 9am|unknown day '"'"'funday'"'"' (use mon, tue, ... sun)
	EOF
'

test_done
