#!/bin/sh
# The PostgreSQL store itself: hosts creating the schema at the same
# moment, a schema newer than this agentcron, passwords that never leak,
# reads that create nothing, and every task copied between the two
# backends with every field.
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB

# The schema version this agentcron gives a new store: its numbered steps
# and the columns of its fields (task_fields.h).
schema=$(d=$(new_store schema) && TASK_DB=$d task-add --manual --name v x >/dev/null &&
	TASK_DB=$d store_sql "SELECT max(version) FROM agentcron_schema") || exit 1

test_expect_success 'hosts opening an empty database at the same moment: one schema, no errors' '
	for i in 1 2 3 4 5 6; do
		on_host h$i task-add --manual --name "m$i" x$i >out.$i 2>err.$i &
	done &&
	wait &&
	cat err.* >errs && test ! -s errs &&
	pg_sql "SELECT count(*) FROM tasks" >n && echo 6 >expect && test_cmp expect n &&
	pg_sql "SELECT count(*), min(version) = max(version) FROM agentcron_schema" >actual &&
	echo "1|t" >expect && test_cmp expect actual
'

test_expect_success 'a read of a database without the schema creates nothing' '
	db=$(pg_new_db) &&
	TASK_DB=$db task-ls >out 2>err && test ! -s out &&
	echo "No scheduled tasks configured." >expect && test_cmp expect err &&
	TASK_DB=$db task-log >out 2>err && test ! -s out &&
	pg_psql "$(pg_db_of "$db")" -c "SELECT to_regclass('\''tasks'\'') IS NULL" >actual &&
	echo t >expect && test_cmp expect actual
'

test_expect_success 'a schema newer than this agentcron is refused, the database unchanged' '
	db=$(pg_new_db) && TASK_DB=$db task-add --manual x >/dev/null &&
	pg_psql "$(pg_db_of "$db")" -c "UPDATE agentcron_schema SET version = 99" &&
	test_expect_code 1 env TASK_DB=$db task-add --manual y 2>err && test_one_line err &&
	grep -q "has schema version 99, newer than this agentcron.s [0-9]*; upgrade agentcron" err &&
	pg_psql "$(pg_db_of "$db")" -c "SELECT count(*) FROM tasks" >n &&
	echo 1 >expect && test_cmp expect n
'

# A database as schema 6 left it, and what schema 7 makes of it.
cat >old.sql <<\EOF
DROP TABLE spend, reserves;
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
ALTER TABLE tasks DROP COLUMN run_in_flight;
ALTER TABLE tasks DROP COLUMN last_success_at;
CREATE UNIQUE INDEX runs_in_flight ON runs (task_id) WHERE status = 'running';
CREATE INDEX runs_status ON runs (status, task_id, ended_at);
ALTER TABLE tasks ADD CONSTRAINT tasks_seq_key UNIQUE (seq);
ALTER TABLE runs ADD CONSTRAINT runs_seq_key UNIQUE (seq);
DROP INDEX tasks_origin;
CREATE INDEX tasks_origin ON tasks (origin);
DROP INDEX tasks_paused, tasks_failing, tasks_budget;
UPDATE agentcron_schema SET version = 6;
EOF
cat >now.sql <<\EOF
SELECT indexname, indexdef LIKE '%WHERE (origin <> %' FROM pg_indexes
    WHERE indexname IN ('tasks_seq_key', 'runs_seq_key', 'tasks_origin')
UNION ALL SELECT string_agg(name, ' ' ORDER BY name), null FROM tasks
UNION ALL SELECT max(version)::text, null FROM agentcron_schema;
EOF

test_expect_success 'a database of schema 6 is brought up to date: no index only writes pay for' '
	db=$(pg_new_db) && TASK_DB=$db task-add --manual --name old x >/dev/null &&
	pg_psql "$(pg_db_of "$db")" -q -f "$PWD/old.sql" &&
	TASK_DB=$db task-add --manual --name new y >/dev/null &&
	pg_psql "$(pg_db_of "$db")" -f "$PWD/now.sql" >actual &&
	printf "tasks_origin|t\nnew old|\n%s|\n" "$schema" >expect && test_cmp expect actual
'

