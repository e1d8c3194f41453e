#!/bin/sh
# More bad input: every --daily and --weekly given counts (they combine as
# --cron does, in task-add, task-edit and task-when); a JSON task's empty
# attachment path.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-25T08:00:00Z

test_expect_success 'task-when: each --daily and --weekly given fires' '
	task-when --utc --tz UTC -n 5 --daily 07:00 --daily 08:00 --weekly fri 09:00 --weekly "sat 10:00" >actual &&
	cat >expect <<-\EOT &&
	2026-11-26T07:00:00Z
	2026-11-26T08:00:00Z
	2026-11-27T07:00:00Z
	2026-11-27T08:00:00Z
	2026-11-27T09:00:00Z
	EOT
	test_cmp expect actual &&
	task-when --tz UTC --describe --daily 07:00 --daily 08:00 --weekly fri 09:00 >actual &&
	head -n 1 actual >desc &&
	echo "Daily at 07:00, daily at 08:00 and every Friday at 09:00" >expect &&
	test_cmp expect desc
'

crons() {
	task-show --json "$1" | python3 -c "import json, sys; print(\"|\".join(json.load(sys.stdin)[\"crons\"]))"
}

test_expect_success 'task-add and task-edit: each --daily and --weekly given is kept' '
	id=$(task-add --tz UTC --daily 07:00 --daily 08:00 --weekly mon 09:00 --weekly "fri 10:00" --name t p) &&
	crons "$id" >actual &&
	echo "0 7 * * *|0 8 * * *|0 9 * * 1|0 10 * * 5" >expect &&
	test_cmp expect actual &&
	task-edit "$id" --daily 06:00 --daily 18:00 >/dev/null &&
	crons "$id" >actual &&
	echo "0 6 * * *|0 18 * * *" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 task-edit "$id" --daily 06:00 --daily 25:00 >out 2>err &&
	test_one_line err && test ! -s out &&
	crons "$id" >actual && test_cmp expect actual
'

test_expect_success 'task-add --json -: an empty attachment path is refused, nothing stored' '
	task-ls --json >before &&
	echo "{\"name\":\"a\",\"prompt\":\"p\",\"cron\":\"0 9 * * *\",\"attachments\":[\"\"]}" >in &&
	test_expect_code 2 task-add --json - <in >out 2>err &&
	test ! -s out &&
	printf "task-add: stdin:1: field \047attachments\047 holds an empty path\n" >expect &&
	test_cmp expect err &&
	task-ls --json >after && test_cmp before after
'

test_done
