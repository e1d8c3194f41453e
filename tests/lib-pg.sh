# tests/lib-pg.sh: PostgreSQL for the tests, sourced by tests/lib.sh.  The
# server is the one tests/run started for the whole suite (AC_PG_DIR); each
# caller of pg_new_db gets a database of its own on it.

: "${AC_PG_DIR:?tests/run starts the PostgreSQL server (AC_PG_DIR)}"

# The server's own client programs, called directly: Debian's psql on PATH
# is a Perl wrapper that costs more than the query.  Found once for the
# suite's pass where tests/run found it (it sources this file), else here.
if [ ! -x "${AC_PG_BIN:-}/psql" ]; then
	AC_PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -x "$AC_PG_BIN/psql" ] || AC_PG_BIN=$(dirname "$(command -v psql)")
fi
export AC_PG_BIN
# A new database copies its template's files: quicker than WAL-logging
# them (PostgreSQL 15 and later), and the test server needs no durability.
case $AC_PG_BIN in
*/1[0-4]/bin) pg_createdb_how_= ;;
*) pg_createdb_how_=" STRATEGY FILE_COPY" ;;
esac

# pg_psql [DB] -c SQL...: psql as the server's superuser, quiet, stopping
# at the first error.
pg_psql() {
	pg_psql_db_=agentcron
	case ${1:-} in -*) ;; *) pg_psql_db_=$1 && shift ;; esac
	"$AC_PG_BIN/psql" -h "$AC_PG_DIR" -U postgres -d "$pg_psql_db_" -X -q -A -t -v ON_ERROR_STOP=1 "$@"
}

# pg_new_db [made]: a new database; prints its URI.  Empty, or with
# "made" a copy of the database where tests/run had the store's schema
# made once for the pass (AC_PG_MADE), as the first program to use a
# database leaves it: a test file's own store, unless it is about making
# the schema.  Named by this test file's pid and the clock, as callers
# run it in a subshell.
pg_new_db() {
	pg_db=t$$_$(date +%s%N)
	pg_from_=
	[ "${1:-}" != made ] || [ -z "${AC_PG_MADE:-}" ] || pg_from_=" TEMPLATE $AC_PG_MADE"
	pg_psql postgres -c "CREATE DATABASE $pg_db$pg_from_$pg_createdb_how_" >/dev/null &&
	echo "postgresql:///$pg_db?host=$AC_PG_DIR&user=postgres"
}

# pg_drop_dbs: the databases pg_new_db made for this test file, dropped as
# it ends (tests/lib.sh): the pass's server keeps its data with the tests'
# scratch directories, in memory where there is some (tests/run).
pg_drop_dbs() {
	printf '%s\n' "SELECT format('DROP DATABASE %I WITH (FORCE)', datname) FROM pg_database" \
		"WHERE datname LIKE 't$$\\_%'" '\gexec' |
		"$AC_PG_BIN/psql" -h "$AC_PG_DIR" -U postgres -d postgres -X -q -A -t >/dev/null 2>&1
}

# pg_reset_db URI: the database of URI dropped and made again, empty.
pg_reset_db() {
	pg_psql postgres -c "DROP DATABASE IF EXISTS $(pg_db_of "$1") WITH (FORCE)" \
		-c "CREATE DATABASE $(pg_db_of "$1")$pg_createdb_how_" >/dev/null
}

# pg_db_of URI: the database a URI names.
pg_db_of() {
	printf '%s\n' "$1" | sed 's|^postgres[a-z]*:///\([^?]*\).*|\1|'
}

# pg_sql SQL: one statement against the database of TASK_DB; rows on
# stdout, fields separated by |.
pg_sql() {
	pg_psql "$(pg_db_of "$TASK_DB")" -c "$1"
}

# pg_own_server [durable]: a server of the file's own, for a file that
# restarts or crashes it, or reads its log: in $TEST_TMP/pg (PGSRV), TASK_DB
# its database, stopped when the file ends; "durable" keeps fsync and
# synchronous_commit on.  own_sql SQL: one statement there.
pg_own_server() {
	PGSRV=$TEST_TMP/pg
	TASK_DB=$(PG_DURABLE=${1:+1} "$AC_TOP/tests/pg-server" start "$PGSRV") || return 1
	export TASK_DB
	trap '"$AC_TOP/tests/pg-server" stop "$PGSRV"; test_cleanup_' EXIT
}
own_sql() {
	"$AC_PG_BIN/psql" -h "$PGSRV" -U postgres -d agentcron -X -q -A -t -v ON_ERROR_STOP=1 -c "$1"
}

