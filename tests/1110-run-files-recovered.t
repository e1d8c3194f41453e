#!/bin/sh
# A run's files in TMPDIR (its outcome file, an event's payload file) are
# named after the run and go with it: at its end, and, when its ticker is
# killed, in the pass that records the run interrupted on that machine.
# Only this user's regular files of that run are removed.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z
mkdir tmp && TMPDIR=$PWD/tmp && export TMPDIR

# The executor: says where its files are, then waits for a long time.
cat >slow <<\EOF
#!/bin/sh
printf "%s\n%s\n" "$TASK_OUTCOME_FILE" "${TASK_PAYLOAD_FILE:-}" >"$TASK_NAME.files"
echo "$TASK_RUN_ID" >"$TASK_NAME.run"
echo $$ >"$TASK_NAME.pid"
exec sleep 300
EOF
# The executor of a run that ends at once.
cat >quick <<\EOF
#!/bin/sh
printf "%s\n%s\n" "$TASK_OUTCOME_FILE" "$TASK_PAYLOAD_FILE" >quick.files
EOF
chmod +x slow quick

# The files left in TMPDIR, by name.
left() {
	ls tmp | sort
}

test_expect_success 'a run that ends removes its outcome and payload files' '
	id=$(task-add --manual --name quick --exec "$PWD/quick" x) &&
	task-run --queue --payload "{\"n\":1}" $id >/dev/null &&
	task-tick >out &&
	grep -q "\"status\":\"success\"" out &&
	run=$(sed -n "s/.*\"run_id\":\"\([^\"]*\)\".*/\1/p" out) &&
	test -n "$run" &&
	sed -n 1p quick.files | grep -q "^$PWD/tmp/agentcron-outcome-$run-......\$" &&
	sed -n 2p quick.files | grep -q "^$PWD/tmp/agentcron-payload-$run-......\$" &&
	test -z "$(left)"
'

test_expect_success 'task-tick killed mid-run: the next pass removes the run files it left' '
	reset_store &&
	id=$(task-add --manual --name slow --exec "$PWD/slow" x) &&
	task-run --queue --payload "{\"n\":2}" $id >/dev/null &&
	{ task-tick >out 2>err & } && tick=$! && test_when_finished "test_end \$tick" &&
	test_until 60 test -s slow.pid &&
	run=$(cat slow.run) &&
	outcome=$(sed -n 1p slow.files) && payload=$(sed -n 2p slow.files) &&
	test -f "$outcome" && test -f "$payload" &&
	test "$(cat "$payload")" = "{\"n\":2}" &&
	kill -9 $tick && { wait $tick; test $? -eq 137; } &&
	test -f "$outcome" && test -f "$payload" &&
	other=00000000-0000-4000-8000-000000000000 &&
	echo keep >tmp/agentcron-outcome-$other-abcdef &&
	echo target >target &&
	ln -s "$PWD/target" tmp/agentcron-payload-$run-linked &&
	mkdir tmp/agentcron-outcome-$run-adir0 &&
	echo keep >tmp/agentcron-outcome-$run-toolong &&
	TASK_NOW=2026-11-23T07:00:30Z task-tick >out2 2>err2 &&
	grep -q "\"run_id\":\"$run\".*\"status\":\"interrupted\"" out2 &&
	! test -e "$outcome" && ! test -e "$payload" &&
	cat >expect <<-EOF &&
	agentcron-outcome-$other-abcdef
	agentcron-outcome-$run-adir0
	agentcron-outcome-$run-toolong
	agentcron-payload-$run-linked
	EOF
	left >actual &&
	test_cmp expect actual &&
	test "$(cat target)" = target
'

test_expect_success 'a pass beside a live ticker leaves its run'"'"'s files alone' '
	reset_store &&
	rm -rf tmp slow.pid && mkdir tmp &&
	id=$(task-add --manual --name slow --exec "$PWD/slow" x) &&
	task-run --queue --payload "{\"n\":3}" $id >/dev/null &&
	{ task-tick >out 2>err & } && tick=$! && test_when_finished "test_end \$tick" &&
	test_until 60 test -s slow.pid &&
	TASK_NOW=2026-11-23T07:00:30Z task-tick >out2 2>err2 &&
	! test -s out2 &&
	test "$(left | wc -l)" -eq 2 &&
	kill $(cat slow.pid) && wait $tick &&
	test -z "$(left)"
'

test_done
