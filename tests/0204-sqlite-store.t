#!/bin/sh
# The file store: where it lives, its modes, WAL, upgrades from older
# schemas, and a schema newer than this agentcron.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

test_expect_success 'default location under XDG_DATA_HOME, directory 0700 and file 0600' '
	(unset TASK_DB && umask 022 && task-add --manual x >/dev/null) &&
	test -f data/agentcron/tasks.db &&
	test "$(stat -c %a data/agentcron)" = 700 && test "$(stat -c %a data/agentcron/tasks.db)" = 600
'

test_expect_success 'without XDG_DATA_HOME the store is in ~/.local/share/agentcron' '
	(unset TASK_DB XDG_DATA_HOME && task-add --manual x >/dev/null) &&
	test "$(stat -c %a .local/share/agentcron/tasks.db)" = 600
'

test_expect_success 'the store is in WAL mode and a readable store is tightened to 0600' '
	task-add --manual x >/dev/null && chmod 644 tasks.db &&
	task-ls >/dev/null && test "$(stat -c %a tasks.db)" = 600 &&
	test "$(sqlite3 tasks.db "PRAGMA journal_mode")" = wal
'

# llm-call leaves its log beside the store rather than paying three disk
# flushes a call to copy it in; the next program reads that log whole, and
# it once grew without end (nothing remembered what was copied).  It stays
# under 64 pages and a call's own (~70 pages of 4 KiB and a header each),
# and the next program of another kind copies it in and removes it.
test_expect_success 'llm-call leaves a log that stays small, and the next program folds it in' '
	port=$(provider_start fp k 60 600) &&
	max=0 i=0 && while [ $i -lt 100 ]; do
		OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=k llm-call "q$i" >/dev/null || return 1
		size=$(wc -c <tasks.db-wal) || return 1
		[ "$size" -le "$max" ] || max=$size
		i=$((i + 1))
	done &&
	kill $(cat fp/pid) &&
	echo "largest log: $max bytes" &&
	test "$max" -gt 0 && test "$max" -le $((70 * (4096 + 24) + 32)) &&
	test "$(sqlite3 tasks.db "SELECT count(*) FROM llm_calls")" = 100 &&
	task-ls >/dev/null &&
	test ! -e tasks.db-wal
'

test_expect_success 'a store made by schema version 1 is upgraded in place and keeps every task' '
	cp "$AC_TOP/tests/fixtures/store-v1.db" old.db && chmod 600 old.db &&
	test "$(sqlite3 old.db "PRAGMA user_version")" = 1 &&
	TASK_DB=$PWD/old.db task-ls >actual &&
	cat >expect <<-\EOF &&
	0b7e5d0e-3c1a-4f8e-9a55-1d2c3b4a5f60	Morning briefing	pending	2026-11-29T07:00:00Z	Daily at 07:00	success
	5f0c2a9b-7d41-4e3a-8b2f-6a1e9c0d7b33	Call Sarah	pending	2026-11-30T00:53:20Z	Once on 2026-11-30 at 00:53	-
	9a3e1f7c-2b6d-4c8a-a0e5-7f4b2d9c1e88	Quarter plan	pending	2026-11-30T00:53:20Z	Planned: 2 runs at 2026-11-29 19:53, 2026-11-30 19:53	-
	c4d2b8a1-9e7f-4a3b-bc6d-0e1f2a3b4c5d	Old one-shot	completed	-	Once on 2026-09-10 at 00:26	failed
	EOF
	test_cmp expect actual &&
	test "$(sqlite3 old.db "PRAGMA user_version")" -gt 1 &&
	TASK_DB=$PWD/old.db task-show 5f0c >show &&
	grep -q "^system prompt:" show && grep -q "^  Be brief.$" show &&
	TASK_DB=$PWD/old.db task-show 0b7e >show &&
	grep -q "^  Three meetings today.$" show &&
	grep -q "^  2026-11-28 07:00 GMT  success     60.0s    schedule 1a2b3c4d$" show &&
	TASK_DB=$PWD/old.db task-show --json c4d2 | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"Old one-shot","prompt":"Done already.","system_prompt":null,"kind":"at","cron":null,"at":"2026-09-10T00:26:40Z","plan":null,"tz":"UTC","description":"Once on 2026-09-10 at 00:26","enabled":true,"status":"completed","next_run_at":null,"due_at":null,"last_run_at":"2026-09-10T00:26:40Z","last_status":"failed","last_error":"executor exited with status 1","last_result":null,"consecutive_failures":4,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-05-28T20:26:40Z","updated_at":"2026-09-10T00:26:40Z","deleted_at":null,"runs":[]}
	EOF
	test_cmp expect actual &&
	TASK_DB=$PWD/old.db task-add --manual "new task in an old store" >/dev/null &&
	test "$(TASK_DB=$PWD/old.db task-ls | wc -l)" -eq 5 &&
	sqlite3 old.db "SELECT name FROM tasks WHERE last_success_at = (SELECT max(ended_at)
		FROM runs WHERE task_id = tasks.id AND status = '\''success'\'')" >actual &&
	echo "Morning briefing" >expect && test_cmp expect actual
