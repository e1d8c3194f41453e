#!/bin/sh
# A gate (--gate COMMAND) runs before the executor and decides for nothing:
# exit 0 goes on with its output in the prompt, 1 records a skip with no
# model call, no tokens, no failure and no notice, anything else (a
# timeout too) is a failure counted and retried as any.  Against the echo
# provider, so the tokens on record are real.  Agents cannot set one.
. "$AC_TOP/tests/lib.sh"
mkdir -p config/agentcron && echo "provider = echo" >config/agentcron/config
# The gate: prints the mailbox, exits with the code in ./code (hangs on "hang").
cat >gate <<\EOF2
#!/bin/sh
test -s "$HOME/mailbox" && cat "$HOME/mailbox"
code=$(cat "$HOME/code")
test "$code" = hang && exec sleep 300
echo "$TASK_NAME $TASK_ATTEMPT" >>"$HOME/gate.env"
exit "$code"
EOF2
chmod +x gate
printf '#!/bin/sh\ncat >>"$HOME/told"\n' >hook && chmod +x hook
calls() { task-log --usage --json | sed -n 's/.*"total":true,"calls":\([0-9]*\).*/\1/p'; }
# output RUN: what run RUN answered, as task-log shows it.
output() { task-log "$1" | sed -n "/^output:/,/^error:/p"; }

test_expect_success 'exit 0: the run goes on, the gate output after the prompt or in {{gate}}' '
	export TASK_NOW=2026-11-23T06:59:00Z &&
	task-add --cron "0 7 * * *" --name inbox --gate "$PWD/gate" --notify "$PWD/hook" \
		"Summarise the mail for the morning." >id &&
	task-add --manual --name named --gate "$PWD/gate" --exec cat "Mail: [{{gate}}] end" >/dev/null &&
	printf "From: ana\nSubject: lunch\n" >mailbox && echo 0 >code &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >out 2>err && test ! -s err &&
	output "$(task-log --task inbox | cut -f1)" >actual &&
	printf "output:\n  echo: Summarise the mail for the morning.\n  \n  From: ana\n  Subject: lunch\nerror:\n" >expect &&
	test_cmp expect actual &&
	test "$(calls)" = 1 &&
	task-run named >actual &&
	printf "Mail: [From: ana\nSubject: lunch\n] end" >expect && test_cmp expect actual &&
	printf "inbox 1\nnamed 1\n" >expect && test_cmp expect gate.env
'

test_expect_success 'exit 1: a skip with the reason, no model call, no tokens, no failure, no notice' '
	rm -f mailbox told && echo "no new mail" >mailbox && echo 1 >code &&
	TASK_NOW=2026-11-24T07:00:10Z task-tick >out 2>err &&
	echo "task-tick: task '\''inbox'\'' ($(cut -c1-8 id)) skipped: gate: nothing to do: no new mail" >expect &&
	test_cmp expect err &&
	grep -q "\"status\":\"skipped\"" out &&
	task-log --task inbox | cut -f7 >actual && printf "skipped\nsuccess\n" >expect &&
	test_cmp expect actual &&
	task-log "$(task-log --task inbox --status skipped | cut -f1)" >run &&
	sed -n "/^error:/,\$p" run >actual &&
	printf "error:\n  gate: nothing to do: no new mail\n" >expect &&
	test_cmp expect actual &&
	test "$(calls)" = 1 &&
	task-show inbox >show &&
	grep -q "^failures: *0$" show && grep -q "^last run: .*skipped$" show &&
	grep -q "^next run: *2026-11-25 07:00" show &&
	test ! -e told &&
	task-log --gate-skips | cut -f4,7 >actual && printf "inbox\tskipped\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-24T08:00:00Z task-status --json | grep -q "\"runs_24h\":{\"skipped\":1,\"gate_skips\":1}" &&
	task-log --usage --json >usage &&
	tail -n 1 usage >actual &&
	echo "{\"gate_skips\":1,\"calls\":0,\"input_tokens\":0,\"output_tokens\":0,\"cost\":0}" >expect &&
	test_cmp expect actual &&
	head -n 1 usage | grep -q "\"calls\":1,\"input_tokens\":" &&
	test_expect_code 0 task-run named >out 2>err && test ! -s out &&
	grep -q "skipped: gate: nothing to do: no new mail$" err
'

test_expect_success 'another exit: a failure, counted, retried and told' '
	rm -f told && echo 2 >code &&
	TASK_NOW=2026-11-25T07:00:10Z task-tick >out 2>err &&
	grep -q "\"status\":\"failed\",.*\"error\":\"gate: exited with status 2\"" out &&
	task-show inbox >show &&
	grep -q "^next run: .*a retry of the occurrence of 2026-11-25 07:00 UTC, which failed" show &&
	grep -q "\"event\":\"failure\"" told &&
	TASK_NOW=2026-11-25T07:01:10Z task-tick >out 2>err &&
	grep -q "\"trigger\":\"retry\",.*\"status\":\"failed\"" out &&
	tail -n 1 gate.env >actual && echo "inbox 2" >expect && test_cmp expect actual &&
	test "$(calls)" = 1
'

test_expect_success 'a gate past its --gate-timeout: a timeout, its process ended' '
	echo hang >code &&
	task-add --manual --name slow --gate "$PWD/gate" --gate-timeout 1 --exec cat x >/dev/null &&
	test_expect_code 1 task-run slow >out 2>err &&
	grep -q "timeout: gate: timed out after 1 s" err &&
	task-log --task slow | cut -f7 >actual && echo timeout >expect && test_cmp expect actual &&
	test "$(calls)" = 1
