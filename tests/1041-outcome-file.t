#!/bin/sh
# An executor says what it achieved by writing {"status", "summary"} to
# TASK_OUTCOME_FILE (a private file the scheduler makes for each run and
# removes after): nothing_to_do is a skip, blocked a run status of its
# own (not retried, a WARNING for task-status --check), failed a failure
# retried and counted like any; the summary, untrusted text, is the run's
# reason, as task-log, task-status, the notify hook and deliveries see it.
. "$AC_TOP/tests/lib.sh"
# The executor: writes ./say to its outcome file, notes the file's mode and
# path, and answers.
cat >job <<\EOF
#!/bin/sh
cat >/dev/null
test -n "$TASK_OUTCOME_FILE" || { echo "no TASK_OUTCOME_FILE" >&2; exit 9; }
stat -c %a "$TASK_OUTCOME_FILE" >"$HOME/mode"
echo "$TASK_OUTCOME_FILE" >"$HOME/path"
test -e "$HOME/say" && cat "$HOME/say" >"$TASK_OUTCOME_FILE"
echo "looked at the queue"
exit "$(cat "$HOME/code" 2>/dev/null || echo 0)"
EOF
chmod +x job
printf '#!/bin/sh\ncat >>"$HOME/told"; echo >>"$HOME/told"\n' >hook && chmod +x hook
# reason RUN: the error task-log shows for run RUN.
reason() { task-log "$1" | sed -n "/^error:/,\$p"; }
TASK_NOW=2026-11-22T06:00:00Z
export TASK_NOW
last_run() { task-log --task "$1" --limit 1 | cut -f1; }

test_expect_success 'no outcome written: the exit status decides; the file is 0600 and removed after' '
	task-add --manual --name plain --exec "$PWD/job" "look" >/dev/null &&
	task-run plain >out 2>err &&
	echo "looked at the queue" >expect && test_cmp expect out &&
	echo 600 >expect && test_cmp expect mode &&
	test ! -e "$(cat path)" &&
	task-log --task plain | cut -f7 >actual && echo success >expect && test_cmp expect actual
'

test_expect_success 'nothing_to_do: a skip with the summary, task-run exits 0, no failure counted' '
	task-add --cron "0 7 * * *" --name queue --exec "$PWD/job" --notify "$PWD/hook" --notify-on always \
		"look at the queue" >id &&
	printf "{\"status\":\"nothing_to_do\",\"summary\":\"the queue is empty\"}" >say &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >out 2>err && test ! -s err &&
	grep -q "\"status\":\"skipped\"" out &&
	reason "$(last_run queue)" >actual &&
	printf "error:\n  reported nothing to do: the queue is empty\n" >expect && test_cmp expect actual &&
	task-show queue >show && grep -q "^failures: *0$" show &&
	task-run queue >/dev/null 2>err &&
	echo "task-run: task '\''queue'\'' ($(cut -c1-8 id)) skipped: reported nothing to do: the queue is empty" >expect &&
	test_cmp expect err
'

test_expect_success 'blocked: its own status, not retried, the hook told, task-status --check warns' '
	rm -f told &&
	printf "{\"status\":\"blocked\",\"summary\":\"needs a login to the bank\"}" >say &&
	TASK_NOW=2026-11-24T07:00:10Z task-tick >out 2>err &&
	grep -q "\"status\":\"blocked\"" out && test ! -s err &&
	task-log --task queue --status blocked | cut -f7 >actual && echo blocked >expect && test_cmp expect actual &&
	reason "$(last_run queue)" >actual &&
	printf "error:\n  reported blocked: needs a login to the bank\n" >expect && test_cmp expect actual &&
	grep -q "\"event\":\"failure\"" told && grep -q "\"status\":\"blocked\"" told &&
	task-show queue >show && grep -q "^failures: *0$" show &&
	grep -q "^next run: *2026-11-25 07:00" show &&
	TASK_NOW=2026-11-24T07:01:00Z task-tick >out2 2>&1 && test ! -s out2 &&
	test_expect_code 1 env TASK_NOW=2026-11-24T07:02:00Z task-status --check >check &&
	grep -q "^AGENTCRON WARNING - 1 task blocked, waiting for a person (.queue.: reported blocked: needs a login to the bank)" check &&
	TASK_NOW=2026-11-24T07:02:00Z task-status --json | grep -q "\"blocked\":1" &&
	TASK_NOW=2026-11-24T07:02:00Z task-status --prometheus >metrics &&
	grep -q "^agentcron_tasks{state=\"blocked\"} 1$" metrics &&
	test_expect_code 1 task-run queue >/dev/null 2>&1
