#!/bin/sh
# Claims on PostgreSQL pass over the rows another transaction holds.  A
# task-add that finds a pending twin (same prompt, same instant, another
# name, so it is added all the same) only looks at the twin, so a pass that
# falls due meanwhile claims it.  A change under way (task-edit) does hold
# its task: a pass from cron that passed over it looks again before it
# ends, and runs it.  The audit trail's lock, which a psql session of the
# test holds, keeps the add or the edit inside its transaction.
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
# hold_audit: the audit trail's lock held by a psql session fed through fd 3
# (which what runs meanwhile must not hold open: psql ends at its close).
hold_audit() {
	rm -f hold && mkfifo hold &&
	{ pg_psql "$(pg_db_of "$TASK_DB")" <hold >psql.out 2>&1 & } &&
	psql_pid=$! &&
	exec 3>hold &&
	echo "SELECT pg_advisory_lock(hashtext('agentcron audit'));" >&3 &&
	test_until 60 held
}
release_audit() {
	echo "SELECT pg_advisory_unlock_all();" >&3 &&
	exec 3>&- &&
	wait $psql_pid
}

test_expect_success 'a pass claims a due task while a task-add compares its twin with it' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at "$at" --name first x >/dev/null &&
	test_when_finished "exec 3>&-; test_end \$psql_pid" &&
	hold_audit &&
	{ TASK_NOW=2026-11-23T06:30:00Z task-add --at "$at" --name second x >add.out 2>add.err 3>&- & } &&
	add_pid=$! &&
	test_when_finished "test_end $add_pid" &&
	test_until 60 waiting 1 &&
	TASK_NOW=$at timeout 60 task-tick -j 2 >/dev/null &&
	test "$(runs_of first)" = 1 &&
	test "$(runs_of second)" = 0 &&
	release_audit &&
	wait $add_pid &&
	test "$(pg_sql "SELECT count(*) FROM tasks WHERE name = '\''second'\''")" = 1 &&
	test ! -s add.err &&
	TASK_NOW=$at task-tick >/dev/null &&
	test "$(runs_of second)" = 1 &&
	test "$(runs_of first)" = 1
'

# The job that holds the pass: it runs until released (a minute at most).
cat >slow <<EOF
#!/bin/sh
touch "$PWD/slow.started"
i=0
while [ ! -f "$PWD/slow.release" ] && [ \$i -lt 600 ]; do
	sleep 0.1
	i=\$((i + 1))
done
EOF
chmod +x slow || exit 1

test_expect_success 'a pass from cron runs a due task that an edit held when it claimed' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T06:59:30Z --name held x >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at "$at" --exec "$PWD/slow" --name slow y >/dev/null &&
	test_when_finished "exec 3>&-; test_end \$psql_pid" &&
	hold_audit &&
	{ TASK_NOW=2026-11-23T06:30:00Z task-edit held --name edited >edit.out 2>edit.err 3>&- & } &&
	edit_pid=$! &&
	test_when_finished "test_end $edit_pid" &&
	test_until 60 waiting 1 &&
	{ TASK_NOW=$at task-tick -j 2 >tick.out 2>tick.err 3>&- & } &&
	tick_pid=$! &&
	test_when_finished "touch slow.release; test_end $tick_pid" &&
	test_until 60 test -f slow.started &&
	test "$(runs_of held)" = 0 &&
	release_audit &&
	wait $edit_pid &&
	test "$(runs_of edited)" = 0 &&
	touch slow.release &&
	wait $tick_pid &&
	test ! -s tick.err &&
	test "$(runs_of slow)" = 1 &&
	test "$(runs_of edited)" = 1
'

test_done
