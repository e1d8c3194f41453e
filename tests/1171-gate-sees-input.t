#!/bin/sh
# A gate runs with the executor's environment, the run's input included:
# an event's TASK_PAYLOAD and TASK_PAYLOAD_FILE (not the task's own
# payload), so a gate can filter events, and a follower's TASK_INPUT_RUN,
# so its gate can read its upstream's run.  The gate's copy of the
# payload is removed once it has run.
. "$AC_TOP/tests/lib.sh"
mkdir -p tmp && TMPDIR=$PWD/tmp && export TMPDIR

# The gate: lets {"ev":1} through, stops anything else.
cat >gate <<\EOF2
#!/bin/sh
printf '%s|%s\n' "$TASK_PAYLOAD" "$(cat "$TASK_PAYLOAD_FILE")" >>"$HOME/gate.log"
test "$TASK_PAYLOAD" = '{"ev":1}'
EOF2
# The follower's gate: goes on only when its upstream answered "go".
cat >gate2 <<\EOF2
#!/bin/sh
echo "$TASK_INPUT_RUN" >>"$HOME/gate2.log"
task-log "$TASK_INPUT_RUN" | grep -q "^  go$"
EOF2
cat >ex <<\EOF2
#!/bin/sh
echo "$TASK_NAME $TASK_PAYLOAD" >>"$HOME/ran"
EOF2
chmod +x gate gate2 ex

test_expect_success 'an event gate lets {"ev":1} through and stops {"ev":2}' '
	task-add --manual --name E --payload "{\"own\":1}" --gate "$PWD/gate" --exec "$PWD/ex" e \
		>/dev/null &&
	task-run --queue --key k1 --payload "{\"ev\":1}" E >/dev/null &&
	task-run --queue --key k2 --payload "{\"ev\":2}" E >/dev/null &&
	task-tick >/dev/null 2>&1 &&
	sort gate.log >actual &&
	printf "%s\n" "{\"ev\":1}|{\"ev\":1}" "{\"ev\":2}|{\"ev\":2}" >expect &&
	test_cmp expect actual &&
	echo "E {\"ev\":1}" >expect && test_cmp expect ran &&
	task-log --task E | cut -f7 | sort >actual &&
	printf "skipped\nsuccess\n" >expect && test_cmp expect actual
'

test_expect_success 'no payload file is left behind' '
	ls tmp >actual && test ! -s actual
'

test_expect_success 'a follower gate reads its upstream run' '
	rm -f ran &&
	task-add --manual --name U --exec "echo go" u >/dev/null &&
	task-add --after U --name F --gate "$PWD/gate2" --exec "$PWD/ex" f >/dev/null &&
	task-run U >/dev/null &&
	task-tick >/dev/null 2>&1 &&
	task-log --task U | cut -f1 >expect &&
	test_cmp expect gate2.log &&
	echo "F {}" >expect && test_cmp expect ran
'

test_done
