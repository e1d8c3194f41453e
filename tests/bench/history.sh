#!/bin/sh
# History figures for `make bench`: a task that fires every minute with
# 4 KB of output a run, for a year (525,600 runs), made through the store
# API and pruned as task-tick's passes prune it (tests/tools/mkhistory),
# with the default keep (90 days or 25,000 runs a task):
#   size:  the store at the end, file and log (target < 200 MB);
#   idle:  a pass with nothing due on that store, against the same pass on
#          a store whose task has no history (target: as fast);
#   round: the same, each pass starting a pruning round (10 minutes apart).
set -eu
: "${AC_BIN:?run through make bench}" "${AC_BUILD:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" TZ=UTC
unset TASK_EXEC TASK_NOTIFY TASK_NOW
mk=$AC_BUILD/tools/mkhistory
benchrun=$AC_BUILD/tools/benchrun

t0=$(date +%s)
end=$(TASK_NOW=2026-01-01T00:00:00Z "$mk" "$tmp/year.db" 365 4096 2>/dev/null)
t1=$(date +%s)
kept=$(sqlite3 "$tmp/year.db" "SELECT count(*) FROM runs")
file=$(stat -c %s "$tmp/year.db")
log=$(stat -c %s "$tmp/year.db-wal" 2>/dev/null || echo 0)
free=$(sqlite3 "$tmp/year.db" "PRAGMA freelist_count")
page=$(sqlite3 "$tmp/year.db" "PRAGMA page_size")
echo "year: 525,600 runs of 4 KB made, pruned pass by pass, in $((t1 - t0)) s; $kept kept"
awk -v f="$file" -v l="$log" -v k="$kept" -v fr="$free" -v p="$page" 'BEGIN {
	mb = 1024 * 1024
	printf "size: %.1f MB (file %.1f MB, log %.1f MB, %.1f MB of it free for reuse) (target < 200 MB)\n",
	    (f + l) / mb, f / mb, l / mb, fr * p / mb
	printf "size: %.0f bytes a kept run; 90 days alone (129,600 runs, keep_runs = 0) would take about %.0f MB\n",
	    (f - fr * p) / k, (f - fr * p) / k * 129600 / mb }'

# The same task and instant without history: what an idle pass costs anyway.
TASK_NOW=$end "$mk" "$tmp/empty.db" 0 >/dev/null 2>&1
# A first pass each, so both start from a store already looked over.
TASK_DB=$tmp/year.db TASK_NOW=$end "$AC_BIN/task-tick" >/dev/null
TASK_DB=$tmp/empty.db TASK_NOW=$end "$AC_BIN/task-tick" >/dev/null
echo "idle: one pass, nothing due, a year of history (first) against none (second), 41 pairs:"
"$benchrun" 41 env TASK_DB="$tmp/year.db" TASK_NOW="$end" "$AC_BIN/task-tick" \
	--vs env TASK_DB="$tmp/empty.db" TASK_NOW="$end" "$AC_BIN/task-tick" | sed 's/^/  /'
echo "idle: (target: the same, within noise)"

# round: passes 601 s apart, so each starts a pruning round over the task.
e=$(date -u -d "$end" +%s)
for db in year empty; do
	i=1
	while [ $i -le 21 ]; do
		now=$(date -u -d "@$((e + 601 * i))" +%Y-%m-%dT%H:%M:%SZ)
		a=$(date +%s%N)
		TASK_DB=$tmp/$db.db TASK_NOW=$now "$AC_BIN/task-tick" >/dev/null
		b=$(date +%s%N)
		echo $(((b - a) / 1000))
		i=$((i + 1))
	done | sort -n | sed -n 11p | awk -v db=$db '{
		printf "round: one pass starting a pruning round, %s history: median %.2f ms of 21\n",
		    db == "year" ? "a year of" : "no", $1 / 1000 }'
done
echo "round: (target: the same, within noise)"
