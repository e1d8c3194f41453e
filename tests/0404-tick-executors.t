#!/bin/sh
# Executors that misbehave: one that ignores SIGTERM past its timeout, one
# that leaves a grandchild holding stdout open, one that prints 100 MB, one
# that does not exist, one that exits 3.  Each is recorded with the right
# status and a clear error, in one pass that carries on.  Then the notify
# hook, and failures reaching stderr when there is none.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

cat >stubborn <<\EOF
#!/bin/sh
trap '' TERM
echo $$ >stubborn.pid
echo started
while :; do sleep 1; done
EOF
cat >daemonish <<\EOF
#!/bin/sh
sleep 300 &
echo $! >daemonish.grandchild
echo "left one behind"
EOF
cat >flood <<\EOF
#!/bin/sh
head -c 100000000 /dev/zero | tr '\0' x
EOF
cat >three <<\EOF
#!/bin/sh
echo "partial answer"
echo "model said no" >&2
exit 3
EOF
chmod +x stubborn daemonish flood three

# line NAME: the JSON line of the run of task NAME in out.
line() {
	grep "\"name\":\"$1\"" out
}

# run_of NAME: the run id of task NAME in out.
run_of() {
	line "$1" | sed "s/.*\"run_id\":\"\([0-9a-f-]*\)\".*/\1/"
}

test_expect_success 'one pass over five misbehaving executors and a good one' '
	task-add --at 2026-11-23T07:00:00Z --name stubborn --timeout 1 --exec "$PWD/stubborn" a >/dev/null &&
	task-add --at 2026-11-23T07:00:00Z --name daemonish --exec "$PWD/daemonish" b >/dev/null &&
	task-add --at 2026-11-23T07:00:00Z --name flood --exec "$PWD/flood" c >/dev/null &&
	task-add --at 2026-11-23T07:00:00Z --name missing --exec "no-such-executor-here --flag" d >/dev/null &&
	task-add --at 2026-11-23T07:00:00Z --name three --exec "$PWD/three" e >/dev/null &&
	task-add --at 2026-11-23T07:00:00Z --name good --exec "echo fine" f >/dev/null &&
	task-tick -j 8 >out 2>err &&
	test "$(wc -l <out)" -eq 6 &&
	for n in stubborn daemonish flood missing three good; do line $n | test_json_norm || return 1; done >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"stubborn","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"timeout","exit_code":null,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":"timed out after 1 s; its process group got SIGTERM and, still running after the grace, SIGKILL"}
	{"run_id":"<id1>","task_id":"<id2>","name":"daemonish","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":null}
	{"run_id":"<id1>","task_id":"<id2>","name":"flood","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":null}
	{"run_id":"<id1>","task_id":"<id2>","name":"missing","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"failed","exit_code":null,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":"executor '\''no-such-executor-here'\'' not found in PATH"}
	{"run_id":"<id1>","task_id":"<id2>","name":"three","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"failed","exit_code":3,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":"exited with status 3: model said no"}
	{"run_id":"<id1>","task_id":"<id2>","name":"good","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual
'

test_expect_success 'ignoring SIGTERM: timeout, the group killed after the grace' '
	line stubborn | grep -q "\"status\":\"timeout\",\"exit_code\":null,.*\"error\":\"timed out after 1 s; its process group got SIGTERM and, still running after the grace, SIGKILL\"" &&
	! alive "$(cat stubborn.pid)" &&
	task-log "$(run_of stubborn)" | sed -n "/^output:/,/^error:/p" >actual &&
	printf "output:\n  started\nerror:\n" >expect && test_cmp expect actual
'

test_expect_success 'a grandchild holding stdout: the run ends with its executor, the grandchild is killed' '
	line daemonish | grep -q "\"status\":\"success\",\"exit_code\":0,.*\"error\":null" &&
	! alive "$(cat daemonish.grandchild)" &&
	task-log --json "$(run_of daemonish)" >log &&
	grep -q "\"output\":\"left one behind\\\\n\",\"error\":\"processes it started outlived it (holding its output open) and were killed\"" log
'

test_expect_success '100 MB of output: 1 MiB kept, the rest counted and marked' '
	line flood | grep -q "\"status\":\"success\"" &&
	task-log --json "$(run_of flood)" >log &&
	sed "s/.*\"output\":\"\([^\"]*\)\".*/\1/" log >output &&
	test "$(head -c 1048576 output | tr -d x | wc -c)" -eq 0 &&
	tail -c +1048577 output >mark &&
	printf "\\\\n[... output truncated: 98951424 bytes dropped]\\\\n\n" >expect &&
	test_cmp expect mark
'

test_expect_success 'an executor that does not exist: failed, with the name' '
	line missing | grep -q "\"status\":\"failed\",\"exit_code\":null,.*\"error\":\"executor '\''no-such-executor-here'\'' not found in PATH\"" &&
	grep -q "^task-tick: task '\''missing'\'' ([0-9a-f]*) failed: executor '\''no-such-executor-here'\'' not found in PATH$" err
'

test_expect_success 'exit 3: failed with its status, stdout and stderr kept' '
	line three | grep -q "\"status\":\"failed\",\"exit_code\":3,.*\"error\":\"exited with status 3: model said no\"" &&
	task-log "$(run_of three)" | sed -n "/^status:/p;/^output:/,\$p" >actual &&
	cat >expect <<-\EOF &&
	status:    failed (exit 3)
	output:
	  partial answer
	error:
	  exited with status 3
	  model said no
	EOF
	test_cmp expect actual &&
	task-ls | grep three | cut -f3,6 >actual && printf "pending\tfailed\n" >expect && test_cmp expect actual
'

test_expect_success 'the good one succeeded; every failure went to stderr, one line each' '
	line good | grep -q "\"status\":\"success\"" &&
	test "$(wc -l <err)" -eq 3 &&
	grep -q "^task-tick: task '\''stubborn'\'' ([0-9a-f]*) timeout: timed out after 1 s" err &&
	grep -q "^task-tick: task '\''three'\'' ([0-9a-f]*) failed: exited with status 3: model said no$" err
'

test_expect_success 'a bad command line (from an older store) fails the run, not the pass' '
	reset_store &&
	task-add --at 2026-11-23T07:00:00Z --name quote --exec "echo" a >/dev/null &&
	store_sql "UPDATE tasks SET exec = '\''echo \"unterminated'\''" &&
	task-tick >out 2>err &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"quote","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"failed","exit_code":null,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":"bad executor command line: unterminated quote in command line '\''echo \"unterminated'\''"}
	EOF
	test_cmp expect actual
