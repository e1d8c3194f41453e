#!/bin/sh
# A task is named by its id, the start of its id (4+ characters) or its
# exact name.  Text that is both a task's name and the start of another
# task's id names neither: a guess would act on the wrong task (a chain
# imported by names such as c155 linked the wrong tasks now and then).
. "$AC_TOP/tests/lib.sh"

test_expect_success 'set up: a task, and another named as the first one id starts' '
	task-add --manual --name first --exec true one >/dev/null &&
	a=$(task-ls --json | python3 -c "import json,sys; print(json.loads(sys.stdin.readline())[\"id\"])") &&
	p=$(echo "$a" | cut -c1-6) &&
	task-add --manual --name "$p" --exec true two >/dev/null &&
	b=$(task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    if t[\"name\"] == \"$p\": print(t[\"id\"])") &&
	test -n "$b" && echo "$a $b $p" >ids &&
	task-ls --json >before
'

test_expect_success 'the name and the start of the other id: refused, exit 4, both named' '
	read a b p <ids &&
	for cmd in task-show task-run task-rm "task-edit --prompt x" "task-add --manual --exec true --after $p y"; do
		case $cmd in task-add*) test_refused 4 $cmd ;; *) test_refused 4 $cmd "$p" ;; esac &&
		echo "${cmd%% *}: '\''$p'\'' is the name of task $b and the start of task $a'\''s id; give the id you mean" >expect &&
		case $cmd in task-add*) sed "s/^task-add: /task-add: after: /" expect >e2 && mv e2 expect ;; esac &&
		test_cmp expect err || return 1
	done
'

test_expect_success 'each by its whole id, or by more of the id than any name' '
	read a b p <ids &&
	task-show "$a" | grep -q "^name: *first" &&
	task-show "$b" | grep -q "^name: *$p" &&
	task-show "$(echo "$a" | cut -c1-8)" | grep -q "^name: *first"
'

test_expect_success 'a task named as its own id starts is no ambiguity' '
	read a b p <ids &&
	task-rm "$b" >/dev/null &&
	task-edit "$a" --name "$p" >/dev/null &&
	task-show "$p" | grep -q "^id: *$a"
'

test_done
