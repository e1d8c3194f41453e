#!/bin/sh
# A run that cannot start for lack of resources (here: open files, under a
# low ulimit -n) is recorded `unstarted`, costs the task no failure and
# leaves the occurrence due: the next pass with resources runs the same
# instant.  task-log lists such runs by --status unstarted.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'out of open files: unstarted, then the same instant runs' '
	id=$(TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00 --tz UTC \
		--exec "echo ran" --retries 0 starved) &&
	(ulimit -n 10 && TASK_NOW=2026-11-23T07:00:05Z exec task-tick) >/dev/null 2>err &&
	grep -q "unstarted: cannot start .*Too many open files; not the task.s fault" err &&
	task-log --status unstarted | cut -f5-7 >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tunstarted\n" >expect &&
	test_cmp expect actual &&
	task-show --json "$id" >t.json &&
	grep -q "\"status\":\"pending\",\"next_run_at\":\"2026-11-23T07:00:00Z\"" t.json &&
	grep -q "\"consecutive_failures\":0" t.json &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >/dev/null 2>err && test ! -s err &&
	task-log --task "$id" | cut -f5-7 | sort >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tsuccess\nschedule\t2026-11-23T07:00:00Z\tunstarted\n" >expect &&
	test_cmp expect actual &&
	task-show --json "$id" >t.json &&
	grep -q "\"status\":\"completed\",.*\"last_status\":\"success\",.*\"last_result\":\"ran\"" t.json
'

test_expect_success 'task-log --status takes every run status, and only those' '
	for s in running success failed timeout interrupted skipped unstarted missed cancelled; do
		task-log --status $s >/dev/null || return 1
	done &&
	test_expect_code 2 task-log --status Unstarted 2>err && test_one_line err &&
	grep -q "skipped, unstarted, missed, cancelled or blocked" err
'

test_done
