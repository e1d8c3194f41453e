#!/bin/sh
# The PostgreSQL store's figures for `make bench`, on a throwaway server
# with its default durability (fsync on), over a Unix socket:
#   connect: what every program pays to open the store;
#   idle:    one pass over 1,000,000 tasks with nothing due;
#   claim:   10,000 due tasks running /bin/true, claimed by 1, 2, 4 and 8
#            task-tick processes at once (-j 4 each): runs per second;
#   watch:   how late task-tick --watch starts executors on PostgreSQL;
#   idle watcher: the CPU a watcher uses with nothing due for an hour.
set -eu
: "${AC_BIN:?run through make bench}" "${AC_BUILD:?}" "${AC_TOP:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
watcher=
srv=$tmp/pg
trap 'test -z "$watcher" || kill "$watcher" 2>/dev/null; "$AC_TOP/tests/pg-server" stop "$srv"; rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" TZ=UTC
unset TASK_EXEC TASK_NOTIFY
benchrun=$AC_BUILD/tools/benchrun
PG_DURABLE=1 "$AC_TOP/tests/pg-server" start "$srv" >/dev/null
sql() {
	psql -h "$srv" -U postgres -d "$1" -X -q -A -t -v ON_ERROR_STOP=1 -c "$2"
}
newdb() {
	sql postgres "CREATE DATABASE $1"
	echo "postgresql:///$1?host=$srv&user=postgres"
}

export TASK_NOW=2026-11-23T07:00:00Z
export TASK_DB=$(newdb big)
echo "connect: open and close the store: $("$benchrun" 50 "$AC_BUILD/tools/store-open")"

# idle: 20,000 tasks of every kind through the store, copied with new ids
# to 1,000,000 in SQL (the store's own inserts would take minutes).
start=$(date +%s)
"$AC_BUILD/tools/mkstore" "$TASK_DB" 20000 0
cols=$(sql big "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'tasks' AND column_name NOT IN ('seq', 'id', 'idem_key')")
sql big "INSERT INTO tasks (id, $cols) SELECT gen_random_uuid()::text, $cols FROM tasks, generate_series(1, 49)"
sql big "VACUUM ANALYZE tasks"
echo "idle: store of $(sql big "SELECT count(*) FROM tasks") tasks built in $(($(date +%s) - start)) s"
echo "idle: one pass, nothing due (connect included): $("$benchrun" 50 "$AC_BIN/task-tick")"

# claim: the same 10,000 one-shots for each count of tickers.
spawn=$("$benchrun" 200 /bin/true)
echo "claim: baseline, one fork+exec+wait of /bin/true: $spawn"
for n in 1 2 4 8; do
	export TASK_DB=$(newdb claim$n)
	"$AC_BUILD/tools/mkstore" "$TASK_DB" 10000 10000
	t0=$(date +%s%N)
	i=0
	while [ $i -lt $n ]; do
		"$AC_BIN/task-tick" -j 4 >"$tmp/claim$n.$i" &
		i=$((i + 1))
	done
	wait
	t1=$(date +%s%N)
	runs=$(cat "$tmp"/claim$n.* | grep -c '"status":"success"')
	twice=$(sql claim$n "SELECT count(*) FROM (SELECT task_id FROM runs GROUP BY task_id HAVING count(*) > 1) x")
	awk -v ns=$((t1 - t0)) -v n="$runs" -v k="$n" -v twice="$twice" 'BEGIN {
		printf "claim: %d tickers, %d runs of /bin/true: %.1f s, %.0f runs/s (%d tasks ran twice)\n",
		    k, n, ns / 1e9, n / (ns / 1e9), twice }'
done

# watch: 3 tasks due in each of the next 10 seconds; the executor prints
# the clock as it starts, in nanoseconds.
unset TASK_NOW
export TASK_DB=$(newdb watch)
now=$(date +%s)
i=0
while [ $i -lt 30 ]; do
	at=$(date -u -d "@$((now + 3 + i / 3))" +%Y-%m-%dT%H:%M:%SZ)
	printf '{"name":"w%d","prompt":"p%d","kind":"at","at":"%s","exec":"date +%%s%%N"}\n' $i $i "$at"
	i=$((i + 1))
done | "$AC_BIN/task-add" --json - >/dev/null
: >"$tmp/watch.out"
"$AC_BIN/task-tick" --watch -j 8 >>"$tmp/watch.out" &
watcher=$!
t=0
while [ "$(wc -l <"$tmp/watch.out")" -lt 30 ] && [ $t -lt 300 ]; do
	sleep 0.1
	t=$((t + 1))
done
kill -TERM "$watcher" && wait "$watcher" || true
watcher=
sql watch "SELECT slot, replace(output, chr(10), '') FROM runs WHERE status = 'success'" |
	awk -F'|' '{ print $2 / 1e6 - $1 * 1000 }' | sort -n |
	awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "watch: no runs"; exit 1 }
		printf "watch: %d runs, lateness after the due instant: min %.1f ms, median %.1f ms, p90 %.1f ms, max %.1f ms\n",
		    NR, v[1], v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], v[NR] }'

# idle watcher: one task due in an hour, measured over 20 s.
export TASK_DB=$(newdb idle)
"$AC_BIN/task-add" --at "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)" --exec true later >/dev/null
echo "idle watcher, nothing due for an hour: $("$AC_TOP/tests/tools/idle-watch" 20)"
