#!/bin/sh
# task-tick figures for `make bench`:
#   idle:  one pass over a store of 1,000,000 tasks with nothing due (time, peak memory);
#   fire:  one pass over 1,000 due tasks whose executor is /bin/true, -j 8 (runs per second);
#   watch: how late task-tick --watch starts executors after their due instant;
#   queue: from task-run --queue to its executor's start in a watcher;
#   idle watcher: the CPU a watcher uses with nothing due for an hour.
set -eu
: "${AC_BIN:?run through make bench}" "${AC_BUILD:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
watcher=
trap 'test -z "$watcher" || kill "$watcher" 2>/dev/null; rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" TZ=UTC
unset TASK_EXEC TASK_NOTIFY
mkstore=$AC_BUILD/tools/mkstore
benchrun=$AC_BUILD/tools/benchrun
tick=$AC_BIN/task-tick

# idle: the store is built once (about half a minute), then 50 passes.
export TASK_NOW=2026-11-23T07:00:00Z
start=$(date +%s)
"$mkstore" "$tmp/big.db" 1000000 0
echo "idle: store of 1,000,000 tasks built in $(($(date +%s) - start)) s"
echo "idle: one pass, nothing due: $(TASK_DB=$tmp/big.db "$benchrun" 50 "$tick")"

# fire: 1,000 one-shots due, executor `true`, at most 8 at once.  The cost
# of starting /bin/true at all (fork, exec, wait) is the baseline.
spawn=$("$benchrun" 200 /bin/true)
echo "fire: baseline, one fork+exec+wait of /bin/true: $spawn"
"$mkstore" "$tmp/due.db" 1000 1000
t0=$(date +%s%N)
TASK_DB=$tmp/due.db "$tick" -j 8 >"$tmp/fire.out"
t1=$(date +%s%N)
runs=$(grep -c '"status":"success"' "$tmp/fire.out")
base=$(echo "$spawn" | sed 's/.*median \([0-9.]*\) ms.*/\1/')
awk -v ns=$((t1 - t0)) -v n="$runs" -v base="$base" 'BEGIN {
	printf "fire: %d runs of /bin/true, -j 8: %.0f ms, %.0f runs/s, %.2f ms per run, %.2f ms beyond the spawn\n",
	    n, ns / 1e6, n / (ns / 1e9), ns / 1e6 / n, ns / 1e6 / n - base }'

# watch: 3 tasks due in each of the next 10 seconds; the executor prints
# the clock as it starts, in nanoseconds.
unset TASK_NOW
export TASK_DB="$tmp/watch.db"
now=$(date +%s)
i=0
while [ $i -lt 30 ]; do
	at=$(date -u -d "@$((now + 3 + i / 3))" +%Y-%m-%dT%H:%M:%SZ)
	printf '{"name":"w%d","prompt":"p%d","kind":"at","at":"%s","exec":"date +%%s%%N"}\n' $i $i "$at"
	i=$((i + 1))
done | "$AC_BIN/task-add" --json - >/dev/null
: >"$tmp/watch.out"
"$tick" --watch -j 8 >>"$tmp/watch.out" &
watcher=$!
t=0
while [ "$(wc -l <"$tmp/watch.out")" -lt 30 ] && [ $t -lt 300 ]; do
	sleep 0.1
	t=$((t + 1))
done
kill -TERM "$watcher" && wait "$watcher" || true
watcher=
sqlite3 "$TASK_DB" "SELECT slot, replace(output, char(10), '') FROM runs WHERE status = 'success'" |
	awk -F'|' '{ print $2 / 1e6 - $1 * 1000 }' | sort -n |
	awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "watch: no runs"; exit 1 }
		printf "watch: %d runs, lateness after the due instant: min %.1f ms, median %.1f ms, p90 %.1f ms, max %.1f ms\n",
		    NR, v[1], v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], v[NR] }'

# queue: a watcher woken by task-run --queue, 10 times; the executor
# prints the clock as it starts.
rm -f "$TASK_DB"
id=$("$AC_BIN/task-add" --manual --exec "date +%s%N" queued)
: >"$tmp/queue.out"
"$tick" --watch >>"$tmp/queue.out" &
watcher=$!
sleep 1
i=0
while [ $i -lt 10 ]; do
	date +%s%N >>"$tmp/queue.asked"
	"$AC_BIN/task-run" --queue "$id" >/dev/null
	t=0
	while [ "$(wc -l <"$tmp/queue.out")" -le $i ] && [ $t -lt 100 ]; do
		sleep 0.05
		t=$((t + 1))
	done
	i=$((i + 1))
done
kill -TERM "$watcher" && wait "$watcher" || true
watcher=
sqlite3 "$TASK_DB" "SELECT replace(output, char(10), '') FROM runs WHERE status = 'success' ORDER BY started_at, rowid" |
	paste "$tmp/queue.asked" - | awk '$2 { print ($2 - $1) / 1e6 }' | sort -n |
	awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "queue: no runs"; exit 1 }
		printf "queue: %d runs, task-run --queue to the executor in a watcher: median %.1f ms, max %.1f ms\n",
		    NR, v[int((NR + 1) / 2)], v[NR] }'

# idle watcher: one task due in an hour, measured over 20 s.
rm -f "$TASK_DB"
"$AC_BIN/task-add" --at "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)" --exec true later >/dev/null
echo "idle watcher, nothing due for an hour: $("$AC_TOP/tests/tools/idle-watch" 20)"
