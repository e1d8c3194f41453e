#!/bin/sh
# The pages' example of a gate and a chain, run as the pages write it:
# "check the inbox, wake the model only if there is mail, then summarise
# for the morning".  The script and the two task-add commands are read from
# task-add(1) as mandoc renders it (so a change there is run here), and
# task-run(1) and agentcron(7) must show the same commands.  Against the
# echo provider, so the tokens on record are real: a morning without mail
# is skipped, costs nothing and starts no follower; a morning with mail is
# summarised and its follower given the summary, once; a mail server's
# event delivered twice with one message id makes one run.
. "$AC_TOP/tests/lib.sh"
mkdir -p config/agentcron bin && echo "provider = echo" >config/agentcron/config
export TASK_NOW=2026-11-23T06:00:00Z

# render PAGE: PAGE as mandoc shows it on a terminal too wide to wrap.
render() {
	mandoc -Tascii -O width=1000 "$AC_TOP/man/$1" | sed "s/.$(printf "\\b")//g"
}
# displays: the indented displays of a rendered page on stdin, each
# command on one line (a line ending in "\" joined to the next), a blank
# line after each display.
displays() {
	awk '/^           / { sub(/^           /, ""); if (cont) { sub(/^ +/, ""); line = line $0 } else line = $0
		cont = sub(/ \\$/, " ", line); if (!cont) print line; shown = 1; next }
		shown { print ""; shown = 0 }'
}
# gate_section: task-add(1)'s subsection on gates, rendered.
gate_section() {
	render man1/task-add.1 | sed -n "/^   A GATE: WAKE THE MODEL ONLY FOR MAIL$/,/^   [A-Z]/p"
}
calls() { task-log --usage --json | sed -n 's/.*"total":true,"calls":\([0-9]*\).*/\1/p'; }
# answer TASK: what its latest run answered, as task-log shows it.
answer() { task-log "$(task-log --task "$1" | head -n 1 | cut -f1)" | sed -n "/^output:/,/^error:/p"; }
# answer_of_two_mails FIRST: the answer (as answer prints it) whose first
# line is FIRST, then the rest of the two mails' headers.
answer_of_two_mails() {
	printf "output:\n  %s\n  Subject: lunch on friday?\n  From: bob@example.org\n  Subject: the invoice is late\nerror:\n" "$1"
}

test_expect_success 'task-add(1) shows the script and the two tasks; task-run(1) and agentcron(7) the same tasks' '
	gate_section | displays >blocks &&
	awk "BEGIN { RS = \"\" } NR == 1" blocks >bin/new-mail && chmod +x bin/new-mail &&
	head -n 1 bin/new-mail | grep -q "^#!/bin/sh$" && grep -q "exit 1" bin/new-mail &&
	grep "^task-add " blocks >commands &&
	test "$(wc -l <commands)" = 2 &&
	for page in man1/task-run.1 man7/agentcron.7; do
		render $page | displays | grep -F -x -f commands >shown &&
		test_cmp commands shown || return 1
	done
'

test_expect_success 'the pages'\'' commands make the two tasks' '
	. ./commands >ids 2>err && test ! -s err && test "$(wc -l <ids)" = 2 &&
	task-ls | cut -f2,5 >actual &&
	printf "Mail digest\tafter '\''Morning mail'\'' succeeds\nMorning mail\tDaily at 07:00\n" >expect &&
	sort actual | test_cmp expect -
'

test_expect_success 'a morning without mail: skipped as the page says, no model call, no follower' '
	TASK_NOW=2026-11-23T07:00:10Z task-tick >out 2>err &&
	grep -q "skipped: gate: nothing to do: inbox empty$" err &&
	task-log | cut -f4,5,7 >actual && printf "Morning mail\tschedule\tskipped\n" >expect &&
	test_cmp expect actual &&
	task-log --gate-skips | cut -f4 >actual && echo "Morning mail" >expect && test_cmp expect actual &&
	test "$(calls)" = 0 &&
	test_expect_code 0 env TASK_NOW=2026-11-23T08:00:00Z task-run "Morning mail" >out 2>err &&
	test ! -s out &&
	grep -q "skipped: gate: nothing to do: inbox empty$" err &&
	task-tick >/dev/null 2>&1 && test "$(task-log --task "Mail digest" | wc -l)" = 0
'

test_expect_success 'a morning with mail: summarised, and the digest given the summary, once' '
	mkdir -p Mail/new &&
	printf "From: ana@example.org\nSubject: lunch on friday?\n\nhi\n" >Mail/new/1 &&
	printf "From: bob@example.org\nSubject: the invoice is late\n\nplease\n" >Mail/new/2 &&
	TASK_NOW=2026-11-24T07:00:10Z task-tick >out 2>err && test ! -s err &&
	summary="echo: Summarise this mail for the morning, the urgent first: From: ana@example.org" &&
	answer "Morning mail" >actual &&
	answer_of_two_mails "$summary" >expect &&
	test_cmp expect actual &&
	answer "Mail digest" >actual &&
	answer_of_two_mails "echo: The three things to answer first, one line each: $summary" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-24T07:05:00Z task-tick >/dev/null 2>&1 &&
	task-log | cut -f4,5,7 >actual &&
	printf "Mail digest\tafter\tsuccess\nMorning mail\tschedule\tsuccess\nMorning mail\tmanual\tskipped\nMorning mail\tschedule\tskipped\n" >expect &&
	test_cmp expect actual && test "$(calls)" = 2
'

test_expect_success 'the mail server'\''s event, delivered twice with one message id: one run' '
	cp Mail/new/2 new.eml && MESSAGE_ID="<42@example.org>" &&
	render man1/task-run.1 | displays | grep "^task-run --payload @new.eml --key" >event &&
	test "$(wc -l <event)" = 1 &&
	(export TASK_NOW=2026-11-24T09:00:00Z && . ./event) >out1 2>err1 &&
	(export TASK_NOW=2026-11-24T09:01:00Z && . ./event) >out2 2>err2 &&
	run=$(task-log --task "Morning mail" | head -n 1 | cut -f1) &&
	echo "$run" >expect && test_cmp expect out2 &&
	grep -q "became run $run" err2 &&
	task-log --task "Morning mail" | cut -f5,7 | head -n 1 >actual &&
	printf "event\tsuccess\n" >expect && test_cmp expect actual &&
	test "$(task-log --task "Morning mail" | cut -f5 | grep -c event)" = 1 &&
	grep -q "^Subject: the invoice is late$" out1 &&
	TASK_NOW=2026-11-24T09:02:00Z task-tick >/dev/null 2>&1 &&
	task-log --task "Mail digest" | cut -f5,7 >actual &&
	printf "after\tsuccess\nafter\tsuccess\n" >expect && test_cmp expect actual &&
	answer "Mail digest" | grep -q "^  echo: The three things to answer first, one line each: echo: Summarise"
'

test_done
