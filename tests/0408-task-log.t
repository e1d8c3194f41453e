#!/bin/sh
# task-log: the run history newest first, its filters, the three output
# modes, and one run in full with its whole output and its model calls.
. "$AC_TOP/tests/lib.sh"

export TASK_NOW=2026-11-23T09:10:00Z
printf '#!/bin/sh\necho "run at $TASK_TRIGGER"\n' >ok && chmod +x ok
printf '#!/bin/sh\necho "bad news" >&2\nexit 2\n' >bad && chmod +x bad

test_expect_success 'setup: runs of two tasks over three hours' '
	a=$(TASK_NOW=2026-11-23T06:40:00Z task-add --cron "0 * * * *" --name hourly --tz Europe/Paris --exec "$PWD/ok" a) &&
	b=$(TASK_NOW=2026-11-23T06:40:00Z task-add --cron "30 * * * *" --name halves --exec "$PWD/bad" --retries 0 b) &&
	for t in 07:00 07:30 08:00 08:30 09:00; do TASK_NOW=2026-11-23T$t:00Z task-tick >/dev/null 2>&1 || exit 1; done &&
	echo $a >a && echo $b >b
'

test_expect_success 'newest first, tab-separated in a pipe' '
	task-log | cut -f2,4-9 >actual &&
	cat >expect <<-\EOF &&
	2026-11-23T09:00:00Z	hourly	schedule	2026-11-23T09:00:00Z	success	0	0
	2026-11-23T08:30:00Z	halves	schedule	2026-11-23T08:30:00Z	failed	2	0
	2026-11-23T08:00:00Z	hourly	schedule	2026-11-23T08:00:00Z	success	0	0
	2026-11-23T07:30:00Z	halves	schedule	2026-11-23T07:30:00Z	failed	2	0
	2026-11-23T07:00:00Z	hourly	schedule	2026-11-23T07:00:00Z	success	0	0
	EOF
	sed "s/\t[0-9]*$/\t0/" actual >actual.0 && test_cmp expect actual.0 &&
	task-log | cut -f3 | sort -u | wc -l >n && echo 2 >expect && test_cmp expect n
'

test_expect_success '--task (any prefix), --status, --since, --limit' '
	task-log --task $(cut -c1-6 b) | cut -f6 >actual &&
	printf "2026-11-23T08:30:00Z\n2026-11-23T07:30:00Z\n" >expect && test_cmp expect actual &&
	task-log --status success --limit 2 | cut -f6 >actual &&
	printf "2026-11-23T09:00:00Z\n2026-11-23T08:00:00Z\n" >expect && test_cmp expect actual &&
	task-log --since 2026-11-23T08:00:00Z | wc -l >n && echo 3 >expect && test_cmp expect n &&
	task-log --since 45m | wc -l >n && echo 2 >expect && test_cmp expect n &&
	task-log --limit 0 | wc -l >n && echo 5 >expect && test_cmp expect n
'

test_expect_success 'the default limit is 20' '
	for i in $(seq 1 22); do TASK_NOW=2026-11-23T10:00:00Z task-run $(cat a) >/dev/null || exit 1; done &&
	test "$(task-log | wc -l)" -eq 20 &&
	test "$(task-log --limit 0 | wc -l)" -eq 27
'

test_expect_success '--json: one object per run with the task name and the error, not the output' '
	task-log --json --status failed --limit 1 >out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","task_id":"<id2>","slot":"2026-11-23T08:30:00Z","trigger":"schedule","status":"failed","started_at":"2026-11-23T08:30:00Z","ended_at":"2026-11-23T08:30:00Z","exit_code":2,"duration_ms":<ms>,"attempt":1,"error":"exited with status 2\nbad news\n","name":"halves"}
	EOF
	test_cmp expect actual &&
	grep -q "^{\"id\":\"[0-9a-f-]*\",\"task_id\":\"$(cat b)\",\"slot\":\"2026-11-23T08:30:00Z\",\"trigger\":\"schedule\",\"status\":\"failed\",\"started_at\":\"2026-11-23T08:30:00Z\",\"ended_at\":\"2026-11-23T08:30:00Z\",\"exit_code\":2,\"duration_ms\":[0-9]*,\"attempt\":1,\"error\":\"exited with status 2\\\\nbad news\\\\n\",\"name\":\"halves\"}$" out
'