# A database as schema 7 left it: a run in flight (its process gone) and
# the last success known only from runs, each with its index.
cat >old7.sql <<\EOF
DROP TABLE spend, reserves;
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
ALTER TABLE tasks DROP COLUMN run_in_flight;
ALTER TABLE tasks DROP COLUMN last_success_at;
CREATE UNIQUE INDEX runs_in_flight ON runs (task_id) WHERE status = 'running';
CREATE INDEX runs_status ON runs (status, task_id, ended_at);
INSERT INTO runs (id, task_id, trigger, status, started_at, lease_until, owner_id)
    SELECT '00000000-0000-4000-8000-0000000000aa', id, 'manual', 'running', 1795000000,
    1795000060, 'gone'
    FROM tasks WHERE name = 'busy';
UPDATE tasks SET status = 'running' WHERE name = 'busy';
DROP INDEX tasks_paused, tasks_failing, tasks_budget;
UPDATE agentcron_schema SET version = 7;
EOF
cat >now7.sql <<\EOF
SELECT name, coalesce(run_in_flight, '-'), last_success_at = (SELECT max(ended_at) FROM runs
    WHERE task_id = tasks.id AND status = 'success') FROM tasks ORDER BY name;
SELECT count(*) FROM pg_indexes WHERE indexname IN ('runs_in_flight', 'runs_status');
SELECT max(version) FROM agentcron_schema;
EOF

test_expect_success 'a database of schema 7: its run in flight and last successes move to the tasks' '
	db=$(pg_new_db) &&
	TASK_DB=$db task-add --manual --exec true --name ok x >/dev/null &&
	TASK_DB=$db task-add --manual --exec "echo again" --name busy y >/dev/null &&
	TASK_DB=$db task-run ok >/dev/null &&
	pg_psql "$(pg_db_of "$db")" -q -f "$PWD/old7.sql" &&
	TASK_DB=$db task-log --status running | cut -f1 >running &&
	pg_psql "$(pg_db_of "$db")" -f "$PWD/now7.sql" >actual &&
	printf "busy|00000000-0000-4000-8000-0000000000aa|\nok|-|t\n0\n%s\n" "$schema" >expect &&
	test_cmp expect actual &&
	echo 00000000-0000-4000-8000-0000000000aa >expect && test_cmp expect running &&
	TASK_DB=$db task-run busy >out &&
	echo again >expect && test_cmp expect out &&
	TASK_DB=$db task-log --task busy | cut -f7 >statuses &&
	printf "success\ninterrupted\n" >expect && test_cmp expect statuses &&
	pg_psql "$(pg_db_of "$db")" -c "SELECT count(*) FROM tasks WHERE run_in_flight IS NOT NULL" >n &&
	echo 0 >expect && test_cmp expect n
'

test_expect_success 'the end of a run changes no index of runs: the server updates its row in place' '
	db=$(pg_new_db) &&
	TASK_DB=$db task-add --manual --exec true --name quick x >/dev/null &&
	for i in 1 2 3 4 5; do TASK_DB=$db task-run quick >/dev/null || return 1; done &&
	pg_psql "$(pg_db_of "$db")" -c "SELECT n_tup_upd >= 5, n_tup_upd = n_tup_hot_upd
		FROM pg_stat_user_tables WHERE relname = '\''runs'\''" >actual &&
	echo "t|t" >expect && test_cmp expect actual
'

# while_locked CMD...: CMD while another session holds the tasks table
# locked; CMD's status.
while_locked() {
	{ pg_sql "BEGIN; LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60)" >/dev/null 2>&1 & }
	while_locked_pid_=$!
	test_until 60 sh -c "test \"\$(store-sql \"SELECT count(*) FROM pg_locks WHERE
		mode = 'AccessExclusiveLock' AND relation = 'tasks'::regclass\")\" = 1" || return 1
	"$@"
	while_locked_rc_=$?
	pg_sql "SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()" >/dev/null
	wait "$while_locked_pid_"
	return "$while_locked_rc_"
}

