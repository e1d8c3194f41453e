#!/bin/sh
# An idle pass waits for no disk: the record that a pass ran is a
# heartbeat, and losing the last one in a crash costs nothing.
# SQLite: the flushes of each pass counted (tests/tools/preload/syncs.c):
# none for an idle pass, and the log that the passes leave stays bounded
# (one pass in LOG_PAGES_MAX copies it in: the log's flush, the file's); a pass that runs a task still
# flushes its run.  Passes that take an idle pass's note (PATH-idle) open
# no store at all; the note is removed below where a pass must open it.
# PostgreSQL: this file's own server waits at every
# commit for a synchronous standby that never comes, so a commit that
# waited for its flush would never return: an idle pass still ends, with
# its record written.
. "$AC_TOP/tests/lib.sh"
export TASK_EXEC=true TASK_HOST_ID=alpha
shim=$AC_BUILD/tools/syncs.so
# The shim comes before the sanitizer's runtime in the sanitized build.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

passes_at() {
	store_sql "SELECT at FROM passes WHERE host = 'alpha'"
}

# The last pass task-status shows: the store's record or the note's time.
status_pass_at() {
	task-status --json | python3 -c "import json, sys; print(json.load(sys.stdin)['passes'][0]['at'])"
}

if test "$AC_STORE" = sqlite; then

# flushes CMD...: CMD run with its flushes to disk counted (its executors'
# too), the count on stdout.
flushes() {
	rm -f "$TEST_TMP/syncs" &&
	LD_PRELOAD=$shim SYNCS_FILE=$TEST_TMP/syncs "$@" >/dev/null &&
	awk "{ n += \$1 } END { print n }" "$TEST_TMP/syncs"
}

test_expect_success 'a store with a task due tomorrow, a first pass made' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --name later "Summarise" >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-tick >/dev/null
'

test_expect_success 'an idle pass flushes nothing to disk, and its record is there' '
	rm "$TASK_DB-idle" &&
	test "$(TASK_NOW=2026-11-23T06:01:00Z flushes task-tick)" = 0 &&
	test "$(passes_at)" = "$(date -u -d 2026-11-23T06:01:00Z +%s)"
'

test_expect_success 'the next takes its note: no flush, the store untouched, the time in task-status' '
	TASK_NOW=2026-11-23T06:01:20Z task-tick &&
	test "$(TASK_NOW=2026-11-23T06:01:30Z flushes task-tick)" = 0 &&
	test "$(TASK_NOW=2026-11-23T06:01:40Z status_pass_at)" = 2026-11-23T06:01:30Z &&
	test "$(passes_at)" = "$(date -u -d 2026-11-23T06:01:20Z +%s)"
'

test_expect_success 'seventy idle passes: the log they leave is copied in when it grows (one pass in 64)' '
	rm -f "$TEST_TMP/syncs" &&
	i=0 &&
	while test $i -lt 70; do
		rm -f "$TASK_DB-idle" &&
		LD_PRELOAD=$shim SYNCS_FILE=$TEST_TMP/syncs TASK_NOW=2026-11-23T06:02:00Z task-tick >/dev/null || return 1
		i=$((i + 1))
	done &&
	test "$(wc -l <"$TEST_TMP/syncs")" = 70 &&
	test "$(grep -c -v "^0\$" "$TEST_TMP/syncs")" = 1 &&
	test "$(grep -v "^0\$" "$TEST_TMP/syncs")" -le 3 &&
	test "$(stat -c %s "$TASK_DB-wal")" -le $((32 + 64 * (4096 + 24)))
'

test_expect_success 'the next program that is no pass copies that log in (task-status: two flushes)' '
	rm -f "$TASK_DB-idle" &&
	test "$(TASK_NOW=2026-11-23T06:03:00Z flushes task-status --check)" -le 3 &&
	test ! -e "$TASK_DB-wal" &&
	test "$(TASK_NOW=2026-11-23T06:04:00Z flushes task-tick)" = 0
'

test_expect_success 'a pass that runs a task still waits for the disk to hold its run' '
	n=$(TASK_NOW=2026-11-23T07:00:05Z flushes task-tick) &&
	test "$n" -ge 1 &&
	test "$(store_sql "SELECT status FROM runs")" = success
'

test_expect_success 'the store reads whole after all that (sqlite3 integrity check)' '
	test "$(sqlite3 "$TASK_DB" "PRAGMA integrity_check")" = ok &&
	test "$(passes_at)" = "$(date -u -d 2026-11-23T07:00:05Z +%s)"
'

else

# Durable (synchronous_commit on), as the suite's server is not.
pg_own_server durable || exit 1

test_expect_success 'a store with a task due tomorrow, a first pass made' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --name later "Summarise" >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-tick >/dev/null
'

test_expect_success 'the server now waits at every commit for a standby that never comes' '
	own_sql "ALTER SYSTEM SET synchronous_standby_names = '\''nobody'\''" &&
	own_sql "SELECT pg_reload_conf()" >/dev/null &&
	test_until 60 test "$(own_sql "SHOW synchronous_standby_names")" = nobody
'

test_expect_success 'an idle pass does not wait for its record to be flushed, and writes it' '
	TASK_NOW=2026-11-23T06:01:00Z timeout -k 5 60 task-tick >/dev/null &&
	test "$(own_sql "SELECT at FROM passes WHERE host = '\''alpha'\''")" = "$(date -u -d 2026-11-23T06:01:00Z +%s)"
'

test_expect_success 'a write that must last still waits (the standby setting took)' '
	test_expect_code 124 env TASK_NOW=2026-11-23T06:02:00Z timeout -k 5 3 task-add --manual --name stuck x
'

test_expect_success 'and with the standby setting gone, the pass record is as any' '
	own_sql "ALTER SYSTEM RESET synchronous_standby_names" &&
	own_sql "SELECT pg_reload_conf()" >/dev/null &&
	test_until 60 test -z "$(own_sql "SHOW synchronous_standby_names")" &&
	TASK_NOW=2026-11-23T06:03:00Z task-tick >/dev/null &&
	test "$(own_sql "SELECT at FROM passes WHERE host = '\''alpha'\''")" = "$(date -u -d 2026-11-23T06:03:00Z +%s)"
'

fi

test_done
