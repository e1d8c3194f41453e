#!/bin/sh
# task-status: each pass records itself (one row per host, cron and
# --watch alike); the scheduler at a glance as text and JSON; --check's
# exit statuses (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN) with a stopped
# scheduler, time moved with TASK_NOW; --prometheus checked by promtool;
# task-ls's line when no pass ran for a while.
. "$AC_TOP/tests/lib.sh"
export TASK_HOST_ID=alpha TASK_EXEC=true

store_name() {
	case $AC_STORE in sqlite) echo "$TASK_DB" ;; *) task-status --json | sed 's/.*"store":{"name":"\([^"]*\)".*/\1/' ;; esac
}

test_expect_success 'no store there: UNKNOWN, never OK (a wrong TASK_DB keeps no ping going)' '
	db=$(new_store none) &&
	test_expect_code 3 env TASK_DB="$db" task-status --check >out &&
	echo "AGENTCRON UNKNOWN - no store at '\''$db'\'' (TASK_DB names none; task-tick and task-add make it)" >expect &&
	test_cmp expect out
'

test_expect_success 'a pass records its host and time; passes replace the host row' '
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "0 7 * * *" --name briefing "Summarise" >/dev/null &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick >/dev/null &&
	TASK_HOST_ID=beta TASK_NOW=2026-11-23T06:58:00Z task-tick >/dev/null &&
	store_sql "SELECT host, at, mode FROM passes ORDER BY host" >actual &&
	printf "alpha|%s|cron\nbeta|%s|cron\n" $(date -u -d 2026-11-23T07:01:00Z +%s) \
		$(date -u -d 2026-11-23T06:58:00Z +%s) >expect &&
	test_cmp expect actual
'

test_expect_success 'the scheduler at a glance, as text' '
	TASK_NOW=2026-11-23T07:01:30Z task-status >out &&
	sed "s|$(store_name)|STORE|; s/, [0-9.]* [kM]B\( (.*)\)*$/, SIZE/" out >actual &&
	cat >expect <<-\EOF &&
	agentcron: OK: last pass 30 s ago on alpha; 1 task, none overdue or failing
	  Firing:    on
	  Passes:    alpha: 30 s ago (cron, 2026-11-23T07:01:00Z)
	             beta: 3 min ago (cron, 2026-11-23T06:58:00Z)
	  Tasks:     1 (1 enabled, 0 disabled); 0 due, 0 overdue, 0 failing, 0 paused by failures, 0 over budget
	  Runs 24 h: 1 success
	  Today:     0 tokens (0 in, 0 out), $0.00
	  Store:     STORE, SIZE
	EOF
	test_cmp expect actual
'

test_expect_success 'and as JSON' '
	TASK_NOW=2026-11-23T07:01:30Z task-status --json >out &&
	sed "s|\"store\":{.*|\"store\":{}}|" out | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"now":"2026-11-23T07:01:30Z","check":"OK","summary":"last pass 30 s ago on alpha; 1 task, none overdue or failing","paused_since":null,"passes":[{"host":"alpha","at":"2026-11-23T07:01:00Z","age_seconds":30,"mode":"cron","pid":<n>,"version":"0.1.0"},{"host":"beta","at":"2026-11-23T06:58:00Z","age_seconds":210,"mode":"cron","pid":<n>,"version":"0.1.0"}],"tasks":{"total":1,"enabled":1,"disabled":0,"pending":1,"running":0,"completed":0,"failed":0,"cancelled":0,"due":0,"overdue":0,"failing":0,"paused_by_failures":0,"over_budget":0,"blocked":0},"overdue":[],"failing":[],"paused_by_failures":[],"over_budget":[],"blocked":[],"global_budget_over":null,"runs_24h":{"success":1},"tokens_today":{"input":0,"output":0},"dollars_today":0,"store":{}}
	EOF
	sed "s/\"pid\":[0-9]*/\"pid\":<n>/g" actual >a2 && test_cmp expect a2 &&
	grep -q "\"store\":{\"name\":\"[^\"]*\",\"bytes\":[1-9][0-9]*," out
'

test_expect_success '--check: silence past --max-silence is CRITICAL even with nothing due' '
	test_expect_code 2 env TASK_NOW=2026-11-24T06:00:00Z task-status --check >out &&
	grep -q "^AGENTCRON CRITICAL - last pass 22 h 59 min ago on alpha (more than 3 min): is task-tick running? | last_pass_age=82740s;;180 due=0 " out &&
	test_expect_code 0 env TASK_NOW=2026-11-24T06:00:00Z task-status --check --max-silence 1d >out &&
	grep -q "^AGENTCRON OK - last pass 22 h 59 min ago on alpha; 1 task" out
