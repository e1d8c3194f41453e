#!/bin/sh
# Config, key and attachment files that are not regular files (a FIFO
# nobody writes to, a device) are refused at once with one line, instead
# of a read that waits forever: from cron that would be one more stuck
# process a minute.  Every command here runs under timeout(1), so a
# regression fails the test instead of hanging it.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
mkfifo fifo
OPENAI_API_KEY=sk-test-special-files
export OPENAI_API_KEY

test_expect_success 'llm-call: a FIFO or a device as the config file' '
	mkfifo "$CONF" &&
	test_expect_code 78 timeout 20 llm-call hi >out 2>err &&
	echo "llm-call: config '\''$CONF'\'' is not a regular file" >expect &&
	test_cmp expect err && test ! -s out &&
	rm "$CONF" && ln -s /dev/zero "$CONF" &&
	test_expect_code 78 timeout 20 llm-call hi >out 2>err &&
	test_cmp expect err && test ! -s out &&
	rm "$CONF"
'

test_expect_success 'task-tick: a FIFO as the config file' '
	mkfifo "$CONF" &&
	test_expect_code 2 timeout 20 task-tick >out 2>err &&
	echo "task-tick: config '\''$CONF'\'' is not a regular file" >expect &&
	test_cmp expect err && test ! -s out &&
	rm "$CONF"
'

test_expect_success 'llm-call --key-file: a FIFO, a device' '
	test_expect_code 78 timeout 20 llm-call --key-file fifo hi >out 2>err &&
	echo "llm-call: key file '\''fifo'\'' is not a regular file" >expect &&
	test_cmp expect err && test ! -s out &&
	test_expect_code 78 timeout 20 llm-call --key-file /dev/zero hi >out 2>err &&
	echo "llm-call: key file '\''/dev/zero'\'' is not a regular file" >expect &&
	test_cmp expect err
'

test_expect_success 'llm-call -a: a FIFO, a device, a directory' '
	test_expect_code 2 timeout 20 llm-call -a fifo hi >out 2>err &&
	echo "llm-call: cannot read attachment '\''fifo'\'': it is not a regular file" >expect &&
	test_cmp expect err && test ! -s out &&
	test_expect_code 2 timeout 20 llm-call -a /dev/zero hi >out 2>err &&
	echo "llm-call: cannot read attachment '\''/dev/zero'\'': it is not a regular file" >expect &&
	test_cmp expect err &&
	mkdir dir &&
	test_expect_code 2 timeout 20 llm-call -a dir hi >out 2>err &&
	echo "llm-call: cannot read attachment '\''dir'\'': it is a directory" >expect &&
	test_cmp expect err
'

test_expect_success 'a scheduled task whose attachment became a FIFO: the run fails, the pass ends' '
	echo notes >notes.txt &&
	id=$(task-add --at 07:00 --retries 0 --attach notes.txt --name notes "Summarise.") &&
	rm notes.txt && mkfifo notes.txt &&
	TASK_NOW=2026-11-23T07:00:10Z timeout 60 task-tick >out 2>/dev/null &&
	task-log --json --task "$id" | sed "s/.*\"status\":\"\([a-z]*\)\".*\"error\":\"\([^\"]*\)\".*/\1 \2/" >actual &&
	printf "%s\n" "failed exited with status 2\\nllm-call: cannot read attachment '\''$TEST_TMP/notes.txt'\'': it is not a regular file\\n" >expect &&
	test_cmp expect actual
'

test_done
