#!/bin/sh
# task-status with passes that took an idle pass's note and opened no
# store: the last pass is the later of the store's record and the note's
# time, in text, --json, --check and --prometheus (whole outputs; promtool
# reads it), also once a write has retired the note, and per host; a note
# left by a store since removed is not the new store's.
. "$AC_TOP/tests/lib.sh"
export TASK_EXEC=true TASK_HOST_ID=alpha
note=$TASK_DB-idle

# status T ARG...: task-status at T, the store's size and a pass's pid
# (which vary) made plain.
status() {
	t=$1
	shift
	TASK_NOW=$t task-status "$@" >raw &&
	sed -e "s|^  Store:     .*|  Store:     S|" -e "s|\"pid\":[0-9]*|\"pid\":P|" \
		-e "s|\"bytes\":[0-9]*,\"free_bytes\":[0-9]*|\"bytes\":B|" \
		-e "s|^agentcron_store_size_bytes [0-9]*|agentcron_store_size_bytes B|" raw
}

test_expect_success 'a daily task; a pass that writes the note, two that take it' '
	TASK_NOW=2026-11-23T07:00:00Z task-add --daily 12:00 --name noon x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick &&
	test "$(cut -d" " -f5 "$note")" = "$(date -u -d 2026-11-23T07:00:00Z +%s)" &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick &&
	test "$(cut -d" " -f5 "$note")" = "$(date -u -d 2026-11-23T07:00:00Z +%s)" &&
	TASK_NOW=2026-11-23T07:40:00Z task-tick &&
	test "$(stat -c %Y "$note")" = "$(date -u -d 2026-11-23T07:40:00Z +%s)"
'

test_expect_success 'text: the last pass is the one that took the note' '
	status 2026-11-23T07:41:00Z >actual &&
	cat >expect <<-\EOF &&
	agentcron: OK: last pass 60 s ago on alpha; 1 task, none overdue or failing
	  Firing:    on
	  Passes:    alpha: 60 s ago (cron, 2026-11-23T07:40:00Z)
	  Tasks:     1 (1 enabled, 0 disabled); 0 due, 0 overdue, 0 failing, 0 paused by failures, 0 over budget
	  Runs 24 h: none
	  Today:     0 tokens (0 in, 0 out), $0.00
	  Store:     S
	EOF
	test_cmp expect actual
'

test_expect_success '--json' '
	status 2026-11-23T07:41:00Z --json >actual &&
	cat >expect <<-\EOF &&
	{"now":"2026-11-23T07:41:00Z","check":"OK","summary":"last pass 60 s ago on alpha; 1 task, none overdue or failing","paused_since":null,"passes":[{"host":"alpha","at":"2026-11-23T07:40:00Z","age_seconds":60,"mode":"cron","pid":P,"version":"0.1.0"}],"tasks":{"total":1,"enabled":1,"disabled":0,"pending":1,"running":0,"completed":0,"failed":0,"cancelled":0,"due":0,"overdue":0,"failing":0,"paused_by_failures":0,"over_budget":0,"blocked":0},"overdue":[],"failing":[],"paused_by_failures":[],"over_budget":[],"blocked":[],"global_budget_over":null,"runs_24h":{},"tokens_today":{"input":0,"output":0},"dollars_today":0,"store":{"name":"$TASK_DB","bytes":B}}
	EOF
	sed "s|\$TASK_DB|$TASK_DB|" expect >x && mv x expect &&
	test_cmp expect actual
'

test_expect_success '--check: OK while the fast passes come, silence counted from the last' '
	status 2026-11-23T07:43:00Z --check >actual &&
	echo "AGENTCRON OK - last pass 3 min ago on alpha; 1 task, none overdue or failing | last_pass_age=180s;;180 due=0 overdue=0;;0 failing=0;0 paused=0;0 over_budget=0" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 env TASK_NOW=2026-11-23T07:43:01Z task-status --check >actual &&
	echo "AGENTCRON CRITICAL - last pass 3 min ago on alpha (more than 3 min): is task-tick running? | last_pass_age=181s;;180 due=0 overdue=0;;0 failing=0;0 paused=0;0 over_budget=0" >expect &&
	test_cmp expect actual
