#!/bin/sh
# --pause-after pauses a recurring task only, as task-add(1) says: a task
# without a recurrence of its own (--manual, --after alone) keeps the value
# and shows it, but its failed runs never pause it; a recurring one with
# the same value is paused at its first failure.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T09:30:00Z

# The executor fails a prompt that says so.
printf '#!/bin/sh\ngrep -q fail && exit 1\nexit 0\n' >exec && chmod +x exec
export TASK_EXEC=$PWD/exec

test_expect_success 'a manual task: kept and shown, its failures never pause it' '
	id=$(task-add --manual --pause-after 1 --name m "please fail") &&
	task-show $id | grep "^pause after:" >actual &&
	echo "pause after:  1 failed occurrences in a row" >expect &&
	test_cmp expect actual &&
	test_expect_code 1 task-run $id 2>/dev/null &&
	test_expect_code 1 task-run $id 2>/dev/null &&
	task-ls --status paused >out && test ! -s out &&
	task-show --json $id >json &&
	python3 -c "import json; t = json.load(open(\"json\")); print(t[\"enabled\"], t[\"paused\"], t[\"status\"], len(t[\"runs\"]))" >actual &&
	echo "True None pending 2" >expect &&
	test_cmp expect actual
'

test_expect_success 'a follower (--after alone): its failures never pause it' '
	reset_store &&
	a=$(task-add --manual --name lead ok) &&
	b=$(task-add --after $a --pause-after 1 --name follow "please fail") &&
	for i in 1 2; do
		task-run $a >/dev/null && task-tick >/dev/null 2>&1 || return 1
	done &&
	task-log --task $b | cut -f4,5 >actual &&
	printf "follow\tafter\nfollow\tafter\n" >expect &&
	test_cmp expect actual &&
	task-show --json $b >json &&
	python3 -c "import json; t = json.load(open(\"json\")); print(t[\"enabled\"], t[\"paused\"], t[\"last_status\"])" >actual &&
	echo "True None failed" >expect &&
	test_cmp expect actual
'

test_expect_success 'a recurring task with the same value is paused at its first failed occurrence' '
	reset_store &&
	id=$(task-add --cron "*/30 * * * *" --retries 0 --pause-after 1 --name c "please fail") &&
	TASK_NOW=2026-11-23T10:00:00Z task-tick >/dev/null 2>&1 &&
	task-ls --status paused | cut -f2 >actual &&
	echo c >expect &&
	test_cmp expect actual
'

test_done
