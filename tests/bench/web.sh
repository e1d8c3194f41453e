#!/bin/sh
# task-web's page times for `make bench`, on SQLite and then on PostgreSQL
# (a throwaway server, over a Unix socket): 100,000 tasks
# (tests/tools/mkstore), 10,000 of them overdue (a stopped ticker), and
# 1,000,000 runs (1,000 tasks with 1,000 each, written by SQL), each page
# asked for 21 times; the median and the slowest, against the target of
# 50 ms.  The text filter is asked for a text one task holds (the trigram
# index finds it), one 1,111 hold (the index again), one every task holds
# (the next-run order, walked until a page is full) and one of two
# characters (too short for the index: a walk of 5,000 tasks at most, cut
# short).  Beside each page's times, the CPU time a request took (task-web
# and the PostgreSQL server's processes together), the figure the
# machine's other load changes least.
set -eu
: "${AC_BIN:?run through make bench}" "${AC_BUILD:?}" "${AC_TOP:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
pid= srv=$tmp/pg pg=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -z "$pg" ] || "$AC_TOP/tests/pg-server" stop "$srv"; rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" TZ=UTC
unset TASK_EXEC TASK_NOTIFY TASK_NOW

# The runs' rows, in each store's SQL.
runs_sqlite="
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999999),
  t AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM tasks ORDER BY id LIMIT 1000)
INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at, exit_code, output,
    duration_ms, attempt, arming)
SELECT printf('%08x-0000-4000-8000-%012x', n.i / 1000, n.i), t.id, 1700000000 + (n.i % 1000) * 60,
    'schedule', CASE WHEN n.i % 17 = 0 THEN 'failed' ELSE 'success' END,
    1700000000 + (n.i % 1000) * 60, 1700000000 + (n.i % 1000) * 60 + 3, 0, 'done ' || n.i,
    1000 + n.i % 5000, 1, 0
FROM n JOIN t ON t.k = n.i / 1000;"
runs_postgres="
INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at, exit_code, output,
    duration_ms, attempt, arming)
SELECT lpad(to_hex(n.i / 1000), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(n.i), 12, '0'), t.id,
    1700000000 + (n.i % 1000) * 60, 'schedule',
    CASE WHEN n.i % 17 = 0 THEN 'failed' ELSE 'success' END,
    1700000000 + (n.i % 1000) * 60, 1700000000 + (n.i % 1000) * 60 + 3, 0, 'done ' || n.i,
    1000 + n.i % 5000, 1, 0
FROM generate_series(0, 999999) n(i)
JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM tasks ORDER BY id LIMIT 1000) t
  ON t.k = n.i / 1000;"

sql() {
	case $store in
	sqlite) sqlite3 "$TASK_DB" "$1" ;;
	postgres) psql -h "$srv" -U postgres -d web -X -q -A -t -v ON_ERROR_STOP=1 -c "$1" ;;
	esac
}

# The CPU time (user and system, clock ticks) task-web and, on
# PostgreSQL, the server's processes have used: what the machine's other
# load changes less than the time to an answer.
cpu() {
	{
		echo "$pid"
		[ -z "$pg" ] || ps -o pid= --ppid "$(head -n 1 "$srv/data/postmaster.pid")"
	} | while read -r p; do
		awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null
	done | awk '{ s += $1 } END { print s + 0 }'
}

page() {
	c0=$(cpu)
	for k in $(seq 21); do
		curl -s --max-time 30 -o /dev/null -w '%{time_starttransfer}\n' -H "Authorization: Bearer $tok" "$url$2"
	done >"$tmp/times"
	c1=$(cpu)
	sort -n "$tmp/times" | awk -v name="$1" -v ticks=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" '
	    { t[NR] = $1 * 1000 } END {
		printf "  %-32s median %6.1f ms, slowest %6.1f ms, CPU %5.1f ms%s\n", name, t[11], t[21],
		    ticks * 1000 / hz / NR, (t[11] > 50 ? "  (over the 50 ms target)" : "") }'
}

bench() {
	t0=$(date +%s)
	# The 10,000 due were due 30 s before the store was made: overdue now.
	TASK_NOW=$(date -u -d @$(($(date +%s) - 600)) +%Y-%m-%dT%H:%M:%SZ) \
		"$AC_BUILD/tools/mkstore" "$TASK_DB" 100000 10000 >/dev/null
	if [ "$store" = sqlite ]; then sql "$runs_sqlite"; else sql "$runs_postgres"; sql "VACUUM ANALYZE"; fi
	t1=$(date +%s)
	echo "$store: 100,000 tasks and $(sql "SELECT count(*) FROM runs") runs made in $((t1 - t0)) s"
	tok=$("$AC_BIN/task-web" --new-token bench 2>/dev/null)
	"$AC_BIN/task-web" --listen 127.0.0.1:0 2>"$tmp/err" &
	pid=$!
	i=0
	until grep -q "listening on" "$tmp/err"; do
		i=$((i + 1)); [ $i -lt 200 ] || { cat "$tmp/err" >&2; exit 1; }
		sleep 0.05
	done
	url=$(sed -n 's|^task-web: listening on \(http://[^/]*\)/$|\1|p' "$tmp/err")
	busy=$(sql "SELECT task_id FROM runs ORDER BY started_at DESC LIMIT 1")
	run=$(sql "SELECT id FROM runs WHERE task_id = '$busy' LIMIT 1")
	echo "$store: pages, 21 times each (time to the first byte; target < 50 ms; CPU per request):"
	page "overview / (10,000 overdue)" /
	page "tasks /tasks" /tasks
	page "tasks filtered, 1 of 100,000" "/tasks?q=99999"
	page "tasks filtered, 1,111 of 100,000" "/tasks?q=ask+99"
	page "tasks filtered, every task" "/tasks?q=task"
	page "tasks filtered, 2 characters" "/tasks?q=99"
	page "a task with 1,000 runs" "/tasks/$busy"
	page "a run" "/runs/$run"
	page "timeline" /timeline
	page "API /api/tasks?limit=100" "/api/tasks?limit=100"
	page "API /api/tasks?q=99 (2 characters)" "/api/tasks?q=99&limit=100"
	page "API /api/runs?task=..." "/api/runs?task=$busy&limit=100"
	kill "$pid" && wait "$pid" 2>/dev/null || true
	pid=
}

store=sqlite TASK_DB=$tmp/web.db
export TASK_DB
bench
store=postgres
"$AC_TOP/tests/pg-server" start "$srv" >/dev/null && pg=1
psql -h "$srv" -U postgres -d postgres -X -q -c "CREATE DATABASE web"
TASK_DB="postgresql:///web?host=$srv&user=postgres"
bench