'

# A store as schema 11 left it: a run in flight (its process gone) known
# only from runs.
cat >old11.sql <<\EOF
DROP TABLE spend;
DROP TABLE reserves; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models;
DROP INDEX tasks_herd;
DROP TABLE run_inputs;
DROP INDEX tasks_after;
ALTER TABLE tasks DROP COLUMN after_tasks;
DROP INDEX tasks_deliver;
DROP TABLE receipts;
ALTER TABLE tasks DROP COLUMN gate;
ALTER TABLE tasks DROP COLUMN gate_timeout;
ALTER TABLE tasks DROP COLUMN deliver;
ALTER TABLE tasks DROP COLUMN deliver_on;
DROP INDEX tasks_disabled;
DROP INDEX tasks_paused;
DROP INDEX tasks_failing;
DROP INDEX tasks_budget;
DROP INDEX runs_status;
CREATE INDEX runs_status ON runs(status, task_id, ended_at);
DROP INDEX tasks_in_flight;
ALTER TABLE tasks DROP COLUMN run_in_flight;
ALTER TABLE tasks DROP COLUMN last_success_at;
INSERT INTO runs (id, task_id, trigger, status, started_at, lease_until, owner_id)
    SELECT '00000000-0000-4000-8000-0000000000aa', id, 'manual', 'running', 1795000000,
    1795000060, 'gone'
    FROM tasks WHERE name = 'busy';
UPDATE tasks SET status = 'running' WHERE name = 'busy';
ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 11;
EOF

test_expect_success 'a store of schema 11: its run in flight and last successes move to the tasks' '
	TASK_DB=$PWD/s11.db task-add --manual --exec true --name ok x >/dev/null &&
	TASK_DB=$PWD/s11.db task-add --manual --exec "echo again" --name busy y >/dev/null &&
	TASK_DB=$PWD/s11.db task-run ok >/dev/null &&
	sqlite3 s11.db <old11.sql &&
	TASK_DB=$PWD/s11.db task-log --status running | cut -f1 >running &&
	echo 00000000-0000-4000-8000-0000000000aa >expect && test_cmp expect running &&
	sqlite3 s11.db "SELECT name, ifnull(run_in_flight, '\''-'\''), last_success_at = (SELECT
		max(ended_at) FROM runs WHERE task_id = tasks.id AND status = '\''success'\'')
		FROM tasks ORDER BY name" >actual &&
	printf "busy|00000000-0000-4000-8000-0000000000aa|\nok|-|1\n" >expect && test_cmp expect actual &&
	TASK_DB=$PWD/s11.db task-run busy >out &&
	echo again >expect && test_cmp expect out &&
	TASK_DB=$PWD/s11.db task-log --task busy | cut -f7 >statuses &&
	printf "success\ninterrupted\n" >expect && test_cmp expect statuses &&
	test "$(sqlite3 s11.db "SELECT count(*) FROM tasks WHERE run_in_flight IS NOT NULL")" = 0
'

test_expect_success 'a store from a newer agentcron is refused, untouched' '
	task-add --manual y >/dev/null && sqlite3 tasks.db "PRAGMA user_version = 99" &&
	cp tasks.db copy.db &&
	test_expect_code 1 task-ls 2>err && test_one_line err && grep -q "newer than this agentcron" err &&
	cmp tasks.db copy.db
'

test_done
