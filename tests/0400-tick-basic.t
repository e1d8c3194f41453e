#!/bin/sh
# task-tick, one pass: what fires, the executor contract (no shell, the
# prompt on stdin, the TASK_* environment, exit status the verdict), the
# JSON line per run, --dry-run, and the state a run leaves behind.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:59:00Z

cat >show-env <<\EOF
#!/bin/sh
# Prints its input, then its arguments and environment, for the checks.
cat
echo
echo "args: $#"
for a in "$@"; do echo "arg: $a"; done
env | grep '^TASK_' | grep -v '^TASK_NOW=' | sort
EOF
chmod +x show-env

test_must_be_empty() {
	test ! -s "$1" || { cat "$1" >&2; return 1; }
}

# run_output RUN_ID: the kept output of a run, as task-log shows it in full.
run_output() {
	task-log "$1" | sed -n "/^output:\$/,/^error:\$/p" | sed -e "1d" -e "\$d" -e "s/^  //"
}

test_expect_success 'a due one-shot fires once: one JSON line, then completed' '
	id=$(task-add --at 2026-11-23T07:00:00Z --name greet --exec "$PWD/show-env" "say hi") &&
	TASK_NOW=2026-11-23T07:00:20Z task-tick >out 2>err &&
	test_must_be_empty err &&
	sed -e "s/\"run_id\":\"[0-9a-f-]*\"/\"run_id\":R/" -e "s/\"duration_ms\":[0-9]*/\"duration_ms\":D/" out >actual &&
	printf "{\"run_id\":R,\"task_id\":\"%s\",\"name\":\"greet\",\"trigger\":\"schedule\",\"slot\":\"2026-11-23T07:00:00Z\",\"status\":\"success\",\"exit_code\":0,\"started_at\":\"2026-11-23T07:00:20Z\",\"ended_at\":\"2026-11-23T07:00:20Z\",\"duration_ms\":D,\"error\":null}\n" "$id" >expect &&
	test_cmp expect actual &&
	task-ls | cut -f2-4,6 >actual &&
	printf "greet\tcompleted\t-\tsuccess\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick >out2 &&
	test ! -s out2
'

test_expect_success 'the executor gets the prompt on stdin and the TASK_* environment, without a shell' '
	reset_store &&
	id=$(task-add --at 2026-11-23T07:00:00Z --name "env check" --system "be brief" --context ctx1 \
		--model m1 --intent in1 --channel ch1 --payload "{\"k\":1}" \
		--mcp notes,files --mcp github --mcp-allow "mcp__notes__read_*" --mcp-allow "mcp__github__*" \
		--exec "$PWD/show-env \"two words\" '\''\$HOME'\'' a\\ b" "line one
line two") &&
	before=$(date +%s) &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >out &&
	after=$(date +%s) &&
	run=$(sed "s/.*\"run_id\":\"\([0-9a-f-]*\)\".*/\1/" out) &&
	run_output "$run" >log &&
	# The instant the run would be ended: its start (the real clock, not
	# TASK_NOW) plus the timeout, to the millisecond.
	deadline=$(sed -n "s/^TASK_DEADLINE=\([0-9]*\)\.[0-9][0-9][0-9]$/\1/p" log) &&
	test "$deadline" -ge $((before + 600)) && test "$deadline" -le $((after + 600)) &&
	sed -e "s|^TASK_OUTCOME_FILE=${TMPDIR:-/tmp}/agentcron-outcome-$run-......$|TASK_OUTCOME_FILE=<private file>|" \
		-e "s|^TASK_DEADLINE=$deadline\.[0-9]*$|TASK_DEADLINE=<start + 600 s>|" log >actual &&
	cat >expect <<-EOF &&
	line one
	line two
	args: 3
	arg: two words
	arg: \$HOME
	arg: a b
	TASK_ATTACHMENTS=[]
	TASK_ATTEMPT=1
	TASK_CHANNEL=ch1
	TASK_CONTEXT=ctx1
	TASK_DB=$TASK_DB
	TASK_DEADLINE=<start + 600 s>
	TASK_FALLBACK_MODELS=
	TASK_ID=$id
	TASK_INTENT=in1
	TASK_MCP=notes,files,github
	TASK_MCP_ALLOW=mcp__notes__read_*,mcp__github__*
	TASK_MODEL=m1
	TASK_NAME=env check
	TASK_ORIGIN=user
	TASK_OUTCOME_FILE=<private file>
	TASK_PAYLOAD={"k":1}
	TASK_RUN_ID=$run
	TASK_SCOPE=
	TASK_SLOT=2026-11-23T07:00:00Z
	TASK_SYSTEM_PROMPT=be brief
	TASK_TIMEOUT=600
	TASK_TRIGGER=schedule
	EOF
	test_cmp expect actual
'

test_expect_success 'unset fields are still in the environment, empty; attachments and payload default' '
	reset_store &&
	task-add --at 2026-11-23T07:00:00Z --exec "$PWD/show-env" p >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >out &&
	run_output "$(sed "s/.*\"run_id\":\"\([0-9a-f-]*\)\".*/\1/" out)" >log &&
	grep -qx "TASK_SYSTEM_PROMPT=" log && grep -qx "TASK_CHANNEL=" log &&
	grep -qx "TASK_CONTEXT=" log && grep -qx "TASK_ATTACHMENTS=\[\]" log &&
	grep -qx "TASK_PAYLOAD={}" log && grep -qx "TASK_TRIGGER=schedule" log &&
	grep -qx "TASK_MCP=" log && grep -qx "TASK_MCP_ALLOW=" log && grep -qx "TASK_SCOPE=" log