test_expect_success 'a long PGOPTIONS is passed whole: the lock wait still applies after it' '
	task-add --manual --name locked x >/dev/null &&
	opts=$(for i in $(seq 64); do printf -- "-c work_mem=4MB "; done) &&
	test ${#opts} -gt 1000 &&
	while_locked test_expect_code 1 env PGOPTIONS="$opts" timeout 50 \
		task-add --manual --name waits y 2>err &&
	test_one_line err
'

pw_uri() {
	echo "postgresql://pwuser:$1@/$(pg_db_of "$TASK_DB")?host=$AC_PG_DIR"
}

test_expect_success 'a wrong password: one line naming the server, never the password; exit 1' '
	test_expect_code 1 env TASK_DB="$(pw_uri n0tit)" task-ls 2>err && test_one_line err &&
	! grep -q n0tit err &&
	grep -q "^task-ls: cannot connect to the PostgreSQL store '\''postgresql://pwuser@/.*'\'': .*password authentication failed" err
'

test_expect_success 'the password is not printed, not stored, not passed on to executors' '
	printf "#!/bin/sh\necho \"\$TASK_DB\"\n" >show-db && chmod +x show-db &&
	uri=$(pw_uri s3cret) &&
	id=$(TASK_DB=$uri TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/show-db" secret-test) &&
	TASK_DB=$uri TASK_NOW=2026-11-23T07:00:00Z task-tick >out 2>err &&
	TASK_DB=$uri task-log "$(TASK_DB=$uri task-log --task "$id" | cut -f1)" >log &&
	grep -q "^  postgresql://pwuser@/$(pg_db_of "$TASK_DB")?host=$AC_PG_DIR$" log &&
	! grep -q s3cret out err log &&
	pg_sql "SELECT count(*) FROM runs WHERE output LIKE '\''%s3cret%'\'' OR error LIKE '\''%s3cret%'\''" >n &&
	echo 0 >expect && test_cmp expect n &&
	TASK_DB=$uri task-tick --print-cron >cron && ! grep -q s3cret cron
'

test_expect_success 'task-ls --json | task-add --json - copies every task, every field, both ways' '
	export TASK_NOW=2026-11-23T06:00:00Z &&
	sq=$TEST_TMP/copy.db &&
	TASK_DB=$sq TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * 1-5" --tz Europe/London \
		--name brief --system "be brief" --context morning --model m1 --exec "echo hi" \
		--timeout 30 --retries 2 --intent in1 --channel ch1 --payload "{\"k\":[1,2]}" \
		--missed all --jitter 5 --notify "$PWD/show-db" "Summarise, with a tab	and é" >/dev/null &&
	TASK_DB=$sq TASK_NOW=2026-11-23T06:00:00Z task-add --plan 2026-11-24T07:00:00Z \
		--plan 2026-11-25T07:00:00Z --key k1 plan-task >/dev/null &&
	id=$(TASK_DB=$sq TASK_NOW=2026-11-23T06:00:00Z task-add --manual gone) &&
	TASK_DB=$sq task-rm "$id" 2>/dev/null &&
	{ TASK_DB=$sq task-ls --json && TASK_DB=$sq task-ls --json --trash; } >from-sqlite &&
	test "$(wc -l <from-sqlite)" -eq 3 &&
	db=$(pg_new_db) &&
	TASK_DB=$db task-add --json - <from-sqlite >/dev/null &&
	{ TASK_DB=$db task-ls --json && TASK_DB=$db task-ls --json --trash; } >from-pg &&
	test_cmp from-sqlite from-pg &&
	TASK_DB=$PWD/back.db task-add --json - <from-pg >/dev/null &&
	{ TASK_DB=$PWD/back.db task-ls --json && TASK_DB=$PWD/back.db task-ls --json --trash; } >back &&
	test_cmp from-sqlite back
'

test_expect_success 'a ticker whose clock is off says so once and fires by the database'\''s clock' '
	db=$(pg_new_db) &&
	at=$(date -u -d "@$(($(date +%s) - 5))" +%Y-%m-%dT%H:%M:%SZ) &&
	TASK_DB=$db TASK_NOW=2026-01-01T00:00:00Z task-add --at "$at" --exec true skewed >/dev/null &&
	TASK_DB=$db CLOCK_OFFSET=-3600 LD_PRELOAD=$AC_BUILD/tools/clock-offset.so \
		ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 task-tick >out 2>err &&
	grep -c "^task-tick: this machine.s clock is 3600\.[0-9] s behind the store.s (postgresql:///$(pg_db_of "$db")?host=.*); firing follows the store.s$" err >n &&
	echo 1 >expect && test_cmp expect n && test "$(wc -l <err)" -eq 1 &&
	grep -q "\"name\":\"skewed\",\"trigger\":\"schedule\",\"slot\":\"$at\",\"status\":\"success\"" out
'

test_done
