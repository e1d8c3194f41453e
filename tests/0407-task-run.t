#!/bin/sh
# task-run: a manual run in the foreground (the result on stdout, the exit
# status of the run), which leaves the schedule alone, fires disabled tasks,
# and is refused for a running task; --queue for the next pass of task-tick.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

cat >answer <<\EOF
#!/bin/sh
echo "answer to: $(cat) ($TASK_TRIGGER)"
EOF
# slow: a run that stays in flight until the test creates "go".
cat >slow <<\EOF
#!/bin/sh
: >slow.started
while ! test -e go; do sleep 0.05; done
echo slow done
EOF
chmod +x answer slow

test_expect_success 'the result on stdout, exit 0, trigger manual' '
	id=$(task-add --cron "0 9 * * *" --name daily --exec "$PWD/answer" "what time is it") &&
	task-run $id >out 2>err &&
	echo "answer to: what time is it (manual)" >expect &&
	test_cmp expect out && test ! -s err &&
	task-log | cut -f5-8 >actual &&
	printf "manual\t-\tsuccess\t0\n" >expect && test_cmp expect actual
'

test_expect_success 'a manual run leaves next_run_at, enabled and the status alone, records last_*' '
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-23T09:00:00Z\tsuccess\n" >expect && test_cmp expect actual &&
	task-edit --disable $(task-ls | cut -f1) >/dev/null &&
	task-run $(task-ls | cut -f1) >out &&
	task-show --json $(task-ls | cut -f1) | sed "s|$PWD|DIR|g" | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"daily","prompt":"what time is it","system_prompt":null,"kind":"cron","cron":"0 9 * * *","at":null,"plan":null,"tz":"UTC","description":"Daily at 09:00","enabled":false,"status":"pending","next_run_at":"2026-11-23T09:00:00Z","due_at":"2026-11-23T09:00:00Z","last_run_at":"2026-11-23T07:00:00Z","last_status":"success","last_error":null,"last_result":"answer to: what time is it (manual)","consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":"DIR/answer","timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-23T07:00:00Z","updated_at":"2026-11-23T07:00:00Z","deleted_at":null,"runs":[{"id":"<id2>","task_id":"<id1>","slot":null,"trigger":"manual","status":"success","started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","exit_code":0,"duration_ms":<ms>,"attempt":1,"output":"answer to: what time is it (manual)\n"},{"id":"<id3>","task_id":"<id1>","slot":null,"trigger":"manual","status":"success","started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","exit_code":0,"duration_ms":<ms>,"attempt":1,"output":"answer to: what time is it (manual)\n"}]}
	EOF
	test_cmp expect actual
'

test_expect_success 'a completed one-shot runs again by hand and stays completed' '
	reset_store &&
	id=$(task-add --at 2026-11-23T07:00:00Z --exec "$PWD/answer" once) &&
	task-tick >/dev/null && test "$(task-ls | cut -f3)" = completed &&
	task-run $id >out &&
	test "$(task-ls | cut -f3)" = completed &&
	test "$(task-log | wc -l)" -eq 2
'

test_expect_success 'a failing run: its stderr and one line on stderr, exit 1; consecutive failures untouched' '
	reset_store &&
	printf "#!/bin/sh\necho partial\necho boom >&2\nexit 7\n" >fail && chmod +x fail &&
	id=$(task-add --manual --name failing --exec "$PWD/fail" x) &&
	test_expect_code 1 task-run $id >out 2>err &&
	echo partial >expect && test_cmp expect out &&
	printf "boom\ntask-run: task '\''failing'\'' (%.8s) failed: exited with status 7\n" $id >expect &&
	test_cmp expect err &&
	task-show --json $id | grep -q "\"consecutive_failures\":0"
'

test_expect_success 'no such task: exit 3; several ids keep going after a bad one' '
	id=$(task-add --manual --name ok --exec "$PWD/answer" fine) &&
	test_expect_code 3 task-run 0000dead $id >out 2>err &&
	echo "answer to: fine (manual)" >expect && test_cmp expect out &&
	test_one_line err && grep -q "^task-run: no task '\''0000dead'\''" err
'

test_expect_success 'ids on stdin with -' '
	task-ls --json | grep "\"name\":\"ok\"" | task-run - >out &&
	echo "answer to: fine (manual)" >expect && test_cmp expect out
'

