#!/bin/sh
# store: none
# Edges of cron expressions, zones and time expressions that a change of
# one comparison in common/cron.c, common/tz.c or common/when.c would move,
# found by mutating them and seeing which changes no other test noticed.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

test_expect_success 'a step as large as its field is allowed, one more is refused' '
	task-when --utc -n 2 "*/60 */24 * * *" >actual &&
	printf "2026-11-23T00:00:00Z\n2026-11-24T00:00:00Z\n" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 task-when "*/61 * * * *" 2>err &&
	test_one_line err &&
	grep -q "step .61. is not a number from 1 to 60" err
'

test_expect_success 'a range of one value is that value' '
	task-when --utc -n 2 "0 9 * * mon-mon" >actual &&
	printf "2026-11-23T09:00:00Z\n2026-11-30T09:00:00Z\n" >expect &&
	test_cmp expect actual &&
	task-when --utc -n 2 "5-5 9-9 * * 1-1" >actual &&
	printf "2026-11-23T09:05:00Z\n2026-11-30T09:05:00Z\n" >expect &&
	test_cmp expect actual
'

test_done