'

test_expect_success 'failed with exit 0: a failure with the summary, retried as any failure' '
	printf "{\"status\":\"failed\",\"summary\":\"the API said 503\"}" >say &&
	TASK_NOW=2026-11-25T07:00:10Z task-tick >out 2>err &&
	grep -q "\"status\":\"failed\"" out && grep -q "\"exit_code\":0" out &&
	reason "$(last_run queue)" >actual &&
	printf "error:\n  reported failed: the API said 503\n" >expect && test_cmp expect actual &&
	task-show queue >show &&
	grep -q "^next run: *2026-11-25 07:01 UTC .*, a retry of the occurrence of 2026-11-25 07:00 UTC" show
'

test_expect_success 'the summary is untrusted: controls removed, one line, bounded, valid UTF-8' '
	task-add --manual --name loud --exec "$PWD/job" "x" >/dev/null &&
	long=$(head -c 2000 /dev/zero | tr "\0" y) &&
	printf "{\"status\":\"blocked\",\"summary\":\"a\\\\u001b[31mred\\\\nnext\\\\u0007 line \\\\u0085 %s\"}" "$long" >say &&
	test_expect_code 1 task-run loud >/dev/null 2>&1 &&
	task-log --json --task loud --limit 1 >log &&
	sed -n "s/.*\"error\":\"\\([^\"]*\\)\".*/\\1/p" log >msg &&
	cut -c1-40 msg >actual &&
	echo "reported blocked: a [31mred next line yy" >expect && test_cmp expect actual &&
	test "$(wc -c <msg)" -le 320
'

test_expect_success 'an outcome that is not understood fails the run, saying why' '
	echo "{\"status\":\"great\"}" >say &&
	test_expect_code 1 task-run loud >/dev/null 2>&1 &&
	reason "$(last_run loud)" >actual &&
	printf "error:\n  its outcome (TASK_OUTCOME_FILE) is not understood: bad status %sgreat%s: expected done, nothing_to_do, blocked or failed\n" "'\''" "'\''" >expect &&
	test_cmp expect actual &&
	echo "not json" >say &&
	test_expect_code 1 task-run loud >/dev/null 2>&1 &&
	task-log --task loud --limit 1 | cut -f7 >actual && echo failed >expect && test_cmp expect actual
'

test_expect_success 'done does not hide a failed exit; a timeout stays a timeout' '
	echo "{\"status\":\"done\",\"summary\":\"all fine\"}" >say && echo 3 >code &&
	test_expect_code 1 task-run loud >/dev/null 2>&1 &&
	task-log --task loud --limit 1 | cut -f7 >actual && echo failed >expect && test_cmp expect actual &&
	echo 0 >code &&
	task-run loud >/dev/null 2>&1 &&
	task-log --task loud --limit 1 | cut -f7 >actual && echo success >expect && test_cmp expect actual
'

test_expect_success 'deliveries hear of blocked as a failure; failed outcomes count toward --pause-after' '
	printf "#!/bin/sh\ncat >>\"\$HOME/delivered\"; echo >>\"\$HOME/delivered\"\n" >dhook && chmod +x dhook &&
	task-add --daily 07:00 --exec "$PWD/job" --retries 0 --pause-after 2 --name Pay \
		--deliver "exec:$PWD/dhook" --deliver-on failure "pay the bills" >pay &&
	printf "{\"status\":\"blocked\",\"summary\":\"the bank wants a new login\"}" >say &&
	TASK_NOW=2026-11-26T07:00:10Z task-tick >/dev/null 2>&1 &&
	test_until 30 test -s delivered &&
	grep -q "\"status\":\"blocked\"" delivered && grep -q "\"event\":\"failure\"" delivered &&
	grep -q "\"error\":\"reported blocked: the bank wants a new login\"" delivered &&
	printf "{\"status\":\"failed\",\"summary\":\"the bank is down\"}" >say &&
	TASK_NOW=2026-11-27T07:00:10Z task-tick >/dev/null 2>&1 &&
	task-show Pay >show && grep -q "^failures: *1$" show &&
	TASK_NOW=2026-11-28T07:00:10Z task-tick >/dev/null 2>&1 &&
	task-show Pay >show &&
	grep -q "paused after 2 failures in a row: reported failed: the bank is down" show
'

test_done