'

test_expect_success 'a notify hook gets the finished runs its policy asks for as JSON on stdin' '
	reset_store && rm -f notified &&
	printf "#!/bin/sh\n{ cat; echo \" env=\$TASK_STATUS\"; } >>notified\n" >hook && chmod +x hook &&
	a=$(task-add --at 2026-11-23T07:00:00Z --name ok --notify-on always --exec "echo hello" a) &&
	b=$(task-add --at 2026-11-23T07:00:00Z --name bad --exec "$PWD/three" b) &&
	TASK_NOTIFY=$PWD/hook task-tick >out 2>err &&
	test ! -s err &&
	grep -q "^{\"event\":\"change\",\"task_id\":\"$a\",\"name\":\"ok\",\"reason\":null,\"run_id\":\"[0-9a-f-]*\",\"trigger\":\"schedule\",\"status\":\"success\",\"exit_code\":0,\"slot\":\"2026-11-23T07:00:00Z\",\"started_at\":\"2026-11-23T07:00:00Z\",\"ended_at\":\"2026-11-23T07:00:00Z\",\"duration_ms\":[0-9]*,\"output\":\"hello\\\\n\",\"output_truncated\":false,\"error\":null}$" notified &&
	grep -q "^{\"event\":\"failure\",\"task_id\":\"$b\",\"name\":\"bad\",.*\"status\":\"failed\",\"exit_code\":3,.*\"error\":\"exited with status 3\\\\nmodel said no\\\\n\"}$" notified &&
	grep -q "^ env=success$" notified && grep -q "^ env=failed$" notified &&
	{ grep "\"name\":\"ok\"" notified | test_json_norm && grep "\"name\":\"bad\"" notified | test_json_norm; } >actual &&
	cat >expect <<-\EOF &&
	{"event":"change","task_id":"<id1>","name":"ok","reason":null,"run_id":"<id2>","trigger":"schedule","status":"success","exit_code":0,"slot":"2026-11-23T07:00:00Z","started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"output":"hello\n","output_truncated":false,"error":null}
	{"event":"failure","task_id":"<id1>","name":"bad","reason":null,"run_id":"<id2>","trigger":"schedule","status":"failed","exit_code":3,"slot":"2026-11-23T07:00:00Z","started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"output":"partial answer\n","output_truncated":false,"error":"exited with status 3\nmodel said no\n"}
	EOF
	test_cmp expect actual
'

test_expect_success 'a per-task hook wins over TASK_NOTIFY, the config file is the last default' '
	reset_store && rm -f notified other &&
	printf "#!/bin/sh\ncat >>other\n" >hook2 && chmod +x hook2 &&
	task-add --at 2026-11-23T07:00:00Z --name own --notify "$PWD/hook2" --exec true a >/dev/null &&
	task-add --at 2026-11-23T07:00:00Z --name default --exec true b >/dev/null &&
	mkdir -p config/agentcron &&
	printf "notify = %s/hook\nnotify_on = success\n" "$PWD" >config/agentcron/config &&
	chmod 600 config/agentcron/config &&
	task-tick >out &&
	grep -q "\"name\":\"own\"" other && ! grep -q "\"name\":\"default\"" other &&
	grep -q "\"name\":\"default\"" notified && ! grep -q "\"name\":\"own\"" notified &&
	rm config/agentcron/config
'

test_expect_success 'a failing hook is reported on stderr and changes nothing on record' '
	reset_store &&
	printf "#!/bin/sh\ncat >/dev/null\necho hook broke >&2\nexit 5\n" >badhook && chmod +x badhook &&
	id=$(task-add --at 2026-11-23T07:00:00Z --notify-on success --exec true a) &&
	TASK_NOTIFY=$PWD/badhook task-tick >out 2>err &&
	grep -q "^task-tick: notify hook '\''[^'\'']*badhook'\'' failed for run [0-9a-f]\{8\}: exited with status 5: hook broke$" err &&
	test "$(wc -l <err)" -eq 1 &&
	task-ls | cut -f3,6 >actual && printf "completed\tsuccess\n" >expect && test_cmp expect actual
'

test_expect_success 'last_result and last_error are cut between characters, never inside one' '
	reset_store &&
	for n in 198 199 200; do
		printf "#!/bin/sh\nprintf \"%%0${n}d\" 0 | tr 0 a\nprintf \"\\342\\200\\224 and more\\n\"\n" >long$n &&
		chmod +x long$n &&
		task-add --at 2026-11-23T07:00:00Z --force --name long$n --exec "$PWD/long$n" a >/dev/null || exit 1
	done &&
	printf "#!/bin/sh\n{ printf \"%%0178d\" 0 | tr 0 a; printf \"\\342\\200\\224 and more\\n\"; } >&2\nexit 1\n" >longerr &&
	chmod +x longerr &&
	task-add --at 2026-11-23T07:00:00Z --force --name longerr --exec "$PWD/longerr" a >/dev/null &&
	task-tick >out 2>err &&
	task-ls --json >ls.json &&
	iconv -f UTF-8 -t UTF-8 ls.json >/dev/null &&
	test "$(grep -c "\"last_result\":\"a\{198,200\}[^\"]\{0,3\}\.\.\.\"" ls.json)" -eq 3 &&
	grep -q "\"last_error\":\"exited with status 1 a\{178\}[^\"]\{0,3\}\.\.\.\"" ls.json
'

test_done