# The Paris task's runs and the UTC task's in one column, one zone.
test_expect_success 'on a terminal STARTED is in the local zone for every row, or UTC' '
	NO_COLOR=1 TZ=Europe/London script -qec "task-log --limit 0" /dev/null |
		tr -d "\r" | grep -o "2026-11-23 0[0-9:]* [A-Z]*  [0-9a-f]*  [a-z]*" |
		sed "s/  [0-9a-f]*  / /" | head -n 3 >actual &&
	cat >expect <<-\EOF &&
	2026-11-23 09:00 GMT hourly
	2026-11-23 08:30 GMT halves
	2026-11-23 08:00 GMT hourly
	EOF
	test_cmp expect actual &&
	NO_COLOR=1 TZ=Asia/Tokyo script -qec "task-log --limit 0 --utc" /dev/null | tr -d "\r" |
		grep -o "2026-11-23 0[0-9:]* [A-Z]*" | head -n 2 >actual &&
	printf "%s\n" "2026-11-23 09:00 UTC" "2026-11-23 08:30 UTC" >expect &&
	test_cmp expect actual
'

test_expect_success 'one run in full, times in the task zone' '
	run=$(task-log --task $(cat a) --since 2026-11-23T08:00:00Z --status success --limit 0 | tail -n 1 | cut -f1) &&
	task-log $run >actual &&
	cat >expect <<-EOF &&
	run:       $run
	task:      $(cat a) "hourly"
	trigger:   schedule
	slot:      2026-11-23 09:00 CET
	status:    success (exit 0)
	started:   2026-11-23 09:00 CET
	ended:     2026-11-23 09:00 CET
	EOF
	head -n 7 actual >head && test_cmp expect head &&
	sed -n "/^output:/,\$p" actual >tail &&
	printf "output:\n  run at schedule\nerror:\n  (none)\n" >expect && test_cmp expect tail &&
	task-log --run $(echo $run | cut -c1-8) >again && test_cmp actual again
'

test_expect_success 'one run in full shows the model calls recorded for it' '
	run=$(task-log --limit 1 | cut -f1) &&
	store_sql "INSERT INTO llm_calls (run_id, task_id, provider, model, prompt, answer, input_tokens, output_tokens, finish_reason, duration_ms, created_at) VALUES ('\''$run'\'', '\''$(cat a)'\'', '\''openai'\'', '\''gpt-4o-mini'\'', '\''p'\'', '\''a'\'', 12, 34, '\''stop'\'', 1500, 1795424400)" &&
	task-log $run | sed -n "/^model calls:/,\$p" >actual &&
	printf "model calls:\n  2026-11-23 10:00 CET  openai/gpt-4o-mini  12 in, 34 out  1.5s  stop\n" >expect &&
	test_cmp expect actual &&
	task-log --json $run >out &&
	grep -q "^{\"id\":\"$run\"," out &&
	test_json_norm <out | sed "s/\"duration_ms\":<ms>,\"error\":null,\"tool_calls\":\[\]}\]/\"duration_ms\":1500,\"error\":null,\"tool_calls\":[]}]/" >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","task_id":"<id2>","slot":null,"trigger":"manual","status":"success","started_at":"2026-11-23T10:00:00Z","ended_at":"2026-11-23T10:00:00Z","exit_code":0,"duration_ms":<ms>,"attempt":1,"output":"run at manual\n","name":"hourly","calls":[{"at":"2026-11-23T09:00:00Z","provider":"openai","model":"gpt-4o-mini","answered_model":null,"fallback_from":null,"input_tokens":12,"output_tokens":34,"cost":null,"finish_reason":"stop","duration_ms":1500,"error":null,"tool_calls":[]}]}
	EOF
	test_cmp expect actual
'

test_expect_success 'runs of a deleted task stay listed; errors exit 2 and 3' '
	task-rm $(cat b) >/dev/null &&
	task-log --task $(cat b) | wc -l >n && echo 2 >expect && test_cmp expect n &&
	test_expect_code 2 task-log --status weird 2>err && test_one_line err &&
	test_expect_code 2 task-log --since "not a time" 2>err && test_one_line err &&
	test_expect_code 2 task-log --limit -1 2>err && test_one_line err &&
	test_expect_code 3 task-log 0000beef 2>err && test_one_line err &&
	test_expect_code 3 task-log --task 0000beef 2>err && test_one_line err &&
	test_expect_code 2 task-log --task $(cat a) $(task-log --limit 1 | cut -f1) 2>err && test_one_line err
'

test_expect_success 'a name with a tab or a newline stays in its field, one run per line' '
	id=$(task-add --manual --name "$(printf "two\tparts\nline")" --exec "$PWD/ok" x) &&
	task-run $id >/dev/null &&
	task-log --task $id >actual &&
	test "$(wc -l <actual)" -eq 1 &&
	cut -f4,5,7 actual >fields &&
	printf "two parts line\tmanual\tsuccess\n" >expect && test_cmp expect fields
'

test_done