'

test_expect_success '--prometheus, as promtool reads it' '
	status 2026-11-23T07:41:00Z --prometheus >metrics &&
	promtool check metrics <raw &&
	grep -v "^#" metrics >actual &&
	cat >expect <<-EOF &&
	agentcron_tokens_total{direction="input"} 0
	agentcron_tokens_total{direction="output"} 0
	agentcron_cost_dollars_total 0.000000
	agentcron_last_pass_timestamp_seconds{host="alpha"} $(date -u -d 2026-11-23T07:40:00Z +%s)
	agentcron_tasks{state="pending"} 1
	agentcron_tasks{state="running"} 0
	agentcron_tasks{state="completed"} 0
	agentcron_tasks{state="failed"} 0
	agentcron_tasks{state="cancelled"} 0
	agentcron_tasks{state="disabled"} 0
	agentcron_tasks{state="due"} 0
	agentcron_tasks{state="overdue"} 0
	agentcron_tasks{state="failing"} 0
	agentcron_tasks{state="paused_by_failures"} 0
	agentcron_tasks{state="over_budget"} 0
	agentcron_tasks{state="blocked"} 0
	agentcron_paused 0
	agentcron_store_size_bytes B
	EOF
	test_cmp expect actual
'

test_expect_success 'a write retires the note: the pass that took it is still the last' '
	TASK_NOW=2026-11-23T07:42:00Z task-add --daily 13:00 --name one x >/dev/null &&
	test ! -e "$note" &&
	test_expect_code 0 env TASK_NOW=2026-11-23T07:42:30Z task-status --check >actual &&
	grep -q "^AGENTCRON OK - last pass 2 min ago on alpha; 2 tasks" actual
'

test_expect_success 'another host passes: each host its own last pass, latest first' '
	TASK_HOST_ID=beta TASK_NOW=2026-11-23T07:44:00Z task-tick &&
	test "$(cut -d" " -f23- "$note")" = beta &&
	TASK_HOST_ID=beta TASK_NOW=2026-11-23T07:45:00Z task-tick &&
	status 2026-11-23T07:45:30Z >actual &&
	grep "^  Passes:\|^            " actual >passes &&
	cat >expect <<-\EOF &&
	  Passes:    beta: 30 s ago (cron, 2026-11-23T07:45:00Z)
	             alpha: 5 min ago (cron, 2026-11-23T07:40:00Z)
	EOF
	test_cmp expect passes &&
	test "$(store_sql "SELECT host, at FROM passes ORDER BY host" | tr "\n" " ")" = "alpha|$(date -u -d 2026-11-23T07:00:00Z +%s) beta|$(date -u -d 2026-11-23T07:44:00Z +%s) "
'

test_expect_success 'notes that outlived their store: not the last passes of a new one in its place' '
	test -e "$note" && test -e "$note-last" &&
	rm -f "$TASK_DB" "$TASK_DB-wal" "$TASK_DB-shm" &&
	TASK_NOW=2026-11-23T07:50:00Z task-add --daily 12:00 --name new x >/dev/null &&
	TASK_NOW=2026-11-23T07:50:30Z task-status --json >status.json &&
	python3 -c "import json; print(json.load(open(\"status.json\"))[\"passes\"])" >actual &&
	echo "[]" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:51:00Z task-tick &&
	status 2026-11-23T07:51:30Z >actual &&
	grep "^  Passes:\|^            " actual >passes &&
	echo "  Passes:    alpha: 30 s ago (cron, 2026-11-23T07:51:00Z)" >expect &&
	test_cmp expect passes
'

test_done
