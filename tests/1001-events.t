#!/bin/sh
# Events: task-run --payload JSON|@FILE|- fires a task with the payload as
# its run's input (after the prompt on stdin, TASK_PAYLOAD when short,
# TASK_PAYLOAD_FILE always); with --key an event delivered twice fires
# once and says which run it became; a JSON line with "payload" on
# task-run - does the same.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

cat >ev <<\EOF
#!/bin/sh
in=$(cat | tr '\n' '|')
echo "$TASK_TRIGGER <$in> env=$TASK_PAYLOAD file=$(cat "$TASK_PAYLOAD_FILE") mode=$(stat -c %a "$TASK_PAYLOAD_FILE")" >>log
echo "$TASK_PAYLOAD_FILE" >>files
echo done
EOF
chmod +x ev

test_expect_success 'a payload fired twice with one key makes one run, and says which' '
	id=$(task-add --manual --name hook --exec "$PWD/ev" "handle it") &&
	task-run --payload "{\"n\":1}" --key ev-1 hook >out 2>err &&
	echo done >expect && test_cmp expect out && test ! -s err &&
	run=$(task-log --task $id | cut -f1) &&
	task-run --payload "{\"n\":2}" --key ev-1 hook >out 2>err &&
	echo $run >expect && test_cmp expect out && test_one_line err &&
	grep -q "event .ev-1. was delivered before and became run $run" err &&
	task-run --json --payload "{\"n\":3}" --key ev-1 hook >out &&
	echo "{\"task_id\":\"$id\",\"key\":\"ev-1\",\"run_id\":\"$run\",\"duplicate\":true}" >expect &&
	test_cmp expect out &&
	echo "event <handle it||{\"n\":1}> env={\"n\":1} file={\"n\":1} mode=600" >expect &&
	test_cmp expect log &&
	task-log --task $id | cut -f5,7 >actual && printf "event\tsuccess\n" >expect &&
	test_cmp expect actual &&
	! test -e "$(cat files)"
'

test_expect_success 'a JSON line with payload on task-run -, and from a file; keys once each' '
	rm -f log &&
	printf "{\"id\":\"hook\",\"payload\":{\"n\":4},\"key\":\"ev-2\"}\n{\"id\":\"hook\",\"payload\":\"text\",\"key\":\"ev-2\"}\n{\"id\":\"hook\",\"payload\":\"plain\"}\n" |
		task-run - >out 2>err &&
	printf "{\"x\":\"from a file\"}" >p.json &&
	task-run --payload @p.json hook >/dev/null &&
	cat >expect <<-\EOF &&
	event <handle it||{"n":4}> env={"n":4} file={"n":4} mode=600
	event <handle it||plain> env=plain file=plain mode=600
	event <handle it||{"x":"from a file"}> env={"x":"from a file"} file={"x":"from a file"} mode=600
	EOF
	test_cmp expect log && test_one_line err
'

test_expect_success 'queued with a key: one run by the next pass, whoever delivers it again' '
	rm -f log &&
	task-run --queue --payload "{\"q\":1}" --key ev-3 hook >/dev/null &&
	task-run --queue --payload "{\"q\":1}" --key ev-3 hook >/dev/null 2>err &&
	grep -q "waits in the queue" err &&
	task-tick >/dev/null && task-tick >/dev/null &&
	echo "event <handle it||{\"q\":1}> env={\"q\":1} file={\"q\":1} mode=600" >expect &&
	test_cmp expect log &&
	run=$(task-log --task hook | head -1 | cut -f1) &&
	task-run --payload "{\"q\":1}" --key ev-3 hook >out 2>/dev/null &&
	echo $run >expect && test_cmp expect out
'

test_expect_success 'a payload on standard input (--payload -), and one too long for the environment' '
	rm -f log &&
	printf "{\"from\":\"stdin\"}" | task-run --payload - hook >out &&
	echo "event <handle it||{\"from\":\"stdin\"}> env={\"from\":\"stdin\"} file={\"from\":\"stdin\"} mode=600" >expect &&
	test_cmp expect log &&
	cat >long <<-\EOF &&
	#!/bin/sh
	cat >stdin.got
	printf "%s" "${TASK_PAYLOAD-unset}" >env.got
	cp "$TASK_PAYLOAD_FILE" file.got
	EOF
	chmod +x long &&
	task-add --manual --name long --exec "$PWD/long" "take it" >/dev/null &&
	head -c 65536 /dev/zero | tr "\0" a >p64k &&
	task-run --payload @p64k long >/dev/null &&
	test_cmp p64k env.got && test_cmp p64k file.got &&
	{ printf "take it\n\n" && cat p64k; } >expect && test_cmp expect stdin.got &&
	{ cat p64k && echo b; } >p64k1 &&
	task-run --payload @p64k1 long >/dev/null &&
	test ! -s env.got && test_cmp p64k1 file.got &&
	{ printf "take it\n\n" && cat p64k1; } >expect && test_cmp expect stdin.got
'

test_expect_success 'bad payloads and keys: one line, exit 2, nothing run' '
	rm -f log &&
	head -c 1048577 /dev/zero | tr "\0" a >big &&
	test_expect_code 2 task-run --payload @big hook 2>err && test_one_line err &&
	grep -q "more than the 1048576 bytes" err &&
	test_expect_code 2 task-run --payload @nonexistent hook 2>err && test_one_line err &&
	test_expect_code 2 task-run --key k hook 2>err && test_one_line err &&
	printf "\377" >bad && test_expect_code 2 task-run --payload @bad hook 2>err &&
	test_one_line err && grep -q "UTF-8" err &&
	test ! -e log
'

test_done
