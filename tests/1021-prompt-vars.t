#!/bin/sh
# Prompt variables: every name expanded as the run starts, in the task's
# zone; {{{{ for {{; an unknown name or an unclosed {{ refused when the
# task is made, naming it; values go in as text and are never expanded
# again; task-show --expand and task-tick --dry-run show the prompt as sent.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T05:50:00Z
printf '#!/bin/sh\ncat\necho\necho "system: $TASK_SYSTEM_PROMPT"\n' >echoer && chmod +x echoer

test_expect_success 'every variable, at a run, in the task zone' '
	task-add --cron "0 7 * * *" --tz Europe/Paris --name "Morning {x}" --exec "$PWD/echoer" \
		--system "Today is {{date}}." \
		"now={{now}} slot={{ slot }} date={{date}} task={{task}} attempt={{attempt}} last=[{{last_answer}}] input=[{{input}}] gate=[{{gate}}] lit={{{{now}}" >/dev/null &&
	TASK_NOW=2026-11-23T06:00:20Z task-tick >/dev/null &&
	task-log "$(task-log | cut -f1)" | sed -n "/^output:/,/^error:/p" >actual &&
	cat >expect <<-\EOF &&
	output:
	  now=2026-11-23T07:00:20+01:00 slot=2026-11-23T07:00:00+01:00 date=2026-11-23 task=Morning {x} attempt=1 last=[] input=[] gate=[] lit={{now}}
	  system: Today is 2026-11-23.
	error:
	EOF
	test_cmp expect actual
'

test_expect_success '{{last_answer}}: the last success, its text never expanded again' '
	task-add --manual --name echo --exec cat "{{{{input}} and {{task}}" >/dev/null &&
	task-run echo >first &&
	printf "{{input}} and echo" >expect && test_cmp expect first &&
	task-edit echo --prompt "before: [{{last_answer}}]" >/dev/null &&
	task-run echo >actual &&
	printf "before: [{{input}} and echo]" >expect && test_cmp expect actual &&
	task-edit echo --exec false >/dev/null &&
	test_expect_code 1 task-run echo 2>/dev/null &&
	task-show --expand echo | sed -n "/^prompt:/,/^recent runs:/p" >actual &&
	printf "prompt:\n  before: [before: [{{input}} and echo]]\nrecent runs:\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'an unknown name or an unclosed {{ is refused, naming it; nothing is added' '
	task-ls >before &&
	test_expect_code 2 task-add --manual "Hello {{user}}" 2>err && test_one_line err &&
	grep -q "^task-add: prompt: unknown variable .{{user}}.; known: {{now}}" err &&
	test_expect_code 2 task-add --manual --system "{{ env.HOME }}" x 2>err && test_one_line err &&
	grep -q "^task-add: system prompt: unknown variable .{{env.HOME}}." err &&
	test_expect_code 2 task-add --manual "a {{now" 2>err && test_one_line err &&
	grep -q "prompt: .{{. is not closed by .}}." err &&
	test_expect_code 2 task-edit echo --prompt "{{nope}}" 2>err && test_one_line err &&
	echo "{\"prompt\":\"{{bad}}\",\"kind\":\"manual\"}" | test_expect_code 2 task-add --json - 2>err &&
	grep -q "unknown variable .{{bad}}." err &&
	printf "{\"name\":\"task_create\",\"arguments\":{\"name\":\"t\",\"prompt\":\"{{secret}}\",\"manual\":true}}\n" >call &&
	test_expect_code 2 task-mcp --call <call >out && grep -q "{{secret}}" out &&
	task-ls >after && test_cmp before after
'

test_expect_success 'task-show --expand and task-tick --dry-run: the prompt as the next run sends it' '
	task-show --expand "Morning {x}" | sed -n "/^system prompt:/,/^prompt:/p;/^prompt:/{n;p;}" |
		cut -c1-147 >actual &&
	cat >expect <<-\EOF &&
	system prompt:
	  Today is 2026-11-24.
	prompt:
	  now=2026-11-24T07:00:00+01:00 slot=2026-11-24T07:00:00+01:00 date=2026-11-24 task=Morning {x} attempt=1 last=[now=2026-11-23T07:00:20+01:00 slot=
	EOF
	test_cmp expect actual &&
	task-show "Morning {x}" | grep -q "^  now={{now}} slot={{ slot }}" &&
	TASK_NOW=2026-11-24T06:00:30Z task-tick --dry-run >actual &&
	grep -q "\"prompt\":\"now=2026-11-24T07:00:00+01:00 slot=2026-11-24T07:00:00+01:00 date=2026-11-24 task=Morning {x} attempt=1 last=\[now=2026-11-23T07:00:20+01:00 .*\\\\n\] input=\[\] gate=\[\] lit={{now}}\",\"system_prompt\":\"Today is 2026-11-24.\"}$" actual &&
	test "$(task-log | wc -l)" = 4
'

test_expect_success '{{input}}: the payload of an event and the answer of an upstream, in place of the appended input' '
	id=$(task-add --manual --name ev --exec cat "got [{{input}}] end") &&
	task-run --payload "{\"a\":1}" $id >actual &&
	printf "got [{\"a\":1}] end" >expect && test_cmp expect actual &&
	task-add --manual --name up --exec "echo hello" u >/dev/null &&
	task-add --after up --name down --exec cat "up said: {{input}}" >/dev/null &&
	task-add --after up --name plain --exec cat "plain" >/dev/null &&
	task-run up >/dev/null && task-tick >/dev/null &&
	task-log "$(task-log --task down | cut -f1 | head -n 1)" | sed -n "/^output:/,/^error:/p" >actual &&
	printf "output:\n  up said: hello\nerror:\n" >expect && test_cmp expect actual &&
	task-log "$(task-log --task plain | cut -f1 | head -n 1)" | sed -n "/^output:/,/^error:/p" >actual &&
	printf "output:\n  plain\n  \n  hello\nerror:\n" >expect && test_cmp expect actual
'

test_done
