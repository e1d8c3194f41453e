#!/bin/sh
# A task-add that finds a pending twin (same prompt, same instant, another
# name, so it is added all the same) only looks at the twin: it does not
# hold its row, so a pass that falls due meanwhile claims the twin instead
# of passing over it (claims skip the rows another transaction holds).
# The add is held inside its transaction by the audit trail's lock, which
# a psql session of the test holds until the pass has been checked.
. "$AC_TOP/tests/lib.sh"
export TASK_EXEC=true
at=2026-11-23T07:00:00Z

# waiting N: N sessions of this database wait for an advisory lock.
waiting() {
	test "$(pg_sql "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
		WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()")" = "$1"
}
held() {
	test "$(pg_sql "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
		WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()")" = 1
}
runs_of() {
	pg_sql "SELECT count(*) FROM runs r JOIN tasks t ON t.id = r.task_id WHERE t.name = '$1'"
}

test_expect_success 'a pass claims a due task while a task-add compares its twin with it' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at "$at" --name first x >/dev/null &&
	mkfifo hold &&
	{ pg_psql "$(pg_db_of "$TASK_DB")" <hold >psql.out 2>&1 & } &&
	psql_pid=$! &&
	exec 3>hold &&
	test_when_finished "exec 3>&-; test_end $psql_pid" &&
	echo "SELECT pg_advisory_lock(hashtext('\''agentcron audit'\''));" >&3 &&
	test_until 60 held &&
	{ TASK_NOW=2026-11-23T06:30:00Z task-add --at "$at" --name second x >add.out 2>add.err & } &&
	add_pid=$! &&
	test_when_finished "test_end $add_pid" &&
	test_until 60 waiting 1 &&
	TASK_NOW=$at timeout 60 task-tick -j 2 >/dev/null &&
	test "$(runs_of first)" = 1 &&
	test "$(runs_of second)" = 0 &&
	echo "SELECT pg_advisory_unlock_all();" >&3 &&
	exec 3>&- &&
	wait $add_pid &&
	wait $psql_pid &&
	test "$(pg_sql "SELECT count(*) FROM tasks WHERE name = '\''second'\''")" = 1 &&
	test ! -s add.err &&
	TASK_NOW=$at task-tick >/dev/null &&
	test "$(runs_of second)" = 1 &&
	test "$(runs_of first)" = 1
'

test_done
