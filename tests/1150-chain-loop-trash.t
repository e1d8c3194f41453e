#!/bin/sh
# A task in the trash keeps its links (task-add --after), and task-rm
# --undo brings them back: a loop through it is refused when it is made,
# not found running once it is restored.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-23T06:00:00Z
export TASK_NOW

cat >ex <<\EOT
#!/bin/sh
echo "$TASK_NAME $TASK_TRIGGER" >>log
echo "answer of $TASK_NAME"
EOT
chmod +x ex

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

test_done
