#!/bin/sh
# On a terminal, task-show and task-log show the control characters of
# names, prompts and answers visibly, as cat -v does (ESC as ^[, BEL as ^G,
# a C1 CSI as M-^[), so a model cannot set the user's clipboard (OSC 52) or
# title; pipes and --json keep the exact text.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW NO_COLOR=1
esc=$(printf '\033') bel=$(printf '\007') csi=$(printf '\302\233')
osc="${esc}]52;c;SGVsbG8=${bel}"
printf '#!/bin/sh\nprintf "answer \\033]0;pwned\\007 and \\302\\2332J done\\n"\n' >answer &&
chmod +x answer || exit 1

test_expect_success 'setup: a task with escapes in its name and prompt, and a run' '
	id=$(task-add --manual --exec "$PWD/answer" --name "evil${osc}" "clear${esc}[2J${csi}H now") &&
	echo "$id" >id &&
	task-run "$id" >out &&
	printf "answer ${esc}]0;pwned${bel} and ${csi}2J done\n" >expect &&
	test_cmp expect out
'

test_expect_success 'task-show on a terminal: every control character visible' '
	id=$(cat id) &&
	script -qec "task-show $id" /dev/null | tr -d "\r" >tty &&
	! grep -q "$esc" tty && ! grep -q "$bel" tty && ! grep -q "$csi" tty &&
	grep -q "^name: *evil^\[\]52;c;SGVsbG8=^G$" tty &&
	grep -q "clear^\[\[2JM-^\[H now" tty
'

test_expect_success 'task-log RUN on a terminal: the answer visible, not obeyed' '
	run=$(task-log --limit 1 | cut -f1) &&
	script -qec "task-log $run" /dev/null | tr -d "\r" >tty &&
	! grep -q "$esc" tty && ! grep -q "$bel" tty &&
	grep -q "answer ^\[\]0;pwned^G and M-^\[2J done" tty &&
	script -qec "task-log" /dev/null | tr -d "\r" >list &&
	! grep -q "$esc" list
'

test_expect_success 'pipes and --json keep the exact text' '
	id=$(cat id) && run=$(task-log --limit 1 | cut -f1) &&
	task-show "$id" >plain &&
	grep -q "^name: *evil${osc}$" plain &&
	task-log "$run" >plain &&
	grep -q "answer ${esc}]0;pwned${bel} and ${csi}2J done" plain &&
	script -qec "task-show --json $id" /dev/null | tr -d "\r" >json &&
	grep -q "\"name\":\"evil\\\\u001b\]52;c;SGVsbG8=\\\\u0007\"" json
'

test_done
