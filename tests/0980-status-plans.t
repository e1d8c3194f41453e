#!/bin/sh
# task-status reads indexes, not every row, whatever the size of the
# store: checked on the plans of the statements it runs, not on time.
# SQLite: task-status built into tests/tools/status-plans, which traces
# every statement and prints the plan SQLite makes of it.  PostgreSQL: the
# server's auto_explain, on for this database only, logs the plan of each
# statement task-status runs.  Each range over the runs is read through an
# index; the paused, failing and budgeted tasks each come from an index of
# their own, never from a walk of every task.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z TASK_EXEC=true

# plans MODE: the plan lines of every statement task-status MODE ran, each
# after its statement's "SQL" line.
case $AC_STORE in
sqlite)
	plans() {
		"$AC_BUILD/tools/status-plans" $1 >plans.raw
		test $? -le 2 && cat plans.raw
	}
	;;
postgres)
	# A server of this file's own: the suite's log is written by every
	# file at once, and a line of another's cut a plan short.
	pg_own_server || exit 1
	store_sql() { own_sql "$1"; }
	log=$PGSRV/log
	plans() {
		off=$(wc -c <"$log") &&
		{ task-status $1 >/dev/null; test $? -le 2; } &&
		# Only this database's sessions explain: its plans, as "SQL" and "PLAN" lines.
		tail -c +$((off + 1)) "$log" | awk '
			/LOG:  duration: .* plan:$/ { inplan = 1; next }
			/^[^\t]/ { inplan = 0 }
			inplan && /^\tQuery Text: / { sub(/^\tQuery Text: /, ""); print "SQL " $0; next }
			inplan && /^\t/ { sub(/^\t */, ""); print "PLAN " $0 }'
	}
	;;
esac

test_expect_success 'a store of tasks in every state, and 20,000 runs over 139 days' '
	for i in 1 2 3 4 5 6; do
		task-add --cron "0 7 * * *" --name "t$i" "Summarise $i" >/dev/null || return 1
	done &&
	store_sql "UPDATE tasks SET last_status = '\''failed'\'', consecutive_failures = 2 WHERE name = '\''t1'\''" &&
	store_sql "UPDATE tasks SET paused = '\''paused after 5 failures'\'', enabled = 0 WHERE name = '\''t2'\''" &&
	store_sql "UPDATE tasks SET budget = '\''1/day'\'' WHERE name = '\''t3'\''" &&
	now=$(date -u -d "$TASK_NOW" +%s) &&
	store_sql "INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at)
		WITH RECURSIVE g(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM g WHERE k < 19999)
		SELECT '\''r'\'' || k, (SELECT id FROM tasks WHERE name = '\''t4'\''), $now - 600 * k,
		'\''schedule'\'', CASE WHEN k % 10 = 0 THEN '\''failed'\'' ELSE '\''success'\'' END,
		$now - 600 * k, $now - 600 * k + 3 FROM g" &&
	if test "$AC_STORE" = postgres; then
		own_sql "ANALYZE" &&
		own_sql "ALTER DATABASE agentcron SET session_preload_libraries = '\''auto_explain'\''" &&
		own_sql "ALTER DATABASE agentcron SET auto_explain.log_min_duration = 0"
	fi &&
	test "$(store_sql "SELECT count(*) FROM runs")" = 20000
'

test_expect_success 'the statements task-status runs are explained' '
	plans "" >text &&
	grep -q "^SQL .*FROM runs" text && grep -q "^PLAN " text &&
	grep -q "^SQL .*paused IS NOT NULL" text
'

# ranges FILE: the plan lines of the statements of FILE that read runs
# in a range of start times, which must each go through an index.
ranges() {
	awk '/^SQL / { r = /FROM runs/ && /started_at >=/ } r && /^PLAN / && /runs/' "$1"
}

test_expect_success 'the runs of the last day, by status: a range of an index' '
	ranges text >runs &&
	test -s runs &&
	if grep -E "SCAN runs$|SCAN runs USING|Seq Scan on runs" runs; then return 1; fi &&
	grep -E "SEARCH runs USING (COVERING )?INDEX runs_status \(status=\? AND started_at>\?\)|Index (Only )?Scan using runs_started on runs|Bitmap Index Scan on runs_started" runs
'

# listed FILE WHAT INDEX: the statement of FILE selecting by WHAT reads INDEX.
listed() {
	awk -v what="$2" '/^SQL / { s = index($0, what) > 0 } s && /^PLAN /' "$1" >listed.plan &&
	grep -E "(SCAN|SEARCH) tasks USING (COVERING )?INDEX $3|Index (Only )?Scan using $3 on tasks" listed.plan
}

# (The budgeted tasks' ids on PostgreSQL: a server plans a table of a few
# tasks as a scan of it, whatever its indexes, and that list is no cursor.)
test_expect_success 'paused, failing and budgeted tasks each from an index of them alone' '
	listed text "paused IS NOT NULL" tasks_paused &&
	listed text "last_status IN (" tasks_failing &&
	if test "$AC_STORE" = sqlite; then listed text "budget IS NOT NULL" tasks_budget; fi
'

test_expect_success 'no statement of task-status reads the runs table whole' '
	if grep -E "^PLAN (SCAN runs|.*Seq Scan on runs)" text; then return 1; fi
'

test_expect_success 'on SQLite, tasks are only walked whole to count them (an index read alone)' '
	if test "$AC_STORE" = sqlite; then
		# A walk a LIMIT bounds (the first overdue tasks) is not a whole one.
		awk "/^SQL / { bounded = / LIMIT [0-9]+\$/ } !bounded && /^PLAN SCAN tasks/" text |
			grep -v -E "USING (COVERING )?INDEX tasks_(paused|failing|budget|status|queued)\$" >walks &&
		echo "PLAN SCAN tasks USING INDEX tasks_order" >expect &&
		test_cmp expect walks &&
		awk "/^SQL / { s = /count\\(\\*\\)/ } s && /SCAN tasks USING INDEX tasks_order/" text >counted &&
		test_cmp expect counted
	fi
