#!/bin/sh
# A run's owner is a (pid, start time) pair, so that a pid the system gave
# again to another process does not keep a dead ticker's run "alive":
# found by mutating common/fire_recover.c, where dropping the start time
# from the check changed nothing any other test saw.  The reuse is made
# by changing the start time the run's row holds (the file store keeps the
# owner in the row); the ticker is stopped meanwhile, so that it does not
# record its executor's end before the pass that recovers the run.
. "$AC_TOP/tests/lib.sh"

# The executor: notes its pid, then waits for a long time.
cat >slow <<\EOF
#!/bin/sh
echo $$ >"$HOME/$TASK_NAME.pid"
exec sleep 300
EOF
chmod +x slow

test_expect_success 'a live process with the pid but not the start time of a run owner is not that owner' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --at 2026-11-23T07:00:00Z --name reused \
		--exec "$PWD/slow" x >/dev/null &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >a.out 2>a.err & } && tick=$! &&
	test_when_finished "kill -CONT \$tick; test_end \$tick" &&
	test_until 60 test -s reused.pid &&
	store_sql "UPDATE runs SET owner_start = owner_start + 1 WHERE status = '\''running'\''" &&
	kill -STOP $tick &&
	TASK_NOW=2026-11-23T07:00:30Z task-tick >out 2>err &&
	kill -CONT $tick &&
	python3 -c "import json,sys; r=json.loads(open(\"out\").readline()); print(r[\"status\"], r[\"error\"])" >actual &&
	echo "interrupted the process running it (pid $tick) ended before the run finished; 1 process it left behind was killed" >expect &&
	test_cmp expect actual &&
	wait $tick &&
	store_sql "SELECT status FROM runs" >actual &&
	echo interrupted >expect && test_cmp expect actual
'

test_done
