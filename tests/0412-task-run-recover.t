#!/bin/sh
# A task-run killed with SIGKILL leaves its run marked running; the next
# task-run of that task recovers it (interrupted) instead of refusing for good.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

# status_is STATUS: the one task has STATUS.
status_is() {
	test "$(task-ls | cut -f3)" = "$1"
}

test_expect_success 'the next task-run recovers a run whose task-run was killed' '
	id=$(task-add --manual --exec "sh -c \"test -f go || sleep 30; echo done\"" --name slow "p") &&
	{ task-run "$id" >/dev/null 2>&1 & } &&
	pid=$! &&
	test_until 60 status_is running &&
	kill -9 "$pid" && test_expect_code 137 wait "$pid" &&
	touch go &&
	task-run "$id" >out 2>err &&
	echo done >expect && test_cmp expect out &&
	task-log --task "$id" | cut -f7 >statuses &&
	printf "success\ninterrupted\n" >expect && test_cmp expect statuses
'

test_done
