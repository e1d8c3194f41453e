#!/bin/sh
# The claim's own commit cut (tests/tools/preload/crash.so, CRASH_SIGNAL=LOSE:
# the connection cut and the process left running): just after the COMMIT
# reached the server, its answer lost (the claim made, task-tick never
# told), or just before it was sent (not made).  task-tick cannot know which; it reads back what
# is on the server before it starts or records anything, so each
# occurrence runs exactly once either way, a success, nothing recovered.
# Which commit of a pass is the claim is found, not assumed: the first one
# after which, the process stopped there, the runs are in the store.  The
# same for the commit that records the runs' ends: its answer lost, the
# record is made again and finds its own end there, not a recovery's (no
# note, no warning).
. "$AC_TOP/tests/lib.sh"
cut_setup || exit 1

pass_at() {
	TASK_NOW=2026-11-23T07:00:0$1Z
	export TASK_NOW
}
runs() {
	pg_sql "SELECT status, count(*), count(note), count(error) FROM runs GROUP BY status"
}
# stopped PID: the process is stopped (SIGSTOP) or gone.
stopped() {
	st=$(cut -d" " -f3 "/proc/$1/stat" 2>/dev/null) || return 0
	[ "$st" = T ] || [ "$st" = Z ]
}
# commit_after FIRST LAST STATUS FILE: the first commit of a pass, from
# the FIRST to the LAST, after which (the pass stopped there, SIGSTOP) the
# store holds the 3 runs with STATUS, written to FILE.  Each stopped pass
# is killed whatever becomes of the check.
commit_after() {
	commit_n_=$1
	while [ "$commit_n_" -le "$2" ]; do
		cut_fresh && pass_at 1 || return 1
		LD_PRELOAD=$AC_BUILD/tools/crash.so CRASH_AT=$commit_n_ CRASH_WHEN=after CRASH_SIGNAL=STOP \
			task-tick >stop.out 2>stop.err &
		commit_pid_=$!
		commit_got_=
		test_until 60 stopped $commit_pid_ &&
			commit_got_=$(pg_sql "SELECT count(*) FROM runs WHERE status = '$3'")
		commit_rc_=$?
		kill -KILL $commit_pid_ 2>/dev/null
		wait $commit_pid_
		[ "$commit_rc_" = 0 ] || return 1
		[ "$commit_got_" = 3 ] && echo "$commit_n_" >"$4" && return 0
		commit_n_=$((commit_n_ + 1))
	done
	echo "no commit from $1 to $2 leaves 3 runs $3; the last pass said:" >&2
	cat stop.err >&2
	return 1
}

test_expect_success 'the claim is the commit after which the runs are in the store, none started' '
	commit_after 1 4 running claim &&
	test ! -e execs
'

# cut WHEN: a pass whose claim's commit is cut (WHEN after or before it is
# sent); prints the runs in the store after it.
cut() {
	cut_fresh && pass_at 1 &&
	{ LD_PRELOAD=$AC_BUILD/tools/crash.so CRASH_AT=$(cat claim) CRASH_WHEN=$1 CRASH_SIGNAL=LOSE \
		task-tick >cut.out 2>cut.err || :; } &&
	grep -q "^crash.so: connection cut $1 its COMMIT was sent" cut.err || {
		echo "no cut $1 the claim's commit:" && cat cut.err
		return 1
	}
}
# started_in_cut_pass: the pass whose claim's commit was cut started each
# of the 3 once (it read its claim back).
started_in_cut_pass() {
	test "$(cat execs 2>/dev/null | wc -l)" = 3 && test "$(sort -u execs | wc -l)" = 3 || {
		echo "the cut pass started $(cat execs 2>/dev/null | wc -l) of 3; it said:" && cat cut.err
		return 1
	}
}
# then_once: a plain pass a second later and one two hours later: each
# occurrence has run once in all, a success, nothing recovered or retried.
then_once() {
	pass_at 2 && task-tick >plain.out 2>plain.err &&
	TASK_NOW=2026-11-23T09:00:00Z task-tick >later.out 2>later.err &&
	test "$(wc -l <execs)" = 3 && test "$(sort -u execs | wc -l)" = 3 &&
	echo "success|3|0|0" >expect && runs >actual && test_cmp expect actual || {
		echo "cut pass:" && cat cut.err && echo "later passes:" && cat plain.err later.err &&
		echo "started:" && cat execs
		return 1
	}
}

test_expect_success 'the claim'"'"'s commit cut after it reached the server: read back, each occurrence run once in that very pass' '
	cut after && started_in_cut_pass && then_once
'

test_expect_success 'the claim'"'"'s commit cut before it was sent: nothing started that the store lacks; each occurrence run once' '
	cut before &&
	test "$(pg_sql "SELECT count(*) FROM runs")" = "$(cat execs 2>/dev/null | wc -l)" &&
	then_once
'

test_expect_success 'the commit that records the ends, its answer lost: the record made again finds its own end, no note' '
	commit_after $(($(cat claim) + 1)) $(($(cat claim) + 4)) success rec &&
	cut_fresh && pass_at 1 &&
	{ LD_PRELOAD=$AC_BUILD/tools/crash.so CRASH_AT=$(cat rec) CRASH_WHEN=after CRASH_SIGNAL=LOSE \
		task-tick >cut.out 2>cut.err || :; } &&
	grep -q "^crash.so: connection cut after its COMMIT was sent" cut.err &&
	! grep -q "had been recovered" cut.err &&
	then_once
'

test_done
