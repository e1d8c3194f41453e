#!/bin/sh
# The idle pass for `make bench`: task-tick with nothing due, against
# /bin/true (what starting any program costs) and against opening and
# closing the store (tests/tools/store-open: a program of ours started,
# its libraries loaded, the file opened and its schema read) on SQLite,
# and against opening and closing the store (start and connection) on
# PostgreSQL, in turns, on stores of 10,000 and 1,000,000
# tasks (BENCH_IDLE_SIZES; 10,000 made by tests/tools/mkstore, copied in
# SQL) and BENCH_IDLE_STORES ("sqlite postgres"); and the
# flushes to disk a pass makes (tests/tools/preload/syncs.c; on
# PostgreSQL, the server's WAL flushes in pg_stat_wal).  On SQLite an idle
# pass takes the note the pass before it left (tasks.db-idle) and opens no
# store: target within 0.9 ms of /bin/true (issue 43); the full pass, the
# note removed before each (against the same removal before opening the
# store), no more than 0.1 ms beyond SQLite 0.8 ms.  PostgreSQL: no more
# than 0.1 ms beyond 2.4 ms; there an idle pass takes the note in the state
# directory (idle-HASH-HOST: the next transaction id) and sends only its
# record; the full pass, that note removed before each (against the same
# removal before opening the store): what every pass costs where several
# hosts share the server.  At most one flush.
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
N=${BENCH_IDLE_RUNS:-41}
sizes=${BENCH_IDLE_SIZES:-10000 1000000}
stores=${BENCH_IDLE_STORES:-sqlite postgres}

fill() {
	sed "s/:mult/$(($1 / 10000))/g; s/:runs/0/g; s/:now/$now/g" "$AC_TOP/tests/bench/status-fill-$2.sql"
}

# beyond LABEL CMD... --vs BASE...: the medians and their difference.
beyond() {
	label=$1
	shift
	"$benchrun" "$N" "$@" >"$tmp/pair"
	awk -v l="$label" '
		NR == 1 { a = $5; ca = $14 } NR == 2 { b = $5; cb = $14 }
		/^first minus second/ { d = $5 }
		END { printf "%s: median %.2f ms against %.2f ms: %.2f ms beyond (cpu %.2f against %.2f ms)\n", l, a, b, d, ca, cb }' "$tmp/pair"
}

mkstore=$AC_BUILD/tools/mkstore
"$mkstore" "$tmp/base.db" 10000 0
for size in $sizes; do
	case " $stores " in *" sqlite "*) ;; *) break ;; esac
	db=$tmp/s$size.db
	cp "$tmp/base.db" "$db"
	{ echo "PRAGMA synchronous = OFF;"; fill "$size" sqlite; } | sqlite3 "$db" >/dev/null
	TASK_DB=$db "$AC_BIN/task-tick" >/dev/null
	beyond "sqlite $size tasks: idle pass" env TASK_DB="$db" "$AC_BIN/task-tick" --vs env TASK_DB="$db" /bin/true
	test -e "$db-idle" || { echo "sqlite $size tasks: an idle pass left no note" >&2; exit 1; }
	beyond "sqlite $size tasks: full idle pass (no note) beyond opening the store" \
		env TASK_DB="$db" sh -c 'rm -f "$TASK_DB-idle" && exec "$0"' "$AC_BIN/task-tick" \
		--vs env TASK_DB="$db" sh -c 'rm -f "$TASK_DB-idle" && exec "$0"' "$AC_BUILD/tools/store-open"
	TASK_DB=$db "$AC_BIN/task-tick" >/dev/null
	rm -f "$tmp/syncs"
	for i in 1 2 3 4 5; do
		TASK_DB=$db LD_PRELOAD=$AC_BUILD/tools/syncs.so SYNCS_FILE=$tmp/syncs "$AC_BIN/task-tick" >/dev/null
	done
	echo "sqlite $size tasks: flushes to disk of 5 idle passes: $(paste -sd' ' "$tmp/syncs")"
	rm -f "$db" "$db-wal" "$db-shm"
done

case " $stores " in *" postgres "*) ;; *) exit 0 ;; esac
srv=$tmp/pg
PG_DURABLE=1 "$AC_TOP/tests/pg-server" start "$srv" >/dev/null
for size in $sizes; do
	psql -h "$srv" -U postgres -d postgres -X -q -c "CREATE DATABASE i$size" >/dev/null
	export TASK_DB="postgresql:///i$size?host=$srv&user=postgres"
	"$mkstore" "$TASK_DB" 10000 0
	{ fill "$size" postgres; echo "VACUUM ANALYZE tasks;"; } | psql -X -q -v ON_ERROR_STOP=1 "$TASK_DB" >/dev/null
	"$AC_BIN/task-tick" >/dev/null
	beyond "postgres $size tasks: idle pass" "$AC_BIN/task-tick" --vs "$AC_BUILD/tools/store-open"
	ls "$HOME"/.local/state/agentcron/idle-*-bench >/dev/null 2>&1 ||
		{ echo "postgres $size tasks: an idle pass left no note" >&2; exit 1; }
	beyond "postgres $size tasks: full idle pass (no note) beyond connecting" \
		sh -c 'rm -f "$HOME"/.local/state/agentcron/idle-* && exec "$0"' "$AC_BIN/task-tick" \
		--vs sh -c 'rm -f "$HOME"/.local/state/agentcron/idle-* && exec "$0"' "$AC_BUILD/tools/store-open"
	"$AC_BIN/task-tick" >/dev/null
	w0=$(psql -X -A -t -c "SELECT wal_sync FROM pg_stat_wal" "$TASK_DB")
	for i in 1 2 3 4 5; do
		"$AC_BIN/task-tick" >/dev/null
	done
	sleep 1
	w1=$(psql -X -A -t -c "SELECT wal_sync FROM pg_stat_wal" "$TASK_DB")
	echo "postgres $size tasks: WAL flushes of 5 idle passes, the server's in all: $((w1 - w0))"
	psql -h "$srv" -U postgres -d postgres -X -q -c "DROP DATABASE i$size" >/dev/null
done