'

test_expect_success 'the executor defaults to TASK_EXEC, then the config file, then llm-call' '
	reset_store &&
	printf "#!/bin/sh\necho from-config\n" >cfg-exec && chmod +x cfg-exec &&
	printf "#!/bin/sh\necho from-env\n" >env-exec && chmod +x env-exec &&
	mkdir -p config/agentcron && printf "exec = %s/cfg-exec\n" "$PWD" >config/agentcron/config &&
	chmod 600 config/agentcron/config &&
	a=$(task-add --at 2026-11-23T07:00:00Z a) &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null &&
	b=$(task-add --at 2026-11-23T07:05:00Z b) &&
	TASK_EXEC=$PWD/env-exec TASK_NOW=2026-11-23T07:05:00Z task-tick >/dev/null &&
	c=$(task-add --at 2026-11-23T07:10:00Z --exec "$PWD/show-env" c) &&
	TASK_EXEC=$PWD/env-exec TASK_NOW=2026-11-23T07:10:00Z task-tick >/dev/null &&
	rm config/agentcron/config &&
	d=$(task-add --at 2026-11-23T07:15:00Z d) &&
	mkdir bin2 && printf "#!/bin/sh\necho fake-llm-call\n" >bin2/llm-call && chmod +x bin2/llm-call &&
	PATH=$PWD/bin2:$PATH TASK_NOW=2026-11-23T07:15:00Z task-tick >/dev/null &&
	task-show --json $a | grep -q "\"last_result\":\"from-config\"" &&
	task-show --json $b | grep -q "\"last_result\":\"from-env\"" &&
	task-show --json $c | grep -q "\"last_result\":\"c args: 0" &&
	task-show --json $d | grep -q "\"last_result\":\"fake-llm-call\""
'

test_expect_success '--dry-run lists what would fire and changes nothing' '
	reset_store &&
	a=$(task-add --at 2026-11-23T07:00:00Z --name a --exec true x) &&
	b=$(task-add --cron "*/5 * * * *" --name b --exec true y) &&
	c=$(task-add --at 2026-11-23T08:00:00Z --name c --exec true z) &&
	task-ls >before &&
	TASK_NOW=2026-11-23T07:00:30Z task-tick --dry-run >actual &&
	printf "{\"task_id\":\"%s\",\"name\":\"a\",\"trigger\":\"schedule\",\"slot\":\"2026-11-23T07:00:00Z\",\"due_at\":\"2026-11-23T07:00:00Z\",\"prompt\":\"x\"}\n{\"task_id\":\"%s\",\"name\":\"b\",\"trigger\":\"schedule\",\"slot\":\"2026-11-23T07:00:00Z\",\"due_at\":\"2026-11-23T07:00:00Z\",\"prompt\":\"y\"}\n" $a $b |
		sort >expect &&
	sort actual >actual.sorted &&
	test_cmp expect actual.sorted &&
	task-ls >after && test_cmp before after &&
	test -z "$(task-log)"
'

test_expect_success 'a cron task moves to its next occurrence and stays pending' '
	reset_store &&
	id=$(task-add --cron "*/5 * * * *" --exec true x) &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-23T07:05:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:04:59Z task-tick >out && test ! -s out &&
	TASK_NOW=2026-11-23T07:05:00Z task-tick >out && test "$(wc -l <out)" -eq 1
'

test_expect_success 'jitter: fires at its due instant, on time, with the nominal slot' '
	reset_store &&
	id=00000000-0000-4000-8000-000000000001 &&
	echo "{\"id\":\"$id\",\"name\":\"j\",\"prompt\":\"p\",\"kind\":\"cron\",\"cron\":\"0 7 * * *\",\"jitter\":1800,\"exec\":\"true\"}" |
		task-add --json - >/dev/null &&
	due=$(task-show --json $id | sed "s/.*\"due_at\":\"\([^\"]*\)\".*/\1/") &&
	test "$due" \> 2026-11-23T07:01:00Z && test "$due" \< 2026-11-23T07:30:01Z &&
	before=$(date -u -d "@$(($(date -u -d "$due" +%s) - 1))" +%Y-%m-%dT%H:%M:%SZ) &&
	TASK_NOW=$before task-tick >out && test ! -s out &&
	TASK_NOW=$due task-tick >out &&
	test_json_norm <out >actual &&
	cat >expect <<-EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"j","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"success","exit_code":0,"started_at":"$due","ended_at":"$due","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	task-show --json $id | grep -q "\"next_run_at\":\"2026-11-24T07:00:00Z\""
