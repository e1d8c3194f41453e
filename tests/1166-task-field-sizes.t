#!/bin/sh
# The fields a run's environment carries (TASK_INTENT, TASK_PAYLOAD, ...)
# are bounded at every door, as an agent's tools bound them: past 4096
# bytes (words) or 64 KiB (JSON) task-add and task-edit refuse the task,
# naming the field, and store nothing.  A task stored before with a longer
# field still loads: its run fails to start saying which field, and a long
# payload reaches the run in TASK_PAYLOAD_FILE rather than the environment.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW

# line FIELD N: a task-add --json line of a manual task whose FIELD is N
# bytes (a string) or holds N bytes (the payload, the lists).
line() {
	python3 "$AC_TOP/tests/tools/sized-task" "$1" "$2"
}

# grow FIELD ID N: the stored FIELD of task ID made 1000 * 2^N bytes of "a".
grow() {
	store_sql "UPDATE tasks SET $1 = '$(python3 -c 'print("a" * 1000)')' WHERE id = '$2'" &&
	i=0 &&
	while [ $i -lt "$3" ]
	do
		store_sql "UPDATE tasks SET $1 = $1 || $1 WHERE id = '$2'" || return 1
		i=$((i + 1))
	done
}

cat >ev <<\EOF
#!/bin/sh
echo "payload=${#TASK_PAYLOAD} file=$(wc -c <"$TASK_PAYLOAD_FILE") mode=$(stat -c %a "$TASK_PAYLOAD_FILE")"
echo "$TASK_PAYLOAD_FILE" >files
EOF
chmod +x ev

test_expect_success 'task-add --json refuses each field past its size, storing nothing' '
	for f in intent channel context model payload attachments fallback_models
	do
		line $f 200000 >in &&
		test_expect_code 2 task-add --json - <in 2>>err || return 1
	done &&
	cat >expect <<-\EOF &&
	task-add: stdin:1: intent is longer than 4096 bytes
	task-add: stdin:1: channel is longer than 4096 bytes
	task-add: stdin:1: context is longer than 4096 bytes
	task-add: stdin:1: model is longer than 4096 bytes
	task-add: stdin:1: payload is longer than 65536 bytes
	task-add: stdin:1: attachments is longer than 65536 bytes
	task-add: stdin:1: fallback_models is longer than 65536 bytes
	EOF
	test_cmp expect err &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0
'

test_expect_success 'task-add and task-edit options are held to the same sizes' '
	long=$(python3 -c "print(\"i\" * 4097)") &&
	test_expect_code 2 task-add --manual --name opt --intent "$long" p 2>err &&
	echo "task-add: intent is longer than 4096 bytes" >expect &&
	test_cmp expect err &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0 &&
	task-add --manual --name opt --intent "$(python3 -c "print(\"i\" * 4096)")" p >/dev/null &&
	test_expect_code 2 task-edit opt --channel "$long" 2>err &&
	echo "task-edit: channel is longer than 4096 bytes" >expect &&
	test_cmp expect err &&
	test "$(store_sql "SELECT length(intent) FROM tasks WHERE channel IS NULL")" = 4096
'

test_expect_success 'a task stored with a long intent loads, and its run says why it cannot start' '
	id=$(task-add --manual --name old --exec "$PWD/ev" p) &&
	grow intent $id 8 &&
	task-show old >/dev/null &&
	test_expect_code 1 task-run old >out 2>err &&
	echo "task-run: task '\''old'\'' (${id%"${id#????????}"}) failed: the task cannot run: its intent is longer than 4096 bytes; task-edit it" >expect &&
	test_cmp expect err && test ! -s out &&
	task-log --task old | cut -f5,7 >actual &&
	printf "manual\tfailed\n" >expect && test_cmp expect actual &&
	task-edit old --intent short &&
	task-run old >/dev/null &&
	task-log --task old | cut -f5,7 >actual &&
	printf "manual\tsuccess\nmanual\tfailed\n" >expect && test_cmp expect actual
'

test_expect_success 'task-tick sets such a scheduled task failed, saying why' '
	id=$(task-add --cron "* * * * *" --name sched --exec "$PWD/ev" p) &&
	grow context $id 3 &&
	TASK_NOW=2026-03-01T12:05:00Z task-tick 2>err &&
	echo "task-tick: task '\''${id%"${id#????????}"}'\'' cannot be scheduled: context is longer than 4096 bytes" >expect &&
	test_cmp expect err &&
	task-show sched | grep "^last error:" >actual &&
	echo "last error:   cannot compute the next run: context is longer than 4096 bytes" >expect &&
	test_cmp expect actual &&
	test "$(task-log --task sched)" = ""
'

test_expect_success 'a task stored with a long payload has it in TASK_PAYLOAD_FILE, removed after' '
	id=$(task-add --manual --name pay --exec "$PWD/ev" p) &&
	grow payload $id 7 &&
	store_sql "UPDATE tasks SET payload = '\''{\"x\":\"'\'' || payload || '\''\"}'\'' WHERE id = '\''$id'\''" &&
	task-run pay >out &&
	echo "payload=0 file=128008 mode=600" >expect &&
	test_cmp expect out &&
	test -s files && ! test -e "$(cat files)"
'

test_done
