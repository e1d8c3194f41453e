#!/bin/sh
# https:// and proxied requests go through libcurl, plain http:// through
# llm-call's own client; AGENTCRON_HTTP=curl sends everything through
# libcurl, so the same behaviours are checked on that path too.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(FAKE_PROVIDER_KEY=$KEY "$AC_BUILD/tools/fake-provider" -d "$TEST_TMP/fp" -i 20 -t 120) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
AGENTCRON_HTTP=curl
export OPENAI_BASE_URL OPENAI_API_KEY ANTHROPIC_BASE_URL ANTHROPIC_API_KEY AGENTCRON_HTTP

ms() { echo $(($(date +%s%N) / 1000000)); }

test_expect_success 'plain and streamed replies, both providers' '
	llm-call -s Sys. "via libcurl" >out &&
	echo "echo: via libcurl" >expect &&
	test_cmp expect out &&
	cat >expect <<-\EOT &&
	POST /v1/chat/completions
	header authorization: <key ok>
	header content-type: application/json
	body.model = "gpt-4o-mini"
	body.messages[0].role = "system"
	body.messages[0].content = "Sys."
	body.messages[1].role = "user"
	body.messages[1].content = "via libcurl"
	-> 200
	EOT
	test_cmp expect fp/last.req &&
	llm-call -m claude-3-5-haiku-latest --stream "[[split]] streamed" >out &&
	echo "echo: [[split]] streamed" >expect &&
	test_cmp expect out
'

test_expect_success 'Retry-After honoured' '
	t0=$(ms) &&
	llm-call --json "[[429x1 ra=1]] busy" >out &&
	test $(($(ms) - t0)) -ge 1000 &&
	grep -q "\"attempts\":2" out
'

test_expect_success 'broken replies and timeouts' '
	test_expect_code 1 llm-call --retries 0 "[[truncated]]" 2>err &&
	grep -q "^llm-call: openai: the reply was cut off (HTTP 200, " err &&
	test_expect_code 1 llm-call --retries 0 "[[empty]]" 2>err &&
	echo "llm-call: openai: empty reply (HTTP 200, no body)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 llm-call --timeout 0.5 "[[slow=3000]]" 2>err &&
	echo "llm-call: openai: no complete reply within 0.5 s (--timeout)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 llm-call --stream --retries 0 "[[cut]] a b c d e f" 2>err &&
	grep -q "^llm-call: openai: the reply was cut off" err &&
	test_expect_code 1 llm-call --retries 0 "[[html502]]" 2>err &&
	echo "llm-call: openai: 502 Bad Gateway (an HTML page, not the API'\''s JSON)" >expect &&
	test_cmp expect err
'

test_expect_success 'connection refused' '
	test_expect_code 1 llm-call --retries 0 --base-url http://127.0.0.1:1/v1 hi 2>err &&
	test_one_line err &&
	grep -q "^llm-call: openai: cannot connect to http://127.0.0.1:1/v1/chat/completions: " err
'

test_expect_success 'https is libcurl'\''s: TLS to a plain server fails as a connection error' '
	test_expect_code 1 env -u AGENTCRON_HTTP llm-call --retries 0 --base-url "https://127.0.0.1:$port/v1" hi 2>err &&
	test_one_line err &&
	grep -q "^llm-call: openai: cannot connect to https://127.0.0.1:$port/v1/chat/completions: " err
'

kill "$(cat fp/pid)"
test_done
