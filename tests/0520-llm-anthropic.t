#!/bin/sh
# llm-call speaks Anthropic messages: x-api-key and anthropic-version,
# a top-level system prompt, the required max_tokens, named stream events;
# and picks the provider by flag, model name or key.
. "$AC_TOP/tests/lib.sh"
KEY=sk-ant-fake-0123456789
port=$(provider_start fp "$KEY") || exit 1
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
export ANTHROPIC_BASE_URL ANTHROPIC_API_KEY

test_expect_success 'a claude model goes to Anthropic' '
	llm-call -m claude-3-5-haiku-latest -s "Be terse." "What is cron?" >out 2>err &&
	echo "echo: What is cron?" >expect &&
	test_cmp expect out &&
	test ! -s err &&
	cat >expect <<-\EOT &&
	POST /v1/messages
	header x-api-key: <key ok>
	header anthropic-version: 2023-06-01
	header content-type: application/json
	body.model = "claude-3-5-haiku-latest"
	body.max_tokens = 1024
	body.system = "Be terse."
	body.messages[0].role = "user"
	body.messages[0].content = "What is cron?"
	-> 200
	EOT
	test_cmp expect fp/last.req
'

test_expect_success 'with only an Anthropic key, Anthropic and its default model' '
	llm-call hello >out &&
	echo "echo: hello" >expect &&
	test_cmp expect out &&
	grep "^body.model" fp/last.req >actual &&
	echo "body.model = \"claude-3-5-haiku-latest\"" >expect &&
	test_cmp expect actual
'

test_expect_success '--provider anthropic with any model name; -o max_tokens wins' '
	llm-call --provider anthropic -m my-proxy-model -o max_tokens=64 -o temperature=0.5 hi >out &&
	grep "^body\.\(model\|max_tokens\|temperature\)" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.model = "my-proxy-model"
	body.max_tokens = 64
	body.temperature = 0.5
	EOT
	test_cmp expect actual
'

test_expect_success '--json from a plain reply' '
	llm-call -m claude-sonnet-4-0 --json "x y" >out &&
	sed "s/\"latency_ms\":[0-9]*,/\"latency_ms\":L,/; s/\"id\":[0-9]*/\"id\":I/" out >actual &&
	echo "{\"answer\":\"echo: x y\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-0\",\"usage\":{\"input_tokens\":2,\"output_tokens\":3},\"cost\":null,\"finish_reason\":\"end_turn\",\"latency_ms\":L,\"attempts\":1,\"id\":I}" >expect &&
	test_cmp expect actual
'

test_expect_success 'a streamed reply: text, usage and stop reason from the events' '
	llm-call -m claude-sonnet-4-0 --stream --json "one two three four" >out &&
	sed "s/\"latency_ms\":[0-9]*,/\"latency_ms\":L,/; s/\"id\":[0-9]*/\"id\":I/" out >actual &&
	echo "{\"answer\":\"echo: one two three four\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-0\",\"usage\":{\"input_tokens\":4,\"output_tokens\":5},\"cost\":null,\"finish_reason\":\"end_turn\",\"latency_ms\":L,\"attempts\":1,\"id\":I}" >expect &&
	test_cmp expect actual &&
	cat >expect <<-\EOT &&
	POST /v1/messages
	header x-api-key: <key ok>
	header anthropic-version: 2023-06-01
	header content-type: application/json
	body.model = "claude-sonnet-4-0"
	body.max_tokens = 1024
	body.messages[0].role = "user"
	body.messages[0].content = "one two three four"
	body.stream = true
	-> 200 (stream)
	EOT
	test_cmp expect fp/last.req
'

test_expect_success 'stream events split across reads are joined' '
	llm-call --stream "[[split]] über alles" >out &&
	echo "echo: [[split]] über alles" >expect &&
	test_cmp expect out
'

test_expect_success 'a config provider applies when the model does not say; a gpt model goes to OpenAI' '
	mkdir -p config/agentcron &&
	printf "provider = anthropic\n" >config/agentcron/config &&
	OPENAI_API_KEY=sk-other llm-call --json hi >out &&
	grep -q "\"provider\":\"anthropic\"" out &&
	OPENAI_API_KEY=sk-other OPENAI_BASE_URL=http://127.0.0.1:$port/v1 \
		test_expect_code 78 llm-call -m gpt-4o-mini --json hi >out 2>err &&
	test ! -s out &&
	echo "llm-call: openai: 401 Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys. (check OPENAI_API_KEY)" >expect &&
	test_cmp expect err &&
	rm config/agentcron/config
'

test_expect_success 'no request was malformed' '
	test ! -e fp/errors.log
'

test_done
