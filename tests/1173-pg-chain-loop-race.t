#!/bin/sh
# Two task-edit --after at once, each closing half of a loop (A after B,
# B after A): the loop check and the write are one step, so at most one
# of them is made, round after round.
. "$AC_TOP/tests/lib.sh"

task-add --manual --name A a >/dev/null &&
task-add --manual --name B b >/dev/null

links() {
	store_sql "SELECT count(*) FROM tasks WHERE after_tasks IS NOT NULL"
}

test_expect_success '40 rounds of two edits at once: never a loop' '
	i=0 loops=0 &&
	while test $i -lt 40
	do
		task-edit --after B A >/dev/null 2>err1 &
		p1=$!
		task-edit --after A B >/dev/null 2>err2 &
		p2=$!
		wait $p1; r1=$?
		wait $p2; r2=$?
		n=$(links) &&
		if test "$n" = 2
		then
			loops=$((loops + 1))
		else
			test "$n" = 1 && test $((r1 + r2)) = 2 || return 1
			cat err1 err2 >err && test "$(wc -l <err)" = 1 &&
			grep -q "^task-edit: after: that would make a loop: " err || return 1
		fi &&
		store_sql "UPDATE tasks SET after_tasks = NULL" >/dev/null &&
		i=$((i + 1)) || return 1
	done &&
	test "$loops" = 0
'

test_done