# own_sent CMD...: CMD run (its output dropped), then each statement the
# own server was sent meanwhile, one a line, from its log (log_statement).
own_sent() {
	own_sent_off_=$(wc -c <"$PGSRV/log") &&
	"$@" >/dev/null &&
	tail -c +$((own_sent_off_ + 1)) "$PGSRV/log" |
		sed -n -E "s/^.*LOG:  (statement|execute [^:]*): //p"
}

# on_host NAME CMD...: CMD as a process of another host.  Where unshare
# can, in new UTS and PID namespaces (its own hostname, its own pids, so no
# pid of one host means anything on another); elsewhere TASK_HOST_ID names
# the host instead.
on_host() {
	host_name=$1
	shift
	if [ "${AC_UNSHARE:-}" = yes ]; then
		unshare --uts --pid --fork --mount-proc sh -c \
			'hostname "$0" && exec "$@"' "$host_name" "$@"
	else
		TASK_HOST_ID=$host_name "$@"
	fi
}

# Can this machine make namespaces?  Decided once for the suite's pass
# (tests/run), else once per test file.
if [ -z "${AC_UNSHARE:-}" ]; then
	if unshare --uts --pid --fork --mount-proc true 2>/dev/null; then
		AC_UNSHARE=yes
	else
		AC_UNSHARE=no
	fi
fi

# The commit cuts (tests/tools/preload/crash.so, preloaded into task-tick).
# cut_setup: ./job, an executor that appends its TASK_ID to execs and
# answers ok; and, as crash.so comes first, a sanitizer's runtime allowed
# to come second.  cut_fresh: TASK_DB (exported) a new database with three
# one-shots, t1 to t3, due at 2026-11-23T07:00:00Z running ./job, none run
# yet (no execs).
cut_setup() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	export ASAN_OPTIONS
	printf '#!/bin/sh\necho "$TASK_ID" >>"%s/execs"\necho ok\n' "$PWD" >job && chmod +x job
}
cut_fresh() {
	TASK_DB=$(pg_new_db) && export TASK_DB && rm -f execs &&
	for cut_i_ in 1 2 3; do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/job" --name t$cut_i_ x \
			>/dev/null || return 1
	done
}

# failover_counted HOW: tests/failover's two failovers (HOW: kill or
# readonly; a synchronous standby) under a burst of 32 one-shots, its
# figures in ./figures (shown as comments); fails unless every occurrence
# ran once, none lost or doubled, no run outlived owner_timeout, and each
# new primary claimed within owner_timeout and 5 s of its promotion.
# figure NAME: one of those figures.
figure() {
	awk -v k="$1" '$1 == k { print $2 }' figures
}
failover_counted() {
	{ "$AC_TOP/tests/failover" 32 "$1" sync >figures 2>failover.err ||
		{ cat failover.err phases; false; }; } &&
	sed "s/^/# /" figures &&
	test "$(figure one-shots)" -ge 32 &&
	test "$(figure ran-once)" = "$(figure one-shots)" &&
	test "$(figure doubled)" = 0 &&
	test "$(figure lost)" = 0 &&
	test "$(figure every-minute-due)" -ge 9 &&
	test "$(figure every-minute-runs)" -ge "$(figure every-minute-due)" &&
	test "$(figure every-minute-lost)" = 0 &&
	test "$(figure every-minute-gaps)" = 0 &&
	test "$(figure running-past-owner-timeout)" = 0 &&
	failover_bound_=$(($(figure owner-timeout-s) * 1000 + 5000)) &&
	test "$(figure first-claim-1-ms)" -ge 0 && test "$(figure first-claim-1-ms)" -le $failover_bound_ &&
	test "$(figure first-claim-2-ms)" -ge 0 && test "$(figure first-claim-2-ms)" -le $failover_bound_
}
