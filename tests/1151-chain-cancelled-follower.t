#!/bin/sh
# A follower (task-add --after) cancelled with task-rm --cancel fires no
# more when its upstream ends, as a deleted one does not; the others go on.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-23T06:00:00Z
export TASK_NOW

run_logger || exit 1

test_expect_success 'a cancelled follower is not run, nor given an input' '
	task-add --manual --name up --exec "$PWD/ex" u >/dev/null &&
	task-add --after up --name kept --exec "$PWD/ex" k >/dev/null &&
	task-add --after up:any --name dropped --exec "$PWD/ex" d >/dev/null &&
	task-rm --cancel dropped >/dev/null &&
	task-run up >/dev/null &&
	task-tick >/dev/null 2>&1 &&
	cat >expect <<-\EOT &&
	up manual
	kept after
	EOT
	test_cmp expect log &&
	task-log --task dropped --limit 0 >runs && test ! -s runs &&
	store_sql "SELECT count(*) FROM run_inputs WHERE task_id = (SELECT id FROM tasks WHERE name = '\''dropped'\'')" >actual &&
	echo 0 >expect && test_cmp expect actual &&
	task-ls | cut -f2,3 | sort >actual &&
	printf "dropped\tcancelled\nkept\tpending\nup\tpending\n" >expect &&
	test_cmp expect actual
'

test_done
