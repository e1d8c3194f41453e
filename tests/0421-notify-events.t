#!/bin/sh
# Who hears of what: a task's --notify-on (else the config's notify_on,
# else failure,recovery) says which finished runs its hook is told of, and
# the JSON it reads names the event: failure, recovery (the first success
# after failures), change (output unlike the last success's), success.
# Budget skips and automatic pauses are told whatever the policy.  Each
# through task-tick.
. "$AC_TOP/tests/lib.sh"
printf "#!/bin/sh\n{ cat; echo \"env=\$TASK_EVENT\"; } >>\"\$0.log\"\n" >hook && chmod +x hook || exit 1
# The executor does what the file `do` says: "ok TEXT" or "fail".
cat >job <<'EOT' && chmod +x job || exit 1
#!/bin/sh
read what text <"$(dirname "$0")/do"
[ "$what" = ok ] || { echo "it broke" >&2; exit 1; }
echo "$text"
EOT
TASK_NOTIFY=$PWD/hook
export TASK_NOTIFY

# pass DO...: for each, the executor is told DO and an hourly pass runs
# (the hour counts on from 07:00, or $H); then the events the hook heard, a line each.
pass() {
	h=${H:-7}
	for w in "$@"; do
		echo "$w" >do &&
		TASK_NOW=2026-11-23T$(printf %02d $h):00:00Z task-tick >/dev/null || return 1
		h=$((h + 1))
	done
	{ test -f hook.log && grep "^{" hook.log | sed "s/.*\"event\":\"\([a-z]*\)\".*\"status\":\"\([a-z]*\)\".*\"output\":\"\([^\"]*\)\".*/\1 \2 \3/"; } >events
	rm -f hook.log
}
# task POLICY: a fresh store with one hourly task of that policy ("" none).
task() {
	reset_store && rm -f hook.log &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --retries 0 --exec "$PWD/job" \
		${1:+--notify-on "$1"} --name job x >/dev/null
}

test_expect_success 'by default: failures and the first success after them' '
	task "" &&
	pass "ok A" fail fail "ok A" "ok A" &&
	cat >expect <<-\EOT &&
	failure failed 
	failure failed 
	recovery success A\n
	EOT
	test_cmp expect events
'

test_expect_success 'the whole event: its name, the task, the run, and TASK_EVENT' '
	task "" && echo fail >do &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null &&
	grep "^{" hook.log | test_json_norm >actual &&
	cat >expect <<-\EOT &&
	{"event":"failure","task_id":"<id1>","name":"job","reason":null,"run_id":"<id2>","trigger":"schedule","status":"failed","exit_code":1,"slot":"2026-11-23T07:00:00Z","started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"output":"","output_truncated":false,"error":"exited with status 1\nit broke\n"}
	EOT
	test_cmp expect actual &&
	grep "^env=" hook.log >actual && echo env=failure >expect && test_cmp expect actual
'

test_expect_success 'change: a success whose output differs from the last success'\''s' '
	task change &&
	pass "ok A" "ok A" "ok B" fail "ok B" "ok A" &&
	cat >expect <<-\EOT &&
	change success A\n
	change success B\n
	change success A\n
	EOT
	test_cmp expect events
'

test_expect_success 'success: every success; always: every run, named by what it was' '
	task success &&
	pass "ok A" fail "ok A" &&
	printf "success success A\\\\n\nsuccess success A\\\\n\n" >expect &&
	test_cmp expect events &&
	task always &&
	pass "ok A" "ok A" fail "ok A" "ok B" &&
	cat >expect <<-\EOT &&
	change success A\n
	success success A\n
	failure failed 
	recovery success A\n
	change success B\n
	EOT
	test_cmp expect events
'

test_expect_success 'never: no run is told, but a budget skip still is' '
	task never &&
	task-edit --budget 2tok/day job >/dev/null &&
	store_sql "INSERT INTO llm_calls (task_id, model, input_tokens, output_tokens, created_at)
		SELECT id, '\''m'\'', 1, 1, 1795420800 FROM tasks" &&
	store_sql "INSERT INTO spend (task_id, at, dollars, tokens) SELECT id, 1795420800, 0, 2 FROM tasks" &&
	pass "ok A" fail &&
	echo "budget skipped " >expect &&
	test_cmp expect events
'

test_expect_success 'an automatic pause is told whatever the policy, with its reason' '
	task never &&
	task-edit --pause-after 2 job >/dev/null &&
	echo fail >do &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >/dev/null 2>&1 &&
	grep "^{" hook.log | sed "s/,\"run_id\".*\"status\":\"\([a-z]*\)\".*/ \1/" >actual &&
	echo "{\"event\":\"paused\",\"task_id\":\"$(task-ls --json | sed "s/^{\"id\":\"\([^\"]*\)\".*/\1/")\",\"name\":\"job\",\"reason\":\"paused after 2 failures in a row: exited with status 1 it broke\" failed" >expect &&
	test_cmp expect actual &&
	grep "^env=" hook.log >actual && echo env=paused >expect && test_cmp expect actual
'

test_expect_success 'the config'\''s notify_on is the default; a task'\''s own wins; "" goes back' '
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	printf "notify_on = success\n" >"$XDG_CONFIG_HOME/agentcron/config" &&
	task "" &&
	pass "ok A" fail &&
	printf "%s\n" "success success A\\n" >expect && test_cmp expect events &&
	task-edit --notify-on failure job >out &&
	H=9 pass "ok A" fail &&
	echo "failure failed " >expect && test_cmp expect events &&
	test "$(task-show --json job | sed "s/.*\"notify_on\":\([^,]*\),.*/\1/")" = "\"failure\"" &&
	task-edit --notify-on "" job >/dev/null &&
	test "$(task-show --json job | sed "s/.*\"notify_on\":\([^,]*\),.*/\1/")" = null &&
	H=11 pass "ok A" &&
	printf "%s\n" "success success A\\n" >expect && test_cmp expect events &&
	rm "$XDG_CONFIG_HOME/agentcron/config"
'

test_expect_success 'a policy is stored in its plain form; a bad one is refused: exit 2' '
	reset_store &&
	task-add --manual --notify-on " change , failure,failure" --name p x >/dev/null &&
	task-show p | grep "^notify on:" >actual &&
	echo "notify on:    failure,change" >expect && test_cmp expect actual &&
	test_expect_code 2 task-add --manual --notify-on failure,sometimes y 2>err &&
	echo "task-add: bad --notify-on: bad notify event '\''sometimes'\'': expected a list of failure, recovery, change, success, always, never" >expect &&
	test_cmp expect err &&
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	printf "notify_on = loudly\n" >"$XDG_CONFIG_HOME/agentcron/config" &&
	test_expect_code 2 task-tick 2>err &&
	echo "task-tick: config: notify_on: bad notify event '\''loudly'\'': expected a list of failure, recovery, change, success, always, never" >expect &&
	test_cmp expect err &&
	rm "$XDG_CONFIG_HOME/agentcron/config"
'

test_done