'

test_expect_success '--check with a stopped scheduler: CRITICAL once a task is due' '
	test_expect_code 2 env TASK_NOW=2026-11-24T07:00:30Z task-status --check >out &&
	echo "AGENTCRON CRITICAL - last pass 23 h 59 min ago on alpha, 1 task due: is task-tick running? | last_pass_age=86370s;;180 due=1 overdue=0;;0 failing=0;0 paused=0;0 over_budget=0" >expect &&
	test_cmp expect out
'

test_expect_success '--check: a pass within --max-silence, but a task overdue: CRITICAL' '
	TASK_NOW=2026-11-24T06:59:00Z task-tick >/dev/null &&
	test_expect_code 2 env TASK_NOW=2026-11-24T07:02:00Z task-status --check --max-silence 1h >out &&
	grep -q "^AGENTCRON CRITICAL - 1 task overdue (.briefing. first); last pass 3 min ago on alpha |" out &&
	test_expect_code 0 env TASK_NOW=2026-11-24T07:00:50Z task-status --check --max-silence 1h >out
'

test_expect_success '--check: the scheduler back, a failing task: WARNING' '
	TASK_NOW=2026-11-24T07:02:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-24T07:02:00Z task-add --at 2026-11-24T07:03:00Z --exec false --retries 0 \
		--name broken x >/dev/null &&
	TASK_NOW=2026-11-24T07:03:00Z task-tick >/dev/null 2>&1 &&
	test_expect_code 1 env TASK_NOW=2026-11-24T07:03:30Z task-status --check >out &&
	grep -q "^AGENTCRON WARNING - 1 task failing (.broken.: 1 in a row); last pass 30 s ago on alpha |" out &&
	TASK_NOW=2026-11-24T07:03:30Z task-status >out &&
	grep -q "^  [0-9a-f]\{8\}  broken: 1 failure in a row" out
'

test_expect_success '--check while paused: WARNING, saying since when' '
	TASK_NOW=2026-11-24T07:04:00Z task-tick --pause 2>/dev/null &&
	test_expect_code 1 env TASK_NOW=2026-11-25T08:00:00Z task-status --check >out &&
	grep -q "^AGENTCRON WARNING - firing paused since 2026-11-24T07:04:00Z; last pass" out &&
	task-tick --resume 2>/dev/null
'

test_expect_success '--check: what it cannot tell is UNKNOWN (3), usage errors included' '
	test_expect_code 3 task-status --check --max-silence soon >out 2>err && test_one_line err &&
	test_expect_code 2 task-status --max-silence 5m >out 2>err &&
	echo "not a database, not at all" >bad.db &&
	test_expect_code 3 env TASK_DB=$PWD/bad.db task-status --check >out 2>err &&
	grep -q "^AGENTCRON UNKNOWN - store .*bad.db" out
'

test_expect_success '--prometheus: the exposition format, as promtool reads it' '
	TASK_NOW=2026-11-24T07:05:00Z task-status --prometheus >metrics &&
	promtool check metrics <metrics &&
	grep "^agentcron_runs_total\|^agentcron_tasks{\|^agentcron_paused\|^agentcron_tokens" metrics >actual &&
	cat >expect <<-\EOF &&
	agentcron_runs_total{status="failed"} 1
	agentcron_runs_total{status="success"} 2
	agentcron_tokens_total{direction="input"} 0
	agentcron_tokens_total{direction="output"} 0
	agentcron_tasks{state="pending"} 1
	agentcron_tasks{state="running"} 0
	agentcron_tasks{state="completed"} 0
	agentcron_tasks{state="failed"} 1
	agentcron_tasks{state="cancelled"} 0
	agentcron_tasks{state="disabled"} 0
	agentcron_tasks{state="due"} 0
	agentcron_tasks{state="overdue"} 0
	agentcron_tasks{state="failing"} 1
	agentcron_tasks{state="paused_by_failures"} 0
	agentcron_tasks{state="over_budget"} 0
	agentcron_tasks{state="blocked"} 0
	agentcron_paused 0
	EOF
	test_cmp expect actual &&
	grep -q "^agentcron_last_pass_timestamp_seconds{host=\"beta\"} $(date -u -d 2026-11-23T06:58:00Z +%s)$" metrics &&
	grep -q "^agentcron_task_last_success_timestamp_seconds{task=\"[0-9a-f-]*\",name=\"briefing\"} $(date -u -d 2026-11-24T07:02:00Z +%s)$" metrics
