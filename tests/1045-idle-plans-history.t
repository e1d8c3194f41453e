#!/bin/sh
# An idle pass reads indexes, not every task or run, on both stores, in a
# store of 20,000 tasks with runs, and so does a pass that runs a few
# (its claims, and at each end the tasks that follow the one that ran): the pass starts a round of pruning
# (its walk of the tasks that have runs, each task's bounds), and the
# planners know the tables' sizes (PostgreSQL's ANALYZE; on SQLite, the
# plans with and without the statistics ANALYZE leaves).  SQLite: the plans
# from tests/tools/tick-plans.  PostgreSQL: the auto_explain (in JSON) of a
# server of this file's own: the suite's log is read by other files.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z TASK_HOST_ID=alpha
now=$(date -u -d "$TASK_NOW" +%s)

if test "$AC_STORE" = postgres; then
	pg_own_server || exit 1
	store_sql() { own_sql "$1"; }
fi

test_expect_success 'a store of 20,000 tasks and 60,000 runs' '
	for i in 1 2 3 4; do
		task-add --cron "0 8 * * *" --name "t$i" "Summarise $i" >/dev/null || return 1
	done &&
	task-add --at 2026-11-23T09:00:00Z --name later "Remind me" >/dev/null &&
	store_sql "INSERT INTO tasks (id, name, prompt, kind, cron, plan, tz, enabled, status,
		next_run_at, created_at, updated_at, exec, due_at, dedup, origin)
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3999)
		SELECT t.id || '\''-'\'' || n.i, t.name || '\'' '\'' || n.i, t.prompt, t.kind, t.cron,
		t.plan, t.tz, t.enabled, t.status, t.next_run_at, t.created_at, t.updated_at, t.exec,
		t.due_at, t.dedup, t.origin FROM tasks t, n" &&
	store_sql "INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at)
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)
		SELECT t.id || '\''-r'\'' || n.i, t.id, $now - 86400 * n.i, '\''schedule'\'',
		'\''success'\'', $now - 86400 * n.i, $now - 86400 * n.i + 3 FROM tasks t, n" &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 20000 &&
	test "$(store_sql "SELECT count(*) FROM runs")" = 60000
'

# walks PLANS: the plan lines that read the tasks or the runs whole (on
# SQLite, other than through the partial indexes of the few queued,
# delivering or following tasks); none is no failure.
walks() {
	grep -E "^PLAN SCAN (tasks|runs)( |$)" "$1" |
		grep -v -E "USING (COVERING )?INDEX (tasks_queued|tasks_deliver|tasks_after)( |$)"
	grep -E "^PLAN .*Seq Scan on (tasks|runs)" "$1"
	return 0
}

case $AC_STORE in
sqlite)
	plans() {
		"$AC_BUILD/tools/tick-plans"
	}
	;;
postgres)
	log=$PGSRV/log
	# plans: a pass, then the plans of this database's statements as
	# "SQL" and "PLAN" lines (each node: its type, on what, through what).
	plans() {
		off=$(wc -c <"$log") &&
		task-tick >/dev/null &&
		tail -c +$((off + 1)) "$log" | python3 -c '
import json, re, sys
text = sys.stdin.read()
# A JSON plan: the lines after "plan:", each begun by a tab, the first "{".
for m in re.finditer(r"plan:\n((?:\t.*\n)+)", text):
    body = "".join(l[1:] + "\n" for l in m.group(1).splitlines())
    if not body.startswith("{"):
        continue
    p = json.loads(body)
    print("SQL " + " ".join(p["Query Text"].split()))
    def walk(n):
        on = (" on " + n["Relation Name"]) if "Relation Name" in n else ""
        via = (" using " + n["Index Name"]) if "Index Name" in n else ""
        print("PLAN " + n["Node Type"] + on + via)
        for c in n.get("Plans", []):
            walk(c)
    walk(p["Plan"])
'
	}
	;;
esac

test_expect_success 'the first pass: the round of pruning starts, and nothing is read whole' '
	if test "$AC_STORE" = postgres; then
		store_sql "ANALYZE" &&
		store_sql "ALTER DATABASE agentcron SET session_preload_libraries = '\''auto_explain'\''" &&
		store_sql "ALTER DATABASE agentcron SET auto_explain.log_min_duration = 0" &&
		store_sql "ALTER DATABASE agentcron SET auto_explain.log_format = json"
	fi &&
	plans >first &&
	grep -q "^SQL .*min(task_id) FROM runs WHERE task_id >" first &&
	grep -q "^SQL .*FROM runs WHERE task_id = " first &&
	grep -q "^SQL .*deliver IS NOT NULL" first &&
	grep -q "^PLAN " first &&
	walks first >walked &&
	test_cmp /dev/null walked
'

test_expect_success 'a pass that runs due tasks: their claims and ends read nothing whole (SQLite: no statistics)' '
	for i in 1 2 3; do
		TASK_NOW=2026-11-23T06:59:00Z task-add --at 2026-11-23T07:00:00Z --exec true \
			--name "due$i" "Run $i" >/dev/null || return 1
	done &&
	TASK_NOW=2026-11-23T07:00:05Z plans >ran &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 60003 &&
	grep -q "^SQL .*after_tasks IS NOT NULL" ran &&
	walks ran >walked &&
	test_cmp /dev/null walked
'

test_expect_success 'on SQLite, with the statistics ANALYZE leaves, the same' '
	if test "$AC_STORE" = sqlite; then
		sqlite3 "$TASK_DB" "ANALYZE" &&
		test "$(store_sql "SELECT count(*) FROM sqlite_stat1 WHERE tbl = '\''tasks'\''")" -gt 0 &&
		store_sql "DELETE FROM settings WHERE key IN ('\''prune_round'\'', '\''prune_cursor'\'')" &&
		plans >stat &&
		grep -q "^SQL .*min(task_id) FROM runs WHERE task_id >" stat &&
		walks stat >walked &&
		test_cmp /dev/null walked
	fi
'

test_done
