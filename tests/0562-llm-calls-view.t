#!/bin/sh
# task-log --calls: the model calls llm-call recorded, those made outside
# any task and in its own conversations (-c) included, newest first; a
# call that failed shows no token counts rather than -1.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY
# What the stand-in says to a wrong key, as OpenAI says it.
REFUSED="openai: 401 Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys. (check OPENAI_API_KEY)"

test_expect_success 'calls outside any task: none in the run history, all in --calls' '
	TASK_NOW=2026-11-23T09:00:00Z llm-call -m gpt-4o-mini "first question" >/dev/null &&
	TASK_NOW=2026-11-23T09:01:00Z llm-call -m gpt-4o-mini -c trip "Plan three days in Lisbon" >/dev/null &&
	TASK_NOW=2026-11-23T09:02:00Z llm-call -m gpt-4o-mini -c trip "and a fourth" >/dev/null &&
	TASK_NOW=2026-11-23T09:03:00Z OPENAI_API_KEY=sk-wrong test_expect_code 78 \
		llm-call -m gpt-4o-mini -c trip "refused" >/dev/null 2>&1 &&
	task-log 2>err >out && test ! -s out &&
	task-log --calls | cut -f2-6,8- >actual &&
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" \
		2026-11-23T09:03:00Z gpt-4o-mini trip "" "" error refused "$REFUSED" \
		2026-11-23T09:02:00Z gpt-4o-mini trip 14 4 ok "and a fourth" "echo: and a fourth" \
		2026-11-23T09:01:00Z gpt-4o-mini trip 5 6 ok "Plan three days in Lisbon" "echo: Plan three days in Lisbon" \
		2026-11-23T09:00:00Z gpt-4o-mini "" 2 3 ok "first question" "echo: first question" >expect &&
	test_cmp expect actual
'

test_expect_success '--context, --limit and --since narrow the list' '
	task-log --calls --context trip --limit 2 | cut -f9 >actual &&
	printf "%s\n" refused "and a fourth" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T09:05:00Z task-log --calls --since 3m | cut -f9 >actual &&
	printf "%s\n" refused "and a fourth" >expect &&
	test_cmp expect actual &&
	task-log --calls --context nowhere >out && test ! -s out
'

test_expect_success '--json: one object per call, null tokens for the failed one' '
	task-log --calls --json --limit 2 | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":4,"at":"2026-11-23T09:03:00Z","provider":"openai","model":"gpt-4o-mini","answered_model":null,"fallback_from":null,"context":"trip","run_id":null,"task_id":null,"system_prompt":null,"prompt":"refused","answer":null,"finish_reason":null,"error":"openai: 401 Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys. (check OPENAI_API_KEY)","input_tokens":null,"output_tokens":null,"cost":null,"duration_ms":<ms>}
	{"id":3,"at":"2026-11-23T09:02:00Z","provider":"openai","model":"gpt-4o-mini","answered_model":"gpt-4o-mini","fallback_from":null,"context":"trip","run_id":null,"task_id":null,"system_prompt":null,"prompt":"and a fourth","answer":"echo: and a fourth","finish_reason":"stop","error":null,"input_tokens":14,"output_tokens":4,"cost":null,"duration_ms":<ms>}
	EOF
	test_cmp expect actual
'

test_expect_success 'on a terminal: a table, and no -1 for tokens the provider never gave' '
	NO_COLOR=1 script -qec "task-log --calls --utc" /dev/null | tr -d "\r" |
		sed -e "s/  *[0-9.]*m\{0,1\}s  */  <ms>  /" -e "1s/TOKENS  *TIME  *CONTEXT/TOKENS  TIME  CONTEXT/" >actual &&
	cat >expect <<-\EOF &&
	AT                    MODEL        TOKENS  TIME  CONTEXT  PROMPT                     ANSWER
	2026-11-23 09:03 UTC  gpt-4o-mini  -  <ms>  trip     refused                    error: openai: 401 Incorrect API key ...
	2026-11-23 09:02 UTC  gpt-4o-mini  14 in, 4 out  <ms>  trip     and a fourth               echo: and a fourth
	2026-11-23 09:01 UTC  gpt-4o-mini  5 in, 6 out  <ms>  trip     Plan three days in Lisbon  echo: Plan three days in Lisbon
	2026-11-23 09:00 UTC  gpt-4o-mini  2 in, 3 out  <ms>  -        first question             echo: first question
	EOF
	test_cmp expect actual
'

test_expect_success '--context without --calls, --calls with a run id: usage errors' '
	test_expect_code 2 task-log --context trip 2>err && test_one_line err &&
	test_expect_code 2 task-log --calls 1234abcd 2>err && test_one_line err
'

test_done
