#!/bin/sh
# task-status figures for `make bench`: each output (text, --json, --check,
# --prometheus) against the same reads done by the database's own shell
# (sqlite3, psql; tests/bench/status-*.sql), in turns, on stores of 10,000
# and 100,000 tasks (and 1,000,000: BENCH_STATUS_SIZES below) with 10 runs each (every third day, the last
# within a day), 1 task in 997 failing, 1 in 4999 paused by failures, 1 in
# 9973 with a budget, a model call for 1 run in 100.  10,000 tasks made by
# tests/tools/mkstore are copied in SQL (the store's own inserts would take
# minutes).  BENCH_STATUS_SIZES (default "10000 100000"; a store of
# 1,000,000 tasks and 10,000,000 runs takes a quarter of an hour or more to
# make on two cores, so it is asked for: "10000 100000 1000000") and
# BENCH_STATUS_STORES (default "sqlite postgres") choose.  Targets: within
# 1.5x of the shell; under 1 s at 100,000 tasks, 10 s at 1,000,000.
set -eu
: "${AC_BIN:?run through make bench}" "${AC_BUILD:?}" "${AC_TOP:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
srv=
trap 'test -z "$srv" || "$AC_TOP/tests/pg-server" stop "$srv" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" TZ=UTC TASK_HOST_ID=bench
unset TASK_EXEC TASK_NOTIFY
export TASK_NOW=2026-11-23T07:00:00Z
now=$(date -u -d "$TASK_NOW" +%s)
benchrun=$AC_BUILD/tools/benchrun
sizes=${BENCH_STATUS_SIZES:-10000 100000}
stores=${BENCH_STATUS_STORES:-sqlite postgres}

# The reads, with the instants task-status would use filled in.
reads() {
	sed "s/:now/$now/g; s/:day/$((now - 86400))/g; s/:today/$((now - now % 86400))/g" \
		"$AC_TOP/tests/bench/status-$1.sql"
}

# The copies, the tasks' states and the runs, in SQL both stores read.
# :mult copies of the first 10,000 tasks, :runs runs a task.
fill() {
	sed "s/:mult/$(($1 / 10000))/g; s/:runs/10/g; s/:now/$now/g" "$AC_TOP/tests/bench/status-fill-$2.sql"
}

runs_for() {
	case $1 in 10000) echo 21 ;; 100000) echo 5 ;; *) echo 3 ;; esac
}

# figures LABEL SIZE SHELL: each mode against the reads, SHELL a command
# line for sh -c that reads the file $0.
figures() {
	label=$1 size=$2
	shift 2
	for mode in text --json --check --prometheus; do
		m=$mode
		[ "$m" = text ] && m=
		kind=status
		[ "$mode" = --prometheus ] && kind=prometheus
		# --check says WARNING (1) of the failing tasks: both through sh.
		out=$("$benchrun" "$(runs_for "$size")" sh -c '"$0" $1; test $? -le 2' \
			"$AC_BIN/task-status" "$m" --vs sh -c "$1" "$tmp/$kind.sql" | sed -n '1p;2p')
		echo "$out" | awk -v l="$label" -v m="$mode" '
			NR == 1 { a = $5; ca = $14 } NR == 2 { b = $5; cb = $14 }
			END { printf "%s: task-status %-12s median %8.1f ms, the shell %8.1f ms: %.2fx (cpu %.1f against %.1f ms)\n",
			    l, m, a, b, a / b, ca, cb }'
	done
}

base=$tmp/base.db
"$AC_BUILD/tools/mkstore" "$base" 10000 0
for store in $stores; do
	reads "$store" >"$tmp/status.sql"
	reads "$store-prometheus" >"$tmp/prometheus.sql"
	for size in $sizes; do
		label=$(printf "%s %d tasks" "$store" "$size")
		t0=$(date +%s)
		if [ "$store" = sqlite ]; then
			export TASK_DB=$tmp/s$size.db
			cp "$base" "$TASK_DB"
			{ echo "PRAGMA synchronous = OFF; PRAGMA cache_size = -1000000;"; fill "$size" "$store"; } |
				sqlite3 "$TASK_DB" >/dev/null
			"$AC_BIN/task-tick" >/dev/null
			echo "$label: store of $(sqlite3 "$TASK_DB" "SELECT count(*) FROM runs") runs, $(($(stat -c %s "$TASK_DB") / 1048576)) MB, made in $(($(date +%s) - t0)) s"
			figures "$label" "$size" 'sqlite3 "$TASK_DB" <"$0" >/dev/null'
			rm -f "$TASK_DB" "$TASK_DB-wal" "$TASK_DB-shm"
		else
			if [ -z "$srv" ]; then
				srv=$tmp/pg
				PG_DURABLE=1 "$AC_TOP/tests/pg-server" start "$srv" >/dev/null
			fi
			psql -h "$srv" -U postgres -d postgres -X -q -c "CREATE DATABASE s$size" >/dev/null
			export TASK_DB="postgresql:///s$size?host=$srv&user=postgres"
			"$AC_BUILD/tools/mkstore" "$TASK_DB" 10000 0
			fill "$size" "$store" | psql -X -q -v ON_ERROR_STOP=1 "$TASK_DB" >/dev/null
			"$AC_BIN/task-tick" >/dev/null
			echo "$label: store of $(psql -X -A -t -c "SELECT count(*) FROM runs" "$TASK_DB") runs made in $(($(date +%s) - t0)) s"
			figures "$label" "$size" 'psql -X -q -o /dev/null -f "$0" "$TASK_DB"'
			psql -h "$srv" -U postgres -d postgres -X -q -c "DROP DATABASE s$size" >/dev/null
		fi
	done
done
