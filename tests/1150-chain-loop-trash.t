#!/bin/sh
# A task in the trash keeps its links (task-add --after), and task-rm
# --undo brings them back: a loop through it is refused when it is made,
# not found running once it is restored.  A long chain is checked for
# loops within its limit without overflowing the stack (the chain here is
# 300 tasks long, the stack 1 MiB: a check used some 10 KiB a task).
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-23T06:00:00Z
export TASK_NOW

run_logger || exit 1

test_expect_success 'a loop through a task in the trash is refused, naming it, nothing changed' '
	task-add --manual --name A --exec "$PWD/ex" a >/dev/null &&
	task-add --after A --name B --exec "$PWD/ex" b >/dev/null &&
	task-add --after B --name C --exec "$PWD/ex" c >/dev/null &&
	task-rm B >/dev/null 2>&1 &&
	test_expect_code 2 task-edit --after C A >out 2>err &&
	echo "task-edit: after: that would make a loop: '\''A'\'' -> '\''B'\'' (in the trash) -> '\''C'\'' -> '\''A'\''" >expect &&
	test_cmp expect err && test ! -s out &&
	task-show --json A >json && test_expect_code 1 grep -q "\"after\"" json
'

test_expect_success 'restored, the chain runs each task once a run' '
	task-rm --undo B >/dev/null &&
	task-run A >/dev/null &&
	task-tick >/dev/null 2>&1 &&
	cat >expect <<-\EOT &&
	A manual
	B after
	C after
	EOT
	test_cmp expect log
'

# Names no id can start with: a name like c155 that is also the start of
# another task's id names neither (store_task_resolve).
test_expect_success 'a chain of 300 imported and closed into a loop: checked, refused, no crash' '
	task-add --manual --name k0 --exec true x >/dev/null &&
	python3 -c "
import json
for i in range(1, 300):
    print(json.dumps({\"name\": \"k%d\" % i, \"prompt\": \"x\", \"kind\": \"manual\",
        \"exec\": \"true\", \"after\": [\"k%d\" % (i - 1)]}))
" >chain &&
	(ulimit -s 1024 && task-add --json - <chain >ids 2>err) &&
	test "$(wc -l <ids)" = 299 && test ! -s err &&
	(ulimit -s 1024 && test_expect_code 2 task-edit --after k299 k0 >out 2>err) &&
	test ! -s out && test_one_line err &&
	grep -q "^task-edit: after: that would make a loop: '\''k0'\'' -> '\''k1'\'' -> " err
'

test_done