'

test_expect_success 'task-ls says when no pass ran for a while (on a terminal)' '
	TASK_NOW=2026-11-24T09:00:00Z script -qec "task-ls" /dev/null | tr -d "\r" | sed -n 1p >actual &&
	echo "No scheduler pass for 117 min (the last on alpha): is task-tick still running? (see task-status)" >expect &&
	test_cmp expect actual
'

test_expect_success 'paused by failures: WARNING, with the reason' '
	TASK_NOW=2026-11-24T08:00:00Z task-add --cron "5 8 * * *" --exec false --retries 0 \
		--pause-after 1 --name flaky x >/dev/null &&
	TASK_NOW=2026-11-24T08:05:00Z task-tick >/dev/null 2>&1 &&
	test_expect_code 1 env TASK_NOW=2026-11-24T08:05:30Z task-status --check >out &&
	grep -q "^AGENTCRON WARNING - 1 task paused by failures (.flaky.); last pass 30 s ago on alpha |.* paused=1;0 " out &&
	TASK_NOW=2026-11-24T08:05:30Z task-status >out &&
	sed -n "/^Paused by failures:/,\$p" out | sed "s/^  [0-9a-f]\{8\}  /  ID  /" >actual &&
	printf "Paused by failures:\n  ID  flaky: %s\n" "$(store_sql "SELECT paused FROM tasks WHERE name = '\''flaky'\''")" >expect &&
	test_cmp expect actual
'

test_expect_success 'dollars today, over budget, the global budget and the cost counter' '
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	echo "budget = \$1/day" >"$XDG_CONFIG_HOME/agentcron/config" &&
	TASK_NOW=2026-11-24T08:00:00Z task-add --daily 23:00 --budget "\$0.50/day" --name spender y >/dev/null &&
	id=$(store_sql "SELECT id FROM tasks WHERE name = '\''spender'\''") &&
	at=$(date -u -d 2026-11-24T08:01:00Z +%s) &&
	store_sql "INSERT INTO llm_calls (task_id, model, input_tokens, output_tokens, cost, created_at)
		VALUES ('\''$id'\'', '\''m'\'', 1000, 500, 0.75, $at), (NULL, '\''m'\'', 10, 5, 0.5, $at)" &&
	store_sql "INSERT INTO spend (task_id, at, dollars, tokens) VALUES
		('\''$id'\'', $at - $at % 900, 0.75, 1500), ('\'''\'', $at - $at % 900, 1.25, 1515)" &&
	TASK_NOW=2026-11-24T08:06:00Z task-status >out &&
	grep -q "^  Today:     1515 tokens (1010 in, 505 out), \$1.25$" out &&
	grep -q "^  Budget:    every task is held: budget: \$1.25 of \$1.00 this day (all tasks)$" out &&
	sed -n "/^Over budget:/,\$p" out | sed "s/^  [0-9a-f]\{8\}  /  ID  /" >actual &&
	printf "Over budget:\n  ID  spender: budget: \$0.75 of \$0.50 this day\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-24T08:06:00Z task-status --prometheus >metrics &&
	promtool check metrics <metrics &&
	grep -q "^agentcron_cost_dollars_total 1.250000$" metrics &&
	grep -q "^agentcron_tasks{state=\"over_budget\"} 1$" metrics &&
	TASK_NOW=2026-11-24T08:06:00Z task-status --json >out &&
	grep -q "\"dollars_today\":1.25," out &&
	grep -q "\"global_budget_over\":\"budget: \$1.25 of \$1.00 this day (all tasks)\"" out
'

test_expect_success 'names and reasons print as one line of text' '
	cat >odd.json <<-\EOF &&
	{"name":"two\nlines\u001b[2J","prompt":"p","at":"2026-11-25T07:10:00Z","exec":"false","retries":0}
	EOF
	TASK_NOW=2026-11-25T07:05:00Z task-add --json - <odd.json >/dev/null &&
	TASK_NOW=2026-11-25T07:10:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-25T07:10:30Z task-status >out &&
	grep -q "^  [0-9a-f]\{8\}  two lines?\[2J: 1 failure in a row: exited with status 1$" out &&
	test_expect_code 1 grep -q "$(printf "\033")" out
'

test_expect_success 'a watcher records its passes as watch' '
	test_start_ready out err task-tick --watch &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	store_sql "SELECT mode FROM passes WHERE host = '\''alpha'\''" >actual &&
	echo watch >expect && test_cmp expect actual
'

test_done
