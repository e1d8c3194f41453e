#!/bin/sh
# Two task-edit --after at once, each closing half of a loop (A after B,
# B after A): the loop check and the write are one step, so at most one
# of them is made, round after round.
. "$AC_TOP/tests/lib.sh"

task-add --manual --name A a >/dev/null &&
task-add --manual --name B b >/dev/null

# a_after_b, b_after_a: each half of the loop; judged: one of them was
# refused, saying it would make a loop.
a_after_b() {
	task-edit --after B A
}
b_after_a() {
	task-edit --after A B
}
judged() {
	test $((r1 + r2)) = 2 &&
	cat err1 err2 >err && test "$(wc -l <err)" = 1 &&
	grep -q "^task-edit: after: that would make a loop: " err
}

test_expect_success '40 rounds of two edits at once: never a loop' '
	loop_race a_after_b b_after_a judged
'

test_done
