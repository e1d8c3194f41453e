#!/bin/sh
# A crash in the middle of a burst: task-tick killed (SIGKILL) at one of
# its commits, each of which ends a group of runs and claims the next ones
# (tests/tools/preload/crash.c).  Whether the commit was made or lost, the
# passes after it recover what the dead process had in flight (recorded
# interrupted, then retried) and fire the rest: each task ends with exactly
# one successful run, no run is recorded twice or left running, and every
# executor start is a run of the store.
. "$AC_TOP/tests/lib.sh"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

cat >job <<EOF
#!/bin/sh
echo "\$TASK_ID \$TASK_RUN_ID" >>$PWD/log
EOF
chmod +x job

# setup: 200 one-shots due at 07:00, a fresh store and log.
setup() {
	reset_store && : >log &&
	export TASK_NOW=2026-11-23T06:55:00Z &&
	awk -v job="$PWD/job" 'BEGIN {
		for (i = 1; i <= 200; i++)
			printf("{\"name\":\"t-%d\",\"prompt\":\"p %d\",\"at\":\"2026-11-23T07:00:00Z\",\"exec\":\"%s\"}\n", i, i, job)
	}' | task-add --json - >/dev/null
}

# crash_at N WHEN: a pass killed at its Nth commit; it must have died so.
crash_at() {
	export TASK_NOW=2026-11-23T07:00:05Z &&
	{ LD_PRELOAD=$AC_BUILD/tools/crash.so CRASH_AT=$1 CRASH_WHEN=$2 task-tick -j 8 >crashed 2>&1
	  test $? -eq 137; } &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '"'running'"'")" -gt 0
}

# recover_all: a pass that recovers and fires the rest, then one at the
# retries; all they say on stderr is the runs the crash interrupted.
recover_all() {
	TASK_NOW=2026-11-23T07:00:40Z task-tick -j 8 >after 2>err &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick -j 8 >retries 2>>err &&
	! grep -v "interrupted: the process running it (pid [0-9]*) ended before the run finished" err
}

# exactly_once: the store and the executors' log agree, each task once.
exactly_once() {
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '"'running'"'")" = 0 &&
	test "$(store_sql "SELECT count(*) FROM tasks WHERE status <> '"'completed'"'")" = 0 &&
	store_sql "SELECT task_id FROM runs WHERE status = '"'success'"'" | sort >ok &&
	test "$(wc -l <ok)" -eq 200 && test -z "$(uniq -d ok)" &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '"'interrupted'"'")" -gt 0 &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status NOT IN ('"'success'"', '"'interrupted'"')")" = 0 &&
	cut -d" " -f2 log | sort >started && test -z "$(uniq -d started)" &&
	store_sql "SELECT id FROM runs" | sort >runs &&
	test -z "$(comm -23 started runs)" &&
	store_sql "SELECT id FROM runs WHERE status = '"'success'"'" | sort >succeeded &&
	test -z "$(comm -13 started succeeded)" &&
	grep -q "ended before the run finished" after
}

test_expect_success 'killed right after its 3rd commit: recovered, each task once' '
	setup && crash_at 3 after && recover_all && exactly_once
'

test_expect_success 'killed right after its 6th commit: recovered, each task once' '
	setup && crash_at 6 after && recover_all && exactly_once
'

test_expect_success 'killed as it commits its 4th group: recovered, each task once' '
	setup && crash_at 4 before && recover_all && exactly_once
'

test_done
