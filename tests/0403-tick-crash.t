#!/bin/sh
# Crash safety: a task-tick killed with SIGKILL mid-run, an executor killed
# mid-run, a stopped task-tick whose lease runs out.  The next pass records
# the run as interrupted, moves the task on (retry or next occurrence), and
# leaves nothing running.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

# The executor: notes its pid and a grandchild's, then waits for a long time.
cat >slow <<\EOF
#!/bin/sh
sleep 300 &
echo $! >"$TASK_NAME.grandchild"
echo $$ >"$TASK_NAME.pid"
wait
EOF
chmod +x slow

# wait_for FILE: until FILE exists and is not empty.
wait_for() {
	test_until 60 test -s "$1"
}

# gone PID...: none of these processes is alive (within 10 s).
gone() {
	for p in "$@"; do
		test_until 10 eval "! alive $p" || return 1
	done
}

# field TASK COLUMN: one column of task-ls for a task.
field() {
	task-ls | grep "^$1" | cut -f"$2"
}

test_expect_success 'task-tick killed mid-run: the next pass records interrupted and retries the one-shot' '
	id=$(task-add --at 2026-11-23T07:00:00Z --name oneshot --exec "$PWD/slow" x) &&
	{ task-tick >out 2>err & } && tick=$! && test_when_finished "test_end \$tick" &&
	wait_for oneshot.pid && wait_for oneshot.grandchild &&
	test "$(field $id 3)" = running &&
	kill -9 $tick && { wait $tick; test $? -eq 137; } &&
	gone $(cat oneshot.pid) &&
	TASK_NOW=2026-11-23T07:00:30Z task-tick >out2 2>err2 &&
	grep -q "\"error\":\"the process running it (pid $tick) ended before the run finished; 1 process it left behind was killed\"" out2 &&
	sed "s/(pid $tick)/(pid P)/" out2 | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"oneshot","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"interrupted","exit_code":null,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:30Z","duration_ms":<ms>,"error":"the process running it (pid P) ended before the run finished; 1 process it left behind was killed"}
	EOF
	test_cmp expect actual &&
	gone $(cat oneshot.grandchild) &&
	task-log --task $id | cut -f5-7 >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tinterrupted\n" >expect &&
	test_cmp expect actual &&
	task-show --json $id | sed "s/(pid $tick)/(pid P)/g; s|$PWD|DIR|g" | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"oneshot","prompt":"x","system_prompt":null,"kind":"at","cron":null,"at":"2026-11-23T07:00:00Z","plan":null,"tz":"UTC","description":"Once on 2026-11-23 at 07:00","enabled":true,"status":"pending","next_run_at":"2026-11-23T07:01:00Z","due_at":"2026-11-23T07:01:00Z","last_run_at":"2026-11-23T07:00:00Z","last_status":"interrupted","last_error":"the process running it (pid P) ended before the run finished; 1 process it left behind was killed","last_result":null,"consecutive_failures":1,"context":null,"attachments":null,"model":null,"exec":"DIR/slow","timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-23T07:00:00Z","updated_at":"2026-11-23T07:00:30Z","deleted_at":null,"runs":[{"id":"<id2>","task_id":"<id1>","slot":"2026-11-23T07:00:00Z","trigger":"schedule","status":"interrupted","started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:30Z","exit_code":null,"duration_ms":<ms>,"attempt":1,"error":"the process running it (pid P) ended before the run finished; 1 process it left behind was killed"}]}
	EOF
	test_cmp expect actual
'

test_expect_success 'the retry fires at its instant with trigger retry' '
	printf "#!/bin/sh\necho fine\n" >quick && chmod +x quick &&
	task-edit --exec "$PWD/quick" $(task-ls | cut -f1) >/dev/null &&
	TASK_NOW=2026-11-23T07:01:30Z task-tick >out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"oneshot","trigger":"retry","slot":"2026-11-23T07:01:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T07:01:30Z","ended_at":"2026-11-23T07:01:30Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	test "$(task-ls | cut -f3)" = completed
'

