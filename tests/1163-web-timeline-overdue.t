#!/bin/sh
# The timeline counts the next 24 hours' fires of a task that is overdue
# (no pass for days: the machine was off, task-tick stopped) from now, not
# by walking a day's worth of steps from its old next run, which never
# reached now: an every-minute task two days late had none of its 1,440.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

then=2026-03-01T00:00:00Z
TASK_NOW=$then task-add --cron '* * * * *' --tz UTC --name minutely p >/dev/null
TASK_NOW=$then task-add --cron '0 * * * *' --tz UTC --name hourly p >/dev/null
TASK_NOW=$then task-add --every 2m --tz UTC --name every-2m p >/dev/null
tok=$(task-web --new-token me 2>/dev/null)

test_expect_success 'on time: the next day from the tasks'"'"' next runs' '
	TASK_NOW=$then web_start &&
	test "$(req_as "$tok" page "$url/timeline")" = 200 &&
	sed -n "s|^<p>\([0-9]* fire.*\)</p>\$|\1|p" page >actual &&
	echo "2181 fires; the busiest minute, 2026-03-01 01:00 UTC, has 3." >expect &&
	test_cmp expect actual &&
	web_stop
'

test_expect_success 'two days and a half late: a whole day of fires from now' '
	TASK_NOW=2026-03-03T12:00:30Z web_start &&
	test "$(req_as "$tok" page "$url/timeline")" = 200 &&
	sed -n "s|^<p>\([0-9]* fire.*\)</p>\$|\1|p" page >actual &&
	echo "2184 fires; the busiest minute, 2026-03-03 12:00 UTC, has 3." >expect &&
	test_cmp expect actual &&
	web_stop
'

test_done