'

test_expect_success 'a disabled task, a manual one and a heartbeat addition do not fire on their own' '
	reset_store &&
	task-add --at 2026-11-23T07:00:00Z --disabled --exec true x >/dev/null &&
	task-add --manual --exec true y >/dev/null &&
	task-add --heartbeat --exec true z >/dev/null &&
	TASK_NOW=2026-11-25T07:00:00Z task-tick >out &&
	test ! -s out && test -z "$(task-log)"
'

test_expect_success 'a task that cannot be scheduled is parked with the reason; the others fire' '
	reset_store &&
	a=$(task-add --cron "0 7 * * *" --name badcron --exec true a) &&
	b=$(task-add --cron "0 7 * * *" --name badzone --exec true b) &&
	c=$(task-add --cron "0 7 * * *" --name fine --exec true c) &&
	store_sql "UPDATE tasks SET cron = '\''0 7 * *'\'' WHERE id = '\''$a'\''; UPDATE tasks SET tz = '\''Mars/Olympus'\'' WHERE id = '\''$b'\''" &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >out 2>err &&
	grep -q "\"task_id\":\"$c\"" out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"fine","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	test "$(wc -l <err)" -eq 2 &&
	grep -q "^task-tick: task '\''$(echo $a | cut -c1-8)'\'' cannot be scheduled: " err &&
	task-ls | sort -k2 | cut -f2,3 >actual &&
	printf "badcron\tfailed\nbadzone\tfailed\nfine\tpending\n" >expect && test_cmp expect actual &&
	task-show --json $b | grep -q "\"last_error\":\"cannot compute the next run: [^\"]*Mars/Olympus"
'

test_expect_success 'the pass exits 0 though runs failed, and 1 when the store cannot be used' '
	reset_store &&
	task-add --at 2026-11-23T07:00:00Z --exec false x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >out 2>err &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"x","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"failed","exit_code":1,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":"exited with status 1"}
	EOF
	test_cmp expect actual &&
	echo "not a database" >bad.db && chmod 600 bad.db &&
	TASK_DB=$PWD/bad.db test_expect_code 1 task-tick >out 2>err &&
	test_one_line err && grep -q "^task-tick: " err
'

test_expect_success 'usage errors exit 2; --help and --version' '
	test_expect_code 2 task-tick --jobs 0 2>err && test_one_line err &&
	test_expect_code 2 task-tick --bogus 2>err && test_one_line err &&
	test_expect_code 2 task-tick extra 2>err && test_one_line err &&
	task-tick --help >out && grep -q "^usage: task-tick" out &&
	task-tick --version >out && echo "task-tick (agentcron) 0.1.0" >expect && test_cmp expect out
'

# On a terminal a line per run for people; JSON lines in a pipe or with
# --json, as every program does.
test_expect_success 'on a terminal: one readable line per run; --json there; --dry-run too' '
	reset_store &&
	printf "#!/bin/sh\necho \"disk full\" >&2\nexit 3\n" >fails && chmod +x fails &&
	task-add --at 07:00 --tz Europe/London --exec true --name "Morning briefing" p >/dev/null &&
	task-add --at 07:00 --exec "$PWD/fails" --retries 0 --name Backup p >/dev/null &&
	TZ=Europe/London TASK_NOW=2026-11-23T07:00:30Z script -qec "task-tick --dry-run" /dev/null |
		tr -d "\r" | sed "s/  [0-9a-f]\{8\}  /  <id>  /" | sort >actual &&
	cat >expect <<-\EOF &&
	  p
	  p
	would fire  Backup  <id>  schedule  2026-11-23 07:00 GMT
	would fire  Morning briefing  <id>  schedule  2026-11-23 07:00 GMT
	EOF
	test_cmp expect actual &&
	TZ=Europe/London TASK_NOW=2026-11-23T07:00:30Z script -qec "task-tick -j 1" /dev/null |
		tr -d "\r" | sed "s/  [0-9a-f]\{8\}  /  <id>  /; s/  [0-9.]*m\{0,1\}s\(  \|$\)/  <time>\1/" |
		sort >actual &&
	cat >expect <<-\EOF &&
	2026-11-23 07:00:30 GMT  Backup  <id>  schedule  failed  <time>  exited with status 3: disk full
	2026-11-23 07:00:30 GMT  Morning briefing  <id>  schedule  success  <time>
	EOF
	test_cmp expect actual &&
	task-add --at 07:05 --exec true --name again p >/dev/null &&
	TASK_NOW=2026-11-23T07:05:00Z script -qec "task-tick --json" /dev/null | tr -d "\r" |
		test_json_norm -t >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"again","trigger":"schedule","slot":"<time>","status":"success","exit_code":0,"started_at":"<time>","ended_at":"<time>","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual
'

test_done
