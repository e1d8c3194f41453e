#!/bin/sh
# A commit whose outcome task-tick cannot know: its connection is cut just
# after the COMMIT reached the server (made) or just before it was sent
# (not made), at each of the first commits of a pass (tests/tools/preload/
# crash.so, CRASH_SIGNAL=CUT; the process lives on): each occurrence runs
# once and is recorded once, a success, with nothing recovered or retried.
# (A cut after the COMMIT leaves the server's answer readable, so task-tick
# still hears it: tests/0966-pg-claim-commit-cut.t loses the answer, at the
# claim's commit.)
. "$AC_TOP/tests/lib.sh"
cut_setup || exit 1

# cut_at N WHEN: a new database, 3 tasks due; a pass whose Nth commit is
# cut (WHEN after or before it is sent), then a plain pass for what is left.
cut_at() {
	cut_fresh &&
	{ LD_PRELOAD=$AC_BUILD/tools/crash.so CRASH_AT=$1 CRASH_WHEN=$2 CRASH_SIGNAL=CUT \
		TASK_NOW=2026-11-23T07:00:01Z task-tick >cut.out 2>cut.err || :; } &&
	grep -q "^crash.so: connection cut $2 its COMMIT was sent" cut.err &&
	TASK_NOW=2026-11-23T07:00:02Z task-tick >plain.out 2>plain.err &&
	test "$(wc -l <execs)" = 3 && test "$(sort -u execs | wc -l)" = 3 &&
	pg_sql "SELECT status, count(*), count(note), count(error) FROM runs GROUP BY status" >actual &&
	echo "success|3|0|0" >expect && test_cmp expect actual || {
		echo "commit $1, cut $2 it was sent:"
		cat cut.err plain.err execs
		return 1
	}
}

test_expect_success 'a commit cut after it reached the server, at each of a pass'"'"'s first commits: each occurrence once, a success' '
	cut_at 1 after && cut_at 2 after && cut_at 3 after && cut_at 4 after
'

test_expect_success 'a commit cut before it was sent: each occurrence once, a success' '
	cut_at 1 before && cut_at 2 before && cut_at 3 before && cut_at 4 before
'

test_done