'

test_expect_success '--json and --check read the same way' '
	for mode in --json --check; do
		plans $mode >m.plans &&
		ranges m.plans >m.runs && test -s m.runs || return 1
		if grep -E "^PLAN (SCAN runs|.*Seq Scan on runs)" m.plans; then return 1; fi
		listed m.plans "last_status IN (" tasks_failing >/dev/null || return 1
	done
'

test_expect_success '--prometheus: every run counted from an index, on SQLite without the table' '
	plans --prometheus >prom &&
	if test "$AC_STORE" = sqlite; then
		if grep -E "^PLAN SCAN runs" prom; then return 1; fi &&
		# Which of the day'\''s skipped runs a gate made reads those rows alone.
		awk "/^SQL / { r = /FROM runs/ && !/substr\\(runs.error/ } r && /^PLAN .*runs/" prom >prom.runs &&
		if grep -v -E "COVERING INDEX runs_status" prom.runs; then return 1; fi
	else
		ranges prom >prom.runs && test -s prom.runs
	fi
'

# --prometheus names each task beside its last success: the names come in
# the same read as the instants, not from a second walk of every task.
test_expect_success '--prometheus walks the tasks whole twice at most: to count them, for their last successes' '
	if test "$AC_STORE" = sqlite; then
		awk "/^SQL / { hit = / LIMIT [0-9]+\$/ }
			/^PLAN SCAN tasks/ && !/INDEX tasks_(paused|failing|budget|status|queued)\$/ && !hit { hit = 1; n++ }
			END { print n + 0 }" prom >walks &&
		echo 2 >expect &&
		test_cmp expect walks
	else
		awk "/^SQL / { s = /FROM tasks/ && !/WHERE/ } s && /^PLAN .*Seq Scan on tasks/" prom >walks &&
		! test -s walks
	fi
'

test_expect_success '--prometheus: names escaped, none for a task in the trash' '
	a=$(store_sql "SELECT id FROM tasks WHERE name = '\''t4'\''") &&
	b=$(store_sql "SELECT id FROM tasks WHERE name = '\''t5'\''") &&
	store_sql "UPDATE tasks SET name = '\''say \"hi\" \\ now'\'', last_success_at = 1000 WHERE id = '\''$a'\''" &&
	store_sql "UPDATE tasks SET last_success_at = 2000 WHERE id = '\''$b'\''" &&
	task-rm "$b" >/dev/null &&
	{ task-status --prometheus >names.prom; test $? -le 2; } &&
	grep "^agentcron_task_last_success_timestamp_seconds" names.prom >names &&
	grep -F -x "agentcron_task_last_success_timestamp_seconds{task=\"$a\",name=\"say \\\"hi\\\" \\\\ now\"} 1000" names &&
	grep -F -x "agentcron_task_last_success_timestamp_seconds{task=\"$b\"} 2000" names
'

# The step that adds these indexes (13 in a file, 9 on PostgreSQL) on a
# store made before it: undone by hand on a store of this pass's kind,
# (with the later steps' additions, which are made again), then task-status upgrades it and reads it through them, counting the same.
test_expect_success 'a store from before the indexes is upgraded and reads the same' '
	{ task-status --prometheus >before.prom; test $? -le 2; } &&
	if test "$AC_STORE" = sqlite; then
		sqlite3 "$TASK_DB" "DROP TABLE spend; DROP TABLE reserves; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; ALTER TABLE tasks DROP COLUMN gate; ALTER TABLE tasks DROP COLUMN gate_timeout;
			DROP INDEX tasks_disabled; DROP INDEX tasks_paused;
			DROP INDEX tasks_failing; DROP INDEX tasks_budget; DROP INDEX runs_status;
			CREATE INDEX runs_status ON runs(status, task_id, ended_at); DROP INDEX tasks_herd; DROP TABLE run_inputs; DROP INDEX tasks_after; ALTER TABLE tasks DROP COLUMN after_tasks; DROP INDEX tasks_deliver; DROP TABLE receipts;
			ALTER TABLE tasks DROP COLUMN deliver; ALTER TABLE tasks DROP COLUMN deliver_on;
			ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 12"
	else
		own_sql "DROP TABLE spend, reserves; ALTER TABLE tasks DROP COLUMN gate, DROP COLUMN gate_timeout;
			DROP INDEX tasks_paused; DROP INDEX tasks_failing; DROP INDEX tasks_budget;
			DROP INDEX tasks_herd; DROP TABLE run_inputs; DROP INDEX tasks_after; ALTER TABLE tasks DROP COLUMN after_tasks; DROP INDEX tasks_deliver; DROP TABLE receipts;
			ALTER TABLE tasks DROP COLUMN deliver, DROP COLUMN deliver_on;
			ALTER TABLE llm_calls DROP COLUMN request; UPDATE agentcron_schema SET version = 8"
	fi &&
	plans "" >upgraded &&
	listed upgraded "paused IS NOT NULL" tasks_paused &&
	listed upgraded "last_status IN (" tasks_failing &&
	ranges upgraded >upgraded.runs && test -s upgraded.runs &&
	if grep -E "^PLAN (SCAN runs|.*Seq Scan on runs)" upgraded; then return 1; fi &&
	{ task-status --prometheus >after.prom; test $? -le 2; } &&
	grep -v "^agentcron_store_size_bytes " before.prom >expect &&
	grep -v "^agentcron_store_size_bytes " after.prom >actual &&
	test_cmp expect actual
'

test_done
