#!/bin/sh
# llm-call speaks OpenAI chat completions to a local server that checks
# every request: the requests exactly, plain and streamed replies.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY

test_expect_success 'a prompt from the arguments' '
	llm-call Hello there >out 2>err &&
	echo "echo: Hello there" >expect &&
	test_cmp expect out &&
	test ! -s err &&
	cat >expect <<-\EOT &&
	POST /v1/chat/completions
	header authorization: <key ok>
	header content-type: application/json
	body.model = "gpt-4o-mini"
	body.messages[0].role = "user"
	body.messages[0].content = "Hello there"
	-> 200
	EOT
	test_cmp expect fp/last.req
'

test_expect_success 'a reply that carries "error": null is an answer, not an error' '
	llm-call "[[errornull]] Hi" >out 2>err &&
	echo "echo: [[errornull]] Hi" >expect &&
	test_cmp expect out && test ! -s err
'

test_expect_success 'system prompt, model and options' '
	llm-call -s "Be terse." -m gpt-4.1 -o temperature=0.2 -o max_tokens=50 \
		-o stop="[\"END\"]" -o user=alice -o seed=7 "What is cron?" >out &&
	echo "echo: What is cron?" >expect &&
	test_cmp expect out &&
	cat >expect <<-\EOT &&
	POST /v1/chat/completions
	header authorization: <key ok>
	header content-type: application/json
	body.model = "gpt-4.1"
	body.messages[0].role = "system"
	body.messages[0].content = "Be terse."
	body.messages[1].role = "user"
	body.messages[1].content = "What is cron?"
	body.temperature = 0.2
	body.max_tokens = 50
	body.stop[0] = "END"
	body.user = "alice"
	body.seed = 7
	-> 200
	EOT
	test_cmp expect fp/last.req
'

test_expect_success 'the prompt from standard input, kept byte for byte' '
	printf "line one\n\"quoted\" line two\n" | llm-call >out &&
	printf "echo: line one\n\"quoted\" line two\n" >expect &&
	test_cmp expect out &&
	grep "^body.messages\[0\].content" fp/last.req >actual &&
	echo "body.messages[0].content = \"line one\\\\n\\\\\"quoted\\\\\" line two\\\\n\"" >expect &&
	test_cmp expect actual
'

test_expect_success 'an option the provider does not know is its 400, not retried' '
	n=$(wc -l <fp/requests.log) &&
	test_expect_code 78 llm-call -o colour=blue hi >out 2>err &&
	echo "llm-call: openai: 400 body: unexpected field '\''colour'\''" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test $(wc -l <fp/requests.log) -eq $((n + 1))
'

test_expect_success '--json: answer, provider, model, usage, finish reason, latency' '
	llm-call --json "two words" >out &&
	sed "s/\"latency_ms\":[0-9]*,/\"latency_ms\":L,/; s/\"id\":[0-9]*/\"id\":I/" out >actual &&
	echo "{\"answer\":\"echo: two words\",\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"usage\":{\"input_tokens\":2,\"output_tokens\":3},\"cost\":null,\"finish_reason\":\"stop\",\"latency_ms\":L,\"attempts\":1,\"id\":I}" >expect &&
	test_cmp expect actual
'

test_expect_success '--stream asks for events and prints the joined text' '
	llm-call --stream "stream me please" >out &&
	echo "echo: stream me please" >expect &&
	test_cmp expect out &&
	cat >expect <<-\EOT &&
	POST /v1/chat/completions
	header authorization: <key ok>
	header content-type: application/json
	body.model = "gpt-4o-mini"
	body.messages[0].role = "user"
	body.messages[0].content = "stream me please"
	body.stream = true
	body.stream_options.include_usage = true
	-> 200 (stream)
	EOT
	test_cmp expect fp/last.req
'

test_expect_success 'a streamed reply gives usage and finish reason too' '
	llm-call --stream --json "a b c" >out &&
	sed "s/\"latency_ms\":[0-9]*,/\"latency_ms\":L,/; s/\"id\":[0-9]*/\"id\":I/" out >actual &&
	echo "{\"answer\":\"echo: a b c\",\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"usage\":{\"input_tokens\":3,\"output_tokens\":4},\"cost\":null,\"finish_reason\":\"stop\",\"latency_ms\":L,\"attempts\":1,\"id\":I}" >expect &&
	test_cmp expect actual
'

test_expect_success 'events split across reads are joined' '
	llm-call --stream "[[split]] pieces of ütf-8 text" >out &&
	echo "echo: [[split]] pieces of ütf-8 text" >expect &&
	test_cmp expect out
'

test_expect_success 'a JSON reply to a stream request is still the answer' '
	llm-call --stream "[[jsonstream]] plain" >out &&
	echo "echo: [[jsonstream]] plain" >expect &&
	test_cmp expect out
'

test_expect_success 'TASK_SYSTEM_PROMPT and TASK_MODEL are the defaults; flags win' '
	echo "task prompt" | TASK_SYSTEM_PROMPT="From the task." TASK_MODEL=gpt-4o llm-call >out &&
	grep "^body\.\(model\|messages\[0\]\)" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.model = "gpt-4o"
	body.messages[0].role = "system"
	body.messages[0].content = "From the task."
	EOT
	test_cmp expect actual &&
	echo "task prompt" | TASK_SYSTEM_PROMPT="From the task." TASK_MODEL=gpt-4o llm-call -m o3-mini -s Mine. >out &&
	grep "^body\.\(model\|messages\[0\]\)" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.model = "o3-mini"
	body.messages[0].role = "system"
	body.messages[0].content = "Mine."
	EOT
	test_cmp expect actual
'

test_expect_success 'a local server without a key gets no Authorization header' '
	port2=$(provider_start fp2 "" 10) &&
	{ OPENAI_API_KEY= llm-call --base-url "http://127.0.0.1:$port2/v1/" "no key" >out 2>err; status=$?; } &&
	kill "$(cat fp2/pid)" &&
	test $status = 0 &&
	echo "echo: no key" >expect &&
	test_cmp expect out &&
	test ! -s err &&
	cat >expect <<-\EOT &&
	POST /v1/chat/completions
	header content-type: application/json
	body.model = "gpt-4o-mini"
	body.messages[0].role = "user"
	body.messages[0].content = "no key"
	-> 200
	EOT
	test_cmp expect fp2/last.req
'

test_expect_success 'the server refused only the request meant to be refused' '
	sed "s/^[0-9]*: //" fp/errors.log >actual &&
	echo "body: unexpected field '\''colour'\''" >expect &&
	test_cmp expect actual
'

test_done
