#!/bin/sh
# A database whose transactions are read-only (default_transaction_read_only,
# a standby, a role made so): every program says the first error, the one
# that explains, not "current transaction is aborted" that follows it.
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB

test_expect_success 'each writer: one line, the server'\''s first refusal, exit 1, nothing changed' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec true --name ro x >/dev/null &&
	pg_sql "ALTER DATABASE $(pg_db_of "$TASK_DB") SET default_transaction_read_only = on" &&
	for c in "task-add --manual y" "task-add --key k1 --manual y" "task-edit ro --name z" \
		"task-rm ro" "task-run ro" "task-tick"; do
		test_expect_code 1 env TASK_NOW=2026-11-23T07:00:00Z $c >out 2>err &&
		test_one_line err && grep -q "in a read-only transaction$" err &&
		! grep -q "transaction is aborted" err || { echo "$c:"; cat err; return 1; }
	done &&
	task-ls >actual && test "$(cut -f2,3 actual)" = "ro	pending"
'

test_expect_success 'task-add names the statement that was refused first' '
	test_expect_code 1 task-add --manual y 2>err &&
	echo "task-add: store '\''$TASK_DB'\'': adding a task: cannot execute INSERT in a read-only transaction" >expect &&
	test_cmp expect err
'

test_done
