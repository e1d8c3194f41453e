#!/bin/sh
# task-log --usage: the model calls on record summed per task, model or
# day (in the local zone, or UTC), with a total: calls, tokens in and out,
# and dollars at the prices they were recorded with.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY
mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
printf "price.gpt-4o-mini = 1000000 2000000\n" >"$XDG_CONFIG_HOME/agentcron/config" || exit 1

test_expect_success 'setup: two tasks on two days, and a call of no task' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --name alpha hello >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --model gpt-4o --name beta "hi there" >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-24T07:00:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-24T23:30:00Z llm-call one two three >/dev/null &&
	test "$(task-log --calls | wc -l)" -eq 5
'

test_expect_success 'per task (the default), most dollars first, then the total' '
	task-log --usage --json | test_json_norm >actual &&
	cat >expect <<-\EOT &&
	{"task_id":null,"name":null,"calls":1,"input_tokens":3,"output_tokens":4,"cost":11,"unpriced_calls":0}
	{"task_id":"<id1>","name":"alpha","calls":2,"input_tokens":2,"output_tokens":4,"cost":10,"unpriced_calls":0}
	{"task_id":"<id2>","name":"beta","calls":2,"input_tokens":4,"output_tokens":6,"cost":0,"unpriced_calls":2}
	{"total":true,"calls":5,"input_tokens":9,"output_tokens":14,"cost":21,"unpriced_calls":2}
	EOT
	test_cmp expect actual &&
	task-log --usage | cut -f2- >actual &&
	printf "\t1\t3\t4\t11.000000\nalpha\t2\t2\t4\t10.000000\nbeta\t2\t4\t6\t0.000000\n\t5\t9\t14\t21.000000\n" >expect &&
	test_cmp expect actual &&
	task-log --usage | cut -f1 | sed -n "1p;4p" >actual &&
	printf -- "-\ntotal\n" >expect && test_cmp expect actual
'

test_expect_success 'per model and per day, in the local zone or UTC' '
	task-log --usage --by model >actual &&
	cat >expect <<-\EOT &&
	gpt-4o-mini	3	5	8	21.000000
	gpt-4o	2	4	6	0.000000
	total	5	9	14	21.000000
	EOT
	test_cmp expect actual &&
	TZ=Asia/Tokyo task-log --usage --by day >actual &&
	cat >expect <<-\EOT &&
	2026-11-23	2	3	5	5.000000
	2026-11-24	2	3	5	5.000000
	2026-11-25	1	3	4	11.000000
	total	5	9	14	21.000000
	EOT
	test_cmp expect actual &&
	TZ=Asia/Tokyo task-log --usage --by day --utc | cut -f1,2 >actual &&
	printf "2026-11-23\t2\n2026-11-24\t3\ntotal\t5\n" >expect && test_cmp expect actual
'

test_expect_success '--since and --task narrow what is summed' '
	TASK_NOW=2026-11-25T00:00:00Z task-log --usage --by model --since 1d >actual &&
	cat >expect <<-\EOT &&
	gpt-4o-mini	2	4	6	16.000000
	gpt-4o	1	2	3	0.000000
	total	3	6	9	16.000000
	EOT
	test_cmp expect actual &&
	task-log --usage --task alpha --by day | tail -n 1 >actual &&
	printf "total\t2\t2\t4\t10.000000\n" >expect && test_cmp expect actual
'

test_expect_success 'an empty store sums to nothing; bad usage is said' '
	TASK_DB=$PWD/none.db task-log --usage >actual &&
	printf "total\t\t0\t0\t0\t0.000000\n" >expect && test_cmp expect actual &&
	test ! -e none.db &&
	test_expect_code 2 task-log --usage --by week 2>err &&
	echo "task-log: bad --by '\''week'\'': expected task, model or day" >expect && test_cmp expect err &&
	test_expect_code 2 task-log --by model 2>err && test_one_line err &&
	test_expect_code 2 task-log --usage --calls 2>err && test_one_line err
'

test_done
