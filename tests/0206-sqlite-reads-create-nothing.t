#!/bin/sh
# Reading creates nothing: task-ls, task-show, task-log and task-mcp's
# listing at a path where there is no store (a typo) behave as on an empty
# store and leave no file or directory behind; the first change makes it.
. "$AC_TOP/tests/lib.sh"
export TASK_DB=$TEST_TMP/typo/dir/tasks.db

test_expect_success 'task-ls, task-show, task-log: an empty store, nothing made' '
	task-ls >out 2>err && test ! -s out &&
	echo "No scheduled tasks configured." >expect && test_cmp expect err &&
	task-ls --json >out && test ! -s out &&
	test_expect_code 3 task-show abcd 2>err && test_one_line err &&
	task-log >out && test ! -s out &&
	test_expect_code 3 task-log abcd1234 2>err && test_one_line err &&
	test ! -e typo
'

test_expect_success 'task-mcp: listing creates nothing; the first change makes the store' '
	echo "{\"name\":\"task_list\",\"arguments\":{}}" | task-mcp --call >out &&
	echo "No tasks found." >expect && test_cmp expect out &&
	test ! -e typo &&
	echo "{\"name\":\"task_create\",\"arguments\":{\"prompt\":\"x\",\"manual\":true}}" |
		task-mcp --call >out &&
	grep -q "^Created task" out &&
	test "$(stat -c %a typo/dir/tasks.db)" = 600 &&
	task-ls | cut -f2 >actual && echo x >expect && test_cmp expect actual
'

test_done
