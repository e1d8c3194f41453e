#!/bin/sh
# --pause-after pauses a recurring task after failed occurrences in a row.
# A one-shot (--at) runs once: its failed run is retried as --retries says
# and the task ends failed, so --pause-after on it was kept, shown and
# never used.  task-add and task-edit refuse it on a one-shot in one line
# (exit 2).  A manual task or a follower keeps the value, unused, as
# task-add(1) says (1137), and so does a recurring task whose schedule
# becomes a one-shot.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-22T09:00:00Z
export TASK_NOW

said() {
	echo "$1: --pause-after pauses a recurring task, and this one runs once (--at): its failed run is retried as --retries says, then it ends failed" >expect &&
	test_cmp expect err
}

test_expect_success 'task-add refuses it on a one-shot, whatever the value' '
	task-ls --json >before &&
	test_refused 2 task-add --at 2026-11-22T10:00:00Z --retries 2 --pause-after 1 --exec false p &&
	said task-add &&
	test_refused 2 task-add --at 2026-11-22T10:00:00Z --pause-after 0 --exec false p &&
	said task-add
'

test_expect_success 'a one-shot without it: retried as --retries says, then failed, never paused' '
	task-add --at 2026-11-22T10:00:00Z --retries 1 --exec false --name once p3 >/dev/null &&
	TASK_NOW=2026-11-22T10:00:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-22T10:01:00Z task-tick >/dev/null 2>&1 &&
	test "$(store_sql "SELECT status || '\'' '\'' || enabled || '\'' '\'' || consecutive_failures FROM tasks WHERE name = '\''once'\''")" = "failed 1 2" &&
	test "$(store_sql "SELECT count(*) FROM runs")" = 2
'

test_expect_success 'on a recurring task, a manual task or a plan it is taken' '
	task-add --cron "0 * * * *" --pause-after 2 --exec false --name cron p1 >/dev/null &&
	task-add --manual --pause-after 3 --exec false --name man p2 >/dev/null &&
	task-add --plan 2026-11-23T10:00:00Z --plan 2026-11-24T10:00:00Z --pause-after 4 \
		--exec false --name plan p4 >/dev/null &&
	store_sql "SELECT name, pause_after FROM tasks WHERE pause_after >= 0 ORDER BY name" >actual &&
	printf "cron|2\nman|3\nplan|4\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-edit refuses it on a one-shot, or with a new --at, and changes nothing' '
	task-ls --json >before &&
	test_refused 2 task-edit --pause-after 3 once &&
	said task-edit &&
	test_refused 2 task-edit --at 2026-11-22T11:00:00Z --pause-after 3 cron &&
	said task-edit
'

test_expect_success 'a one-shot given a recurrence may have it' '
	task-edit --every 1h --pause-after 3 once >/dev/null &&
	test "$(store_sql "SELECT pause_after FROM tasks WHERE name = '\''once'\''")" = 3
'

test_expect_success 'a recurring task made a one-shot keeps its value, unused' '
	task-edit --at 2026-11-22T11:00:00Z cron >/dev/null &&
	test "$(store_sql "SELECT pause_after FROM tasks WHERE name = '\''cron'\''")" = 2 &&
	task-edit --retries 1 cron >/dev/null
'

test_done