# Rerun what failed: task-log's lines, tab-separated or JSON, name runs;
# their task is the one to run, once however many of its runs failed.
test_expect_success 'task-log --status failed | task-run -: each task whose runs failed, once' '
	reset_store &&
	printf "#!/bin/sh\ntest -e fixed || exit 1\necho fixed now\n" >flaky && chmod +x flaky &&
	a=$(task-add --manual --name flaky --exec "$PWD/flaky" p) &&
	b=$(task-add --manual --name good --exec "$PWD/answer" q) &&
	test_expect_code 1 task-run $a >/dev/null 2>&1 &&
	test_expect_code 1 task-run $a >/dev/null 2>&1 &&
	task-run $b >/dev/null &&
	: >fixed &&
	task-log --status failed | task-run - >out &&
	echo "fixed now" >expect && test_cmp expect out &&
	rm fixed &&
	task-log --json --status failed | test_expect_code 1 task-run - >out 2>err &&
	test "$(task-log --task $a | wc -l)" -eq 4 &&
	test "$(task-log --task $b | wc -l)" -eq 1
'

test_expect_success 'a task already running is refused with exit 4' '
	reset_store && rm -f slow.started &&
	id=$(task-add --manual --exec "$PWD/slow" x) &&
	{ task-run $id >bg.out 2>bg.err & } && bg=$! && test_when_finished "test_end \$bg" &&
	test_until 60 test -e slow.started &&
	test_expect_code 4 task-run $id >out 2>err &&
	test_one_line err &&
	printf "task-run: task '\''%.8s'\'' is already running\n" $id >expect && test_cmp expect err &&
	touch go && wait $bg && rm go && echo "slow done" >expect && test_cmp expect bg.out
'

test_expect_success 'Ctrl-C ends the run: recorded interrupted, exit 1, status given back' '
	reset_store && rm -f slow.started &&
	id=$(task-add --at 2026-11-24T07:00:00Z --exec "$PWD/slow" x) &&
	{ task-run $id >out 2>err & } && bg=$! && test_when_finished "test_end \$bg" &&
	test_until 60 test -e slow.started && kill -INT $bg &&
	{ wait $bg; test $? -eq 1; } &&
	grep -q "^task-run: task '\''x'\'' ([0-9a-f]*) interrupted: killed by signal 15 (SIGTERM); stopped before the run finished$" err &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-24T07:00:00Z\tinterrupted\n" >expect && test_cmp expect actual
'

test_expect_success 'Ctrl-C stops task-run: the ids after the interrupted run are not run' '
	reset_store && rm -f slow.started &&
	a=$(task-add --manual --name first --exec "$PWD/slow" x) &&
	b=$(task-add --manual --force --name second --exec "$PWD/slow" y) &&
	{ task-run $a $b >out 2>err & } && bg=$! && test_when_finished "test_end \$bg" &&
	test_until 60 test -e slow.started && rm slow.started && kill -INT $bg &&
	{ wait $bg; test $? -eq 1; } &&
	test ! -e slow.started &&
	task-log | cut -f4,7 >actual &&
	printf "first\tinterrupted\n" >expect && test_cmp expect actual
'

test_expect_success '--json prints the run as a JSON object' '
	reset_store &&
	id=$(task-add --manual --exec "$PWD/answer" q) &&
	task-run --json $id >out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","task_id":"<id2>","slot":null,"trigger":"manual","status":"success","started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","exit_code":0,"duration_ms":<ms>,"attempt":1,"output":"answer to: q (manual)\n","name":"q"}
	EOF
	test_cmp expect actual &&
	grep -q "^{\"id\":\"[0-9a-f-]*\",\"task_id\":\"$id\",\"slot\":null,\"trigger\":\"manual\",\"status\":\"success\",.*\"output\":\"answer to: q (manual)\\\\n\",.*}$" out
'

test_expect_success '--queue: printed id, the next pass runs it once, as manual, leaving the schedule' '
	reset_store &&
	id=$(task-add --cron "0 9 * * *" --exec "$PWD/answer" queued) &&
	task-run --queue $id >out &&
	echo $id >expect && test_cmp expect out &&
	task-show --json $id | grep -q "\"queued\":true" &&
	task-tick >out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"queued","trigger":"manual","slot":null,"status":"success","exit_code":0,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	task-show --json $id >show &&
	grep -q "\"queued\":false" show &&
	grep -q "\"next_run_at\":\"2026-11-23T09:00:00Z\"" show &&
	task-tick >out && test ! -s out
'

# Unwoken, the watcher would look again only a minute later: well under that
# (10 s, for a loaded machine) it was woken.
test_expect_success '--queue wakes a watching task-tick, which runs it at once' '
	reset_store && unset TASK_NOW &&
	id=$(task-add --manual --exec "$PWD/answer" woken) &&
	test_start_ready wout werr task-tick --watch && w=$test_ready_pid &&
	task-run --queue $id >/dev/null &&
	test_until 60 test -s wout &&
	kill -TERM $w && wait $w &&
	grep -q "\"trigger\":\"manual\",.*\"status\":\"success\"" wout
'

test_expect_success 'usage: --help, --version, unknown option' '
	task-run --help | grep -q "^usage: task-run" &&
	test "$(task-run --version)" = "task-run (agentcron) 0.1.0" &&
	test_expect_code 2 task-run --frobnicate 2>err && test_one_line err
'

test_done