'

test_expect_success 'a scheduled gate past its timeout: retried, then counted as a failure and told' '
	echo hang >code && rm -f told &&
	TASK_NOW=2026-11-23T07:59:00Z task-add --cron "0 8 * * *" --retries 1 --name slowday \
		--gate "$PWD/gate" --gate-timeout 1 --notify "$PWD/hook" x >/dev/null &&
	TASK_NOW=2026-11-23T08:00:10Z task-tick >out 2>err &&
	grep -q "\"status\":\"timeout\",.*\"error\":\"gate: timed out after 1 s" out &&
	task-show slowday >show &&
	grep -q "^next run: .*a retry of the occurrence of 2026-11-23 08:00 UTC, which failed" show &&
	TASK_NOW=2026-11-23T08:01:10Z task-tick >out 2>err &&
	grep -q "\"trigger\":\"retry\",.*\"status\":\"timeout\"" out &&
	task-show slowday | grep -q "^failures: *1$" &&
	test_until 60 eval "grep -q \"\\\"event\\\":\\\"failure\\\"\" told" &&
	test "$(calls)" = 1
'

test_expect_success 'bad gates are refused when the task is made; no shell reads one; --gate "" removes it' '
	test_expect_code 2 task-add --manual --gate "unclosed \"quote" x 2>err && test_one_line err &&
	grep -q "bad --gate" err &&
	test_expect_code 2 task-add --manual --gate true --gate-timeout 0 x 2>err && test_one_line err &&
	task-add --manual --name lost --gate "no-such-gate --now" --exec cat x >/dev/null &&
	test_expect_code 1 task-run lost 2>err &&
	grep -q "failed: gate: command .no-such-gate. not found in PATH" err &&
	task-add --manual --name noshell --gate "echo \$HOME; \$(id) *" --exec cat "[{{gate}}]" >/dev/null &&
	task-run noshell >actual &&
	printf "[\$HOME; \$(id) *\n]" >expect && test_cmp expect actual &&
	task-edit slow --gate "" >/dev/null &&
	task-ls --json | grep "\"name\":\"slow\"" >json && ! grep -q "\"gate\"" json
'

test_expect_success 'nothing to do is said on standard error once per streak, in the log each time' '
	echo "nothing" >mailbox && echo 1 >code &&
	TASK_NOW=2026-12-01T06:59:00Z task-add --cron "0 7 * * *" --name quiet --gate "$PWD/gate" q >/dev/null &&
	for day in 01 02 03; do
		TASK_NOW=2026-12-${day}T07:00:10Z task-tick >out.$day 2>err.$day &&
		grep -q "\"status\":\"skipped\"" out.$day || return 1
	done &&
	grep "quiet" err.01 >actual &&
	echo "task-tick: task '\''quiet'\'' ($(task-ls --json | sed -n "s/.*\"id\":\"\([^\"]\{8\}\).*\"name\":\"quiet\".*/\1/p")) skipped: gate: nothing to do: nothing" >expect &&
	test_cmp expect actual && ! grep -q quiet err.02 && ! grep -q quiet err.03 &&
	echo 0 >code && TASK_NOW=2026-12-04T07:00:10Z task-tick >/dev/null 2>err.04 && ! grep -q quiet err.04 &&
	echo 1 >code && TASK_NOW=2026-12-05T07:00:10Z task-tick >/dev/null 2>err.05 &&
	grep -q "quiet.*skipped: gate: nothing to do: nothing$" err.05
'

test_expect_success 'agents cannot set a gate, nor change a task the user gave one' '
	printf "{\"name\":\"task_create\",\"arguments\":{\"name\":\"a\",\"prompt\":\"p\",\"manual\":true,\"gate\":\"/bin/true\"}}\n" >call &&
	test_expect_code 2 task-mcp --call <call >out &&
	grep -q "^Unknown argument .gate. for task_create" out &&
	printf "{\"name\":\"task_create\",\"arguments\":{\"name\":\"agent\",\"prompt\":\"p\",\"manual\":true}}\n" >call &&
	task-mcp --call <call >/dev/null &&
	task-edit agent --gate true >/dev/null &&
	printf "{\"name\":\"task_update\",\"arguments\":{\"id\":\"agent\",\"prompt\":\"q\"}}\n" >call &&
	test_expect_code 2 task-mcp --call <call >out &&
	grep -q "^Refused: task .agent. runs a gate command the user set" out &&
	task-show agent | grep -q "^  p$"
'


test_expect_success 'a retry runs the gate again; its exit 1 ends the retries, the task done' '
	printf "#!/bin/sh\nif [ -e gated ]; then exit 1; fi\ntouch gated\n" >once-go &&
	chmod +x once-go && rm -f gated &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec false \
		--gate "$PWD/once-go" --retries 2 --name retried x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:02:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:10:00Z task-tick >/dev/null 2>&1 &&
	task-log --task retried | cut -f5,7,8 >actual &&
	printf "retry\tskipped\t-\nschedule\tfailed\t1\n" >expect && test_cmp expect actual &&
	task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    if t[\"name\"] == \"retried\":
        print(t[\"status\"], t[\"next_run_at\"], t[\"consecutive_failures\"])" >actual &&
	echo "completed None 1" >expect && test_cmp expect actual
'

test_done
