#!/bin/sh
# Exactly once is a property of the data: task-tick processes started
# together, or watching together, never fire one occurrence twice, and
# miss none.
. "$AC_TOP/tests/lib.sh"

# tasks N AT [TAG]: N one-shot tasks at AT whose executor appends $TASK_ID to ids.
tasks() {
	i=0
	while [ "$i" -lt "$1" ]; do
		i=$((i + 1))
		printf '{"name":"t%s-%d","prompt":"p%s-%d","kind":"at","at":"%s","exec":"sh -c '"'"'echo $TASK_ID >>%s/ids'"'"'"}\n' \
			"$2" "$i" "${3:-}" "$i" "$2" "$PWD"
	done | task-add --json -
}

# A pass from cron claims for its first minute only, and leaves the rest to
# the next pass; under the sanitizers on a busy machine 500 claims by eight
# processes can take longer than that, and this file is about exactly once,
# not about that minute (0871 is).
mkdir -p config/agentcron && echo "pass_claim_time = 3600" >config/agentcron/config || exit 1

test_expect_success '8 task-tick processes started together on 500 due tasks: each fires once' '
	export TASK_NOW=2026-11-23T06:00:00Z &&
	tasks 500 2026-11-23T07:00:00Z | sort >all &&
	test "$(wc -l <all)" -eq 500 &&
	export TASK_NOW=2026-11-23T07:00:10Z &&
	for i in 1 2 3 4 5 6 7 8; do { task-tick -j 4 >out.$i 2>err.$i & } && echo $! >>pids || return 1; done &&
	for p in $(cat pids); do wait $p || return 1; done &&
	cat err.* >errs && test ! -s errs &&
	sort ids >fired && test_cmp all fired &&
	test -z "$(uniq -d fired)" &&
	cat out.* | wc -l >n && echo 500 >expect && test_cmp expect n &&
	test "$(task-log --limit 0 --status success | wc -l)" -eq 500 &&
	test "$(task-ls | cut -f3 | sort -u)" = completed
'

test_expect_success 'a second round of passes finds nothing left to fire' '
	rm pids &&
	for i in 1 2 3 4; do { task-tick >again.$i & } && echo $! >>pids || return 1; done &&
	for p in $(cat pids); do wait $p || return 1; done &&
	cat again.* >again && test ! -s again && test "$(wc -l <ids)" -eq 500
'

# The watchers fire at real instants a few seconds ahead; each is armed
# (READY=1) before the first task is added, so all four compete.  Once all
# 150 ran, every task is completed with no next run: nothing is left that
# any watcher could fire again.
# recorded N: N runs have been recorded as successes (an executor writes
# its id before it exits, and its run is recorded after).
recorded() {
	test "$(task-log --limit 0 --status success | wc -l)" -eq "$1"
}

test_expect_success '4 task-tick --watch processes over a stream of tasks coming due: each fires once' '
	reset_store && rm -f ids && unset TASK_NOW &&
	for i in 1 2 3 4; do
		test_start_ready wout.$i werr.$i task-tick --watch -j 4 && echo $test_ready_pid >>wpids || return 1
	done &&
	start=$(date +%s) && : >all &&
	for b in 1 2 3 4 5 6; do
		at=$(date -u -d "@$((start + 2 + b / 2))" +%Y-%m-%dT%H:%M:%SZ) &&
		tasks 25 "$at" "$b" >>all || return 1
	done &&
	sort all >all.sorted && test "$(wc -l <all)" -eq 150 &&
	test_until 30 lines ids 150 &&
	test_until 30 recorded 150 &&
	kill -TERM $(cat wpids) &&
	for p in $(cat wpids); do wait $p || return 1; done &&
	for f in werr.*; do watcher_said "$f"; done >errs && test ! -s errs &&
	sort ids >fired && test_cmp all.sorted fired &&
	test "$(cat wout.* | wc -l)" -eq 150 &&
	test "$(task-log --limit 0 --status success | wc -l)" -eq 150 &&
	task-log --limit 0 | wc -l >n && echo 150 >expect && test_cmp expect n &&
	test "$(task-ls | wc -l)" -eq 150 &&
	task-ls | cut -f3,4 | sort -u >final &&
	printf "completed\t-\n" >expect &&
	test_cmp expect final
'

test_done