test_expect_success 'a recurring task without retries interrupted by a crash moves to its next occurrence' '
	reset_store &&
	id=$(task-add --cron "*/10 * * * *" --retries 0 --name recurring --exec "$PWD/slow" x) &&
	{ TASK_NOW=2026-11-23T07:10:00Z task-tick >out 2>err & } && tick=$! && test_when_finished "test_end \$tick" &&
	wait_for recurring.pid && kill -9 $tick && test_expect_code 137 wait $tick &&
	gone $(cat recurring.pid) &&
	TASK_NOW=2026-11-23T07:11:00Z task-tick >out2 &&
	sed "s/(pid $tick)/(pid P)/" out2 | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"recurring","trigger":"schedule","slot":"2026-11-23T07:10:00Z","status":"interrupted","exit_code":null,"started_at":"2026-11-23T07:10:00Z","ended_at":"2026-11-23T07:11:00Z","duration_ms":<ms>,"error":"the process running it (pid P) ended before the run finished; 1 process it left behind was killed"}
	EOF
	test_cmp expect actual &&
	gone $(cat recurring.grandchild) &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-23T07:20:00Z\tinterrupted\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'an executor killed with SIGKILL: interrupted, its leftovers ended, the pass goes on' '
	reset_store && rm -f victim.pid victim.grandchild &&
	id=$(task-add --at 2026-11-23T07:00:00Z --name victim --exec "$PWD/slow" x) &&
	task-add --at 2026-11-23T07:00:00Z --name bystander --exec "$PWD/quick" y >/dev/null &&
	{ task-tick >out 2>err & } && tick=$! && test_when_finished "test_end \$tick" &&
	wait_for victim.pid && wait_for victim.grandchild &&
	kill -9 $(cat victim.pid) &&
	wait $tick &&
	grep -q "\"name\":\"victim\",.*\"status\":\"interrupted\",\"exit_code\":null,.*\"error\":\"killed by signal 9 (SIGKILL); processes it started outlived it (holding its output open) and were killed\"" out &&
	grep -q "\"name\":\"bystander\",.*\"status\":\"success\"" out &&
	{ grep "\"name\":\"victim\"" out | test_json_norm && grep "\"name\":\"bystander\"" out | test_json_norm; } >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"victim","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"interrupted","exit_code":null,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":"killed by signal 9 (SIGKILL); processes it started outlived it (holding its output open) and were killed"}
	{"run_id":"<id1>","task_id":"<id2>","name":"bystander","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	gone $(cat victim.grandchild) &&
	task-show --json $id | grep -q "\"next_run_at\":\"2026-11-23T07:01:00Z\""
'

test_expect_success 'a stopped task-tick whose lease ran out is recovered; its late result is kept as a note' '
	reset_store && rm -f stuck.pid stuck.grandchild &&
	id=$(task-add --at 2026-11-23T07:00:00Z --name stuck --timeout 60 --exec "$PWD/slow" x) &&
	{ task-tick >out 2>err & } && tick=$! && test_when_finished "test_end \$tick" &&
	wait_for stuck.pid && wait_for stuck.grandchild &&
	kill -STOP $tick &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick >early &&
	test ! -s early &&
	TASK_NOW=2026-11-23T07:05:00Z task-tick >late &&
	grep -q "\"error\":\"its lease ran out at 2026-11-23T07:02:02Z; the process running it (pid $tick on [^ ]*) stopped answering; 2 processes it left behind were killed\"" late &&
	sed "s/(pid $tick on [^ )]*)/(pid P on H)/" late | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"stuck","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"interrupted","exit_code":null,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:05:00Z","duration_ms":<ms>,"error":"its lease ran out at 2026-11-23T07:02:02Z; the process running it (pid P on H) stopped answering; 2 processes it left behind were killed"}
	EOF
	test_cmp expect actual &&
	gone $(cat stuck.pid) $(cat stuck.grandchild) &&
	kill -CONT $tick && wait $tick &&
	test ! -s out &&
	grep -q "had been recovered as interrupted before it ended; its result (interrupted) is kept as the run.s note" err &&
	task-log --task $id | cut -f7 >actual && echo interrupted >expect && test_cmp expect actual &&
	task-log "$(task-log --task $id | cut -f1)" | sed -n "/^note:/,\$p" >note &&
	grep -q "^  late result, after the run had been recovered: interrupted at 2026-11-23T07:0[0-9]:[0-9]*Z, exit -1" note
'

test_expect_success 'a manual run whose task-run died gives the task back its status' '
	reset_store && rm -f manual.pid manual.grandchild &&
	id=$(task-add --manual --name manual --exec "$PWD/slow" x) &&
	task-edit --disable $id >/dev/null &&
	{ task-run $id >out 2>err & } && run=$! && test_when_finished "test_end \$run" &&
	wait_for manual.pid && kill -9 $run && test_expect_code 137 wait $run &&
	gone $(cat manual.pid) &&
	task-tick >out2 &&
	sed "s/(pid $run)/(pid P)/" out2 | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"manual","trigger":"manual","slot":null,"status":"interrupted","exit_code":null,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":"the process running it (pid P) ended before the run finished; 1 process it left behind was killed"}
	EOF
	test_cmp expect actual &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t-\tinterrupted\n" >expect &&
	test_cmp expect actual &&
	task-show --json $id | grep -q "\"enabled\":false"
'

test_expect_success 'nothing is left marked running' '
	test -z "$(task-log --limit 0 --status running)"
'

test_done
