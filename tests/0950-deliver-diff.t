#!/bin/sh
# A task that delivers on change sends what changed beside the answer:
# the webhook's run has it as `diff` (as task-log --diff says it), the
# chat, push and mail kinds have it after the answer, in numbered parts
# where the receiver limits a message, nothing cut; an exec: target gets
# the whole of it.  Without change in --deliver-on, the answer alone.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\ncat "$(dirname "$0")/answer"\n' >job && chmod +x job || exit 1
ALL="--deliver @hook --deliver @chat --deliver @push --deliver @tg --deliver @mail --deliver @run"

# The newest run's id.
last_run() { store_sql "SELECT id FROM runs ORDER BY started_at DESC LIMIT 1"; }
# What the webhook's run says of FIELD (null as None).
hook_field() {
	$PY -c "import json,sys; r=[json.loads(l) for l in open(\"rcv/requests\") if \"/hook\" in l][-1]; v=json.loads(r[\"body\"])[\"data\"][sys.argv[1]]; sys.stdout.write(v if isinstance(v, str) else repr(v))" "$1"
}
exec_field() {
	$PY -c "import json,sys; v=json.load(open(\"got.in\")).get(sys.argv[1]); sys.stdout.write(v if isinstance(v, str) else json.dumps(v))" "$1"
}
# one_then_two: a fresh task delivered everywhere answers "one" on the
# 23rd, then "two" on the 24th: what is delivered is the second's alone.
one_then_two() {
	printf "one\n" >answer &&
	fresh $ALL &&
	tick 2026-11-23T07:00:00Z &&
	rm -f rcv/requests rcv/mails got.in &&
	printf "two\n" >answer &&
	tick 2026-11-24T07:00:00Z
}
# Each text kind's message, and the exec's diff, compared with the answer
# (its last line ended), a blank line, a heading and the diff task-log
# --diff gives for the newest run.
check_all() {
	task-log --diff "$(last_run)" >diff &&
	$PY -c "import sys; a=open(\"answer\").read(); sys.stdout.write(a + (\"\" if a.endswith(\"\\n\") else \"\\n\") + \"\\nChanged since the answer before:\\n\" + open(\"diff\").read())" >expect &&
	for k in slack ntfy telegram mail; do
		check text $k >got.$k && test_cmp expect got.$k || return 1
	done &&
	hook_field answer >got.answer && test_cmp answer got.answer &&
	hook_field diff >got.diff && test_cmp diff got.diff &&
	exec_field diff >got.execdiff && test_cmp diff got.execdiff &&
	test "$(exec_field diff_truncated)" = false
}

test_expect_success 'the first answer has nothing before it: no diff' '
	printf "Rain & <wind> today.\nCoat: yes.\nUmbrella: yes.\n" >answer &&
	fresh $ALL --deliver-on change &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT count(*) FROM receipts WHERE status = '"'"'delivered'"'"'" >actual &&
	echo 6 >expect && test_cmp expect actual &&
	test "$(hook_field diff)" = None &&
	check text slack >got.slack && test_cmp answer got.slack &&
	check text mail >got.mail && test_cmp answer got.mail
'

test_expect_success 'a changed answer: every kind carries the diff' '
	rm -f rcv/requests rcv/mails got.in &&
	printf "Sun & <no wind> today.\nCoat: yes.\nUmbrella: no.\n" >answer &&
	tick 2026-11-24T07:00:00Z &&
	store_sql "SELECT count(*) FROM receipts WHERE status = '"'"'delivered'"'"'" >actual &&
	echo 12 >expect && test_cmp expect actual &&
	check_all &&
	grep "^-Umbrella: yes.$" diff && grep "^+Umbrella: no.$" diff &&
	grep -c "Sun &amp; &lt;no wind&gt;" rcv/requests >actual &&
	echo 1 >expect && test_cmp expect actual
'

test_expect_success 'the same answer again is no change: nothing sent' '
	rm -f rcv/requests rcv/mails got.in &&
	tick 2026-11-25T07:00:00Z &&
	store_sql "SELECT count(*) FROM receipts" >actual &&
	echo 12 >expect && test_cmp expect actual &&
	test ! -e rcv/requests && test ! -e rcv/mails
'

test_expect_success 'long answers: the diff arrives whole, in numbered parts where limited' '
	$PY "$AC_TOP/tests/tools/deliver-check" long 6000 >answer &&
	fresh $ALL --deliver-on change &&
	tick 2026-11-23T07:00:00Z &&
	rm -f rcv/requests rcv/mails got.in &&
	tr "0123" "3210" <answer >answer.new && mv answer.new answer &&
	tick 2026-11-24T07:00:00Z &&
	store_sql "SELECT kind, status FROM receipts WHERE run_id = '"'"'$(last_run)'"'"' ORDER BY kind" >actual &&
	printf "%s|delivered\n" exec mailto ntfy slack telegram webhook >expect &&
	test_cmp expect actual &&
	test "$(wc -c <diff)" -gt 0 &&
	check_all &&
	test "$(wc -c <diff)" -gt 10000 &&
	test "$(grep -c "/bot" rcv/requests)" -ge 5
'

test_expect_success 'without change in --deliver-on: the answer alone, diff null' '
	one_then_two &&
	test "$(hook_field diff)" = None &&
	for k in slack ntfy telegram mail; do
		check text $k >got.$k && test_cmp answer got.$k || return 1
	done
'

test_expect_success 'deliver_on = change in the config does as --deliver-on change' '
	echo "deliver_on = change" >>config/agentcron/config &&
	one_then_two &&
	check_all
'

test_done
