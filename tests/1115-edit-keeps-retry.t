#!/bin/sh
# An edit that leaves the schedule alone keeps a recurring task's retry
# waiting: it fires at its instant, and its failure is counted.  A new
# schedule drops it: the next run is computed from now.
. "$AC_TOP/tests/lib.sh"

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null 2>>tick.err
}

test_expect_success 'an edit of the prompt keeps the waiting retry' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --name up --exec false x >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	TASK_NOW=2026-11-23T07:00:30Z task-edit up --prompt y >/dev/null &&
	task-ls | cut -f2-4 >actual &&
	printf "up\tpending\t2026-11-23T07:01:00Z\n" >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:00:40Z task-status --check >out &&
	grep "^AGENTCRON OK" out &&
	tick 2026-11-23T07:01:00Z &&
	tick 2026-11-23T07:03:00Z &&
	tick 2026-11-23T07:05:00Z &&
	task-log --task up --limit 0 | cut -f5-7 >actual &&
	cat >expect <<-\EOF &&
	retry	2026-11-23T07:00:00Z	failed
	retry	2026-11-23T07:00:00Z	failed
	schedule	2026-11-23T07:00:00Z	failed
	EOF
	test_cmp expect actual &&
	task_failures >actual &&
	echo "up 2026-11-23T08:00:00Z 1" >expect && test_cmp expect actual &&
	test_expect_code 1 env TASK_NOW=2026-11-23T07:05:00Z task-status --check >out &&
	grep "^AGENTCRON WARNING - 1 task failing" out
'

test_expect_success 'a new schedule drops it: the next run from now' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --name up --exec false x >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	TASK_NOW=2026-11-23T07:00:30Z task-edit up --cron "30 * * * *" >/dev/null &&
	task-ls | cut -f2-4 >actual &&
	printf "up\tpending\t2026-11-23T07:30:00Z\n" >expect && test_cmp expect actual &&
	tick 2026-11-23T07:01:00Z &&
	tick 2026-11-23T07:03:00Z &&
	task-log --task up --limit 0 | cut -f5-7 >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tfailed\n" >expect && test_cmp expect actual
'

test_expect_success 'the occurrence it dropped is given up unseen: not counted, not told' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --name up --exec false \
		--pause-after 2 x >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --after up:failure --name told --exec true y >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	TASK_NOW=2026-11-23T07:00:30Z task-edit up --cron "30 * * * *" >/dev/null &&
	tick 2026-11-23T07:01:00Z &&
	tick 2026-11-23T07:03:00Z &&
	task_failures >actual &&
	printf "up 2026-11-23T07:30:00Z 0\ntold None 0\n" >expect && test_cmp expect actual &&
	task-log --task told --limit 0 >actual &&
	test_cmp /dev/null actual
'

test_done
