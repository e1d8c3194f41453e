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

# wait_lines FILE N SECONDS: until FILE has N lines, at most SECONDS.
wait_lines() {
	t=0
	while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ]; do
		[ "$t" -lt "$(($3 * 10))" ] || return 1
		sleep 0.1
		t=$((t + 1))
	done
}

test_expect_success '8 task-tick processes started together on 500 due tasks: each fires once' '
	export TASK_NOW=2026-11-23T06:00:00Z &&
	tasks 500 2026-11-23T07:00:00Z | sort >all &&
	test "$(wc -l <all)" -eq 500 &&
	export TASK_NOW=2026-11-23T07:00:10Z &&
	for i in 1 2 3 4 5 6 7 8; do task-tick -j 4 >out.$i 2>err.$i & done &&
	wait &&
	cat err.* >errs && test ! -s errs &&
	sort ids >fired && test_cmp all fired &&
	test -z "$(uniq -d fired)" &&
	cat out.* | wc -l >n && echo 500 >expect && test_cmp expect n &&
	test "$(task-log --limit 0 --status success | wc -l)" -eq 500 &&
	test "$(task-ls | cut -f3 | sort -u)" = completed
'

test_expect_success 'a second round of passes finds nothing left to fire' '
	for i in 1 2 3 4; do task-tick >again.$i & done && wait &&
	cat again.* >again && test ! -s again && test "$(wc -l <ids)" -eq 500
'

test_expect_success '4 task-tick --watch processes over a stream of tasks coming due: each fires once' '
	rm -f "$TASK_DB" ids && unset TASK_NOW &&
	for i in 1 2 3 4; do task-tick --watch -j 4 >wout.$i 2>werr.$i & echo $! >>wpids; done &&
	start=$(date +%s) && : >all &&
	for b in 1 2 3 4 5 6; do
		at=$(date -u -d "@$((start + 2 + b / 2))" +%Y-%m-%dT%H:%M:%SZ) &&
		tasks 25 "$at" "$b" >>all || exit 1
		sleep 0.3
	done &&
	sort all >all.sorted && test "$(wc -l <all)" -eq 150 &&
	wait_lines ids 150 30 &&
	sleep 1.5 &&
	kill -TERM $(cat wpids) && wait &&
	cat werr.* >errs && test ! -s errs &&
	sort ids >fired && test_cmp all.sorted fired &&
	test "$(cat wout.* | wc -l)" -eq 150 &&
	test "$(task-log --limit 0 --status success | wc -l)" -eq 150
'
# Whatever happened above, no watcher outlives the test.
[ -f wpids ] && kill $(cat wpids) 2>/dev/null

test_done
