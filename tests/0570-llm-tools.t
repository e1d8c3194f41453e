#!/bin/sh
# --tools: the model calls the scheduler's own tools, in both providers'
# formats, in rounds up to --max-rounds, so an agent schedules follow-ups.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
TASK_NOW=2026-11-22T08:00:00Z
export OPENAI_BASE_URL OPENAI_API_KEY ANTHROPIC_BASE_URL ANTHROPIC_API_KEY TASK_NOW

test_expect_success 'OpenAI: the model creates a task, then answers with the result' '
	llm-call --tools "[[call task_create {\"prompt\":\"Water the plants\",\"daily\":\"07:00\",\"name\":\"Plants\"}]] Schedule watering" >out 2>err &&
	test ! -s err &&
	id=$(task-ls --json | sed -n "s/.*\"id\":\"\([0-9a-f-]*\)\".*/\1/p") &&
	test -n "$id" &&
	cat >expect <<-EOT &&
	tool results: Created task '\''Plants'\''.
	ID: $id
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-11-23 07:00 UTC
	EOT
	test_cmp expect out &&
	grep -v "^body.tools" fp/last.req | sed "s/$id/ID/" >actual &&
	cat >expect <<-\EOT &&
	POST /v1/chat/completions
	header authorization: <key ok>
	header content-type: application/json
	body.model = "gpt-4o-mini"
	body.messages[0].role = "user"
	body.messages[0].content = "[[call task_create {\"prompt\":\"Water the plants\",\"daily\":\"07:00\",\"name\":\"Plants\"}]] Schedule watering"
	body.messages[1].role = "assistant"
	body.messages[1].content = null
	body.messages[1].tool_calls[0].id = "call_1_0"
	body.messages[1].tool_calls[0].type = "function"
	body.messages[1].tool_calls[0].function.name = "task_create"
	body.messages[1].tool_calls[0].function.arguments = "{\"prompt\":\"Water the plants\",\"daily\":\"07:00\",\"name\":\"Plants\"}"
	body.messages[2].role = "tool"
	body.messages[2].tool_call_id = "call_1_0"
	body.messages[2].content = "Created task '\''Plants'\''.\nID: ID\nSchedule: Daily at 07:00 (UTC)\nStatus: pending, enabled\nNext run: 2026-11-23 07:00 UTC\n"
	-> 200
	EOT
	test_cmp expect actual
'

test_expect_success 'the native tools are offered in OpenAI function form' '
	grep "^body.tools\[[0-9]*\].\(type\|function.name\) " fp/1.req >actual &&
	cat >expect <<-\EOT &&
	body.tools[0].type = "function"
	body.tools[0].function.name = "task_create"
	body.tools[1].type = "function"
	body.tools[1].function.name = "task_list"
	body.tools[2].type = "function"
	body.tools[2].function.name = "task_show"
	body.tools[3].type = "function"
	body.tools[3].function.name = "task_run"
	body.tools[4].type = "function"
	body.tools[4].function.name = "task_update"
	body.tools[5].type = "function"
	body.tools[5].function.name = "task_cancel"
	body.tools[6].type = "function"
	body.tools[6].function.name = "task_delete"
	EOT
	test_cmp expect actual &&
	grep -q "^body.tools\[0\].function.parameters.properties.prompt.type = \"string\"$" fp/1.req
'

test_expect_success 'Anthropic, streamed: two rounds of tool_use and tool_result' '
	llm-call -m claude-3-5-haiku-latest --stream --json --tools \
		"[[call task_list {}]][[call task_show {\"id\":\"nonexistent\"}]] check" >out &&
	sed "s/\"latency_ms\":[0-9]*,/\"latency_ms\":L,/; s/\"id\":[0-9]*}/\"id\":I}/" out >actual.json &&
	grep -q "\"tool_calls\":2," actual.json &&
	grep -q "\"finish_reason\":\"end_turn\"" actual.json &&
	grep "^body.messages\[[1-4]\].\(role\|content\[0\].\(type\|name\|tool_use_id\|is_error\)\) " fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[1].role = "assistant"
	body.messages[1].content[0].type = "tool_use"
	body.messages[1].content[0].name = "task_list"
	body.messages[2].role = "user"
	body.messages[2].content[0].type = "tool_result"
	body.messages[2].content[0].tool_use_id = "toolu_3_0"
	body.messages[3].role = "assistant"
	body.messages[3].content[0].type = "tool_use"
	body.messages[3].content[0].name = "task_show"
	body.messages[4].role = "user"
	body.messages[4].content[0].type = "tool_result"
	body.messages[4].content[0].tool_use_id = "toolu_4_0"
	body.messages[4].content[0].is_error = true
	EOT
	test_cmp expect actual &&
	grep "^body.tools\[0\].name\|^body.tools\[0\].input_schema.type" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.tools[0].name = "task_create"
	body.tools[0].input_schema.type = "object"
	EOT
	test_cmp expect actual
'

test_expect_success 'parallel calls in one round, both providers' '
	llm-call --tools "[[parallel]][[call task_list {}]][[call task_list {\"status\":[\"failed\"]}]] both" >out &&
	grep -c "^body.messages\[[0-9]*\].role = \"tool\"" fp/last.req >actual &&
	echo 2 >expect &&
	test_cmp expect actual &&
	llm-call -m claude-3-5-haiku-latest --tools "[[parallel]][[call task_list {}]][[call task_list {}]] both" >out &&
	grep "^body.messages\[2\].content\[[0-9]\].type" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[2].content[0].type = "tool_result"
	body.messages[2].content[1].type = "tool_result"
	EOT
	test_cmp expect actual
'

test_expect_success 'compatibility tool names are mapped to valid function names and back' '
	llm-call --tools=agent-zero "[[call scheduler_list_tasks {}]] list" >out &&
	grep -q "^body.tools\[0\].function.name = \"scheduler_list_tasks\"$" fp/last.req &&
	grep -q "\"name\": \"Plants\"" out
'

test_expect_success 'an unknown tool is an error result for the model, not a crash' '
	llm-call -m claude-3-5-haiku-latest --tools "[[call rm_rf {}]] try" >out &&
	echo "tool results: Unknown tool '\''rm_rf'\''." >expect &&
	test_cmp expect out
'

test_expect_success 'the rounds are bounded by --max-rounds' '
	n=$(wc -l <fp/requests.log) &&
	test_expect_code 1 llm-call --tools --max-rounds 2 "[[loop]] forever" >out 2>err &&
	echo "llm-call: the model still calls tools after 2 rounds (--max-rounds)" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test $(wc -l <fp/requests.log) -eq $((n + 3))
'

test_expect_success 'an unknown profile is a usage error' '
	test_expect_code 2 llm-call --tools=nonesuch hi 2>err &&
	test_one_line err
'

test_expect_success 'no request was malformed' '
	test ! -e fp/errors.log
'

test_done
