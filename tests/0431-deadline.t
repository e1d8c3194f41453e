#!/bin/sh
# Starting deadlines: an occurrence that cannot start within --deadline of
# its instant is recorded missed, with the reason, and not run.  It replaces
# the minute of grace, bounds catch-up under once, skip and all, comes from
# the configuration's `deadline` for tasks without one, and task-edit
# --enable never fires what fell while the task was disabled.
. "$AC_TOP/tests/lib.sh"

# runs: trigger, slot, status and error of every run, oldest slot first.
runs() {
	task-log --limit 0 --json | sed 's/.*"slot":"\([^"]*\)".*"trigger":"\([a-z]*\)".*"status":"\([a-z]*\)".*/\2 \1 \3/' | sort -k2
}

# told_missed OUT ERR: a pass's output is one missed run, and its standard
# error (cron's mail) one line saying so.
told_missed() {
	test "$(wc -l <"$1")" -eq 1 && grep -q "\"status\":\"missed\"" "$1" &&
	test "$(wc -l <"$2")" -eq 1 && grep -q "^task-tick: task .* missed: could not start within its deadline" "$2"
}

test_expect_success 'within the deadline is on time; past it the occurrence is missed' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 7 * * *" --deadline 10m --exec true x >id &&
	TASK_NOW=2026-11-23T07:09:00Z task-tick >out &&
	TASK_NOW=2026-11-24T07:20:00Z task-tick >out2 2>err &&
	test "$(wc -l <out)" -eq 1 && told_missed out2 err &&
	task-log --limit 0 | cut -f5-7 | sort -k2 >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tsuccess\ncatchup\t2026-11-24T07:00:00Z\tmissed\n" >expect &&
	test_cmp expect actual &&
	store_sql "SELECT error FROM runs WHERE status = '\''missed'\''" >actual &&
	echo "could not start within its deadline (10m00s) of 2026-11-24T07:00:00Z: 20m00s late; not run" >expect &&
	test_cmp expect actual &&
	task-show "$(cat id)" >show &&
	grep "^deadline: *start within 10m00s of each instant, else missed$" show &&
	grep "^last run: .*: missed$" show &&
	task-ls --json | grep -q "\"deadline\":600,"
'

test_expect_success 'once: a gap whose newest occurrence is past the deadline fires nothing' '
	reset_store &&
	TASK_NOW=2026-11-20T06:30:00Z task-add --cron "0 7 * * *" --deadline 1h --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T09:00:00Z task-tick >out 2>err && told_missed out err &&
	task-log --limit 0 | cut -f5-7 >actual &&
	printf "catchup\t2026-11-23T07:00:00Z\tmissed\n" >expect && test_cmp expect actual &&
	task-ls | cut -f3,4 >actual &&
	printf "pending\t2026-11-24T07:00:00Z\n" >expect && test_cmp expect actual
'

test_expect_success 'once: within the deadline the newest missed occurrence still catches up' '
	reset_store &&
	TASK_NOW=2026-11-20T06:30:00Z task-add --cron "0 7 * * *" --deadline 3h --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T09:00:00Z task-tick >out &&
	task-log --limit 0 | cut -f5-7 >actual &&
	printf "catchup\t2026-11-23T07:00:00Z\tsuccess\n" >expect && test_cmp expect actual
'

test_expect_success 'all: only the occurrences within the deadline are caught up (within it is on time)' '
	reset_store &&
	TASK_NOW=2026-11-22T23:30:00Z task-add --cron "0 * * * *" --missed all --deadline 2h \
		--exec true x >/dev/null &&
	for i in 1 2 3 4; do TASK_NOW=2026-11-23T05:30:00Z task-tick || return 1; done >out &&
	task-log --limit 0 | cut -f5-7 | sort -k2 >actual &&
	printf "catchup\t2026-11-23T04:00:00Z\tsuccess\nschedule\t2026-11-23T05:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'skip: the deadline replaces the minute of grace' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 7 * * *" --missed skip --deadline 5m \
		--exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:04:00Z task-tick >/dev/null &&
	task-log --limit 0 | cut -f5-7 >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tsuccess\n" >expect && test_cmp expect actual
'

test_expect_success 'a one-shot past its deadline is missed and done' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --at 2026-11-23T07:00:00Z --deadline 15m --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >out 2>err && told_missed out err &&
	task-log --limit 0 | cut -f5-7 >actual &&
	printf "catchup\t2026-11-23T07:00:00Z\tmissed\n" >expect && test_cmp expect actual &&
	test "$(task-ls | cut -f3)" = completed
'

test_expect_success 'the configuration'\''s deadline applies to tasks without their own' '
	reset_store &&
	mkdir -p config/agentcron && echo "deadline = 10m" >config/agentcron/config &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 7 * * *" --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:30:00Z task-tick >out 2>err && told_missed out err &&
	store_sql "SELECT status, error FROM runs" >actual &&
	echo "missed|could not start within its deadline (10m00s, from the configuration) of 2026-11-23T07:00:00Z: 30m00s late; not run" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 7 * * *" --deadline 1h --exec true own >/dev/null &&
	TASK_NOW=2026-11-24T07:30:00Z task-tick >out 2>err &&
	test "$(wc -l <out)" -eq 1 && grep -q "\"name\":\"own\"" out && test ! -s err &&
	rm config/agentcron/config
'

test_expect_success 'task-edit --enable fires nothing that fell while the task was disabled' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 7 * * *" --exec true x >id &&
	TASK_NOW=2026-11-23T06:40:00Z task-edit --disable "$(cat id)" >/dev/null &&
	TASK_NOW=2026-11-25T09:00:00Z task-edit --enable "$(cat id)" >/dev/null &&
	TASK_NOW=2026-11-25T09:00:00Z task-tick >out && test ! -s out &&
	task-ls | cut -f4 >actual && echo 2026-11-26T07:00:00Z >expect && test_cmp expect actual
'

test_expect_success '--deadline none removes it; bad values change nothing' '
	id=$(cat id) &&
	task-edit --deadline 2h "$id" >/dev/null &&
	task-ls --json | grep -q "\"deadline\":7200," &&
	task-edit --deadline none "$id" >/dev/null &&
	task-ls --json | grep -q "\"deadline\":0," &&
	for v in soon -5m 400d 10x ""; do
		test_expect_code 2 task-edit --deadline "$v" "$id" 2>err &&
		test_one_line err || return 1
	done &&
	test_expect_code 2 task-add --cron "@daily" --deadline later x 2>err &&
	echo "task-add: bad --deadline '\''later'\'': expected a duration like 90s, 10m, 2h (at most 366d), or none" >expect &&
	test_cmp expect err
'

test_done
