#!/bin/sh
# A manual run between the retries of a failing one-shot does not reset the
# attempt count: the task still fails after its retries.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'a manual run between retries leaves the attempt count alone' '
	id=$(TASK_NOW=2026-11-22T09:00:00Z task-add --at 2026-11-22T10:00:00Z --retries 2 --exec false --name flaky "p") &&
	TASK_NOW=2026-11-22T10:00:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-22T10:01:00Z task-tick >/dev/null 2>&1 &&
	{ TASK_NOW=2026-11-22T10:02:00Z task-run "$id" >/dev/null 2>&1; test $? = 1; } &&
	TASK_NOW=2026-11-22T10:03:00Z task-tick >/dev/null 2>&1 &&
	task-log --task "$id" | cut -f5,7 >actual &&
	printf "retry\tfailed\nmanual\tfailed\nretry\tfailed\nschedule\tfailed\n" >expect &&
	test_cmp expect actual &&
	task-log --json --task "$id" | grep -o "\"trigger\":\"[a-z]*\",.*\"attempt\":[0-9]*" |
		sed "s/\"trigger\":\"\\([a-z]*\\)\".*\"attempt\":\\([0-9]*\\)/\\1 \\2/" >attempts &&
	printf "retry 3\nmanual 1\nretry 2\nschedule 1\n" >expect && test_cmp expect attempts &&
	task-ls | cut -f3,4 >status && printf "failed\t-\n" >expect && test_cmp expect status
'

test_done
