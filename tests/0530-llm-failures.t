#!/bin/sh
# llm-call survives its providers: retries with backoff on 408, 429, 5xx
# and network errors, honouring Retry-After; none on other 4xx; the
# provider's own message in one line; broken replies are clear errors.
# The waits between attempts are not waited but written to the file
# LLM_CALL_TEST_WAITS names, and compared.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
LLM_CALL_TEST_WAITS=$TEST_TMP/waits
export OPENAI_BASE_URL OPENAI_API_KEY ANTHROPIC_BASE_URL ANTHROPIC_API_KEY LLM_CALL_TEST_WAITS

requests() { if [ -e fp/requests.log ]; then wc -l <fp/requests.log; else echo 0; fi; }

# waits_are MS...: the waits since the last look were MS, in that order.
waits_are() {
	printf "%s\n" "$@" >waits.expect &&
	touch waits && test_cmp waits.expect waits && rm waits
}

# a_first_backoff: the one wait since the last look was the first backoff,
# somewhere in [250, 500] ms (500 ms, jittered down by up to half).
a_first_backoff() {
	w=$(cat waits) && rm waits &&
	test "$w" -ge 250 && test "$w" -le 500
}

test_expect_success '429 with Retry-After: 1 waits a second, then succeeds' '
	n=$(requests) &&
	llm-call --json "[[429x1 ra=1]] busy" >out 2>err &&
	test ! -s err &&
	waits_are 1000 &&
	test $(requests) -eq $((n + 2)) &&
	grep -q "\"answer\":\"echo: \[\[429x1 ra=1\]\] busy\".*\"attempts\":2" out
'

test_expect_success 'retry-after-ms is honoured' '
	llm-call "[[429x1 ram=300]] busy" >out 2>err &&
	waits_are 300 &&
	echo "echo: [[429x1 ram=300]] busy" >expect &&
	test_cmp expect out
'

test_expect_success 'a 2 KB retry-after-ms header is read whole' '
	llm-call "[[429x1 ram=300 pad=2048]] busy" >out 2>err &&
	waits_are 300 &&
	echo "echo: [[429x1 ram=300 pad=2048]] busy" >expect &&
	test_cmp expect out
'

test_expect_success 'Retry-After as an HTTP date is honoured, and as an obsolete RFC 850 one' '
	for form in rad rad850; do
		llm-call "[[503x1 $form=2]] busy" >out 2>err &&
		w=$(cat waits) && rm waits &&
		test "$w" -ge 1000 && test "$w" -le 2000 &&
		echo "echo: [[503x1 $form=2]] busy" >expect &&
		test_cmp expect out || return 1
	done
'

test_expect_success '500 then success: backoff, one retry' '
	n=$(requests) &&
	llm-call "[[500x1]] flaky" >out 2>err &&
	echo "echo: [[500x1]] flaky" >expect &&
	test_cmp expect out &&
	test ! -s err &&
	test $(requests) -eq $((n + 2)) &&
	a_first_backoff
'

test_expect_success 'backoff doubles, each wait somewhere in its upper half' '
	test_expect_code 1 llm-call --retries 4 "[[500]] down" >out 2>err &&
	awk "{ d = 500 * 2 ^ (NR - 1); if (\$1 < d / 2 || \$1 > d) bad = 1 } END { exit bad || NR != 4 }" waits &&
	rm waits
'

test_expect_success 'Anthropic 529 overloaded then success' '
	llm-call -m claude-3-5-haiku-latest "[[529x1]] overloaded" >out 2>err &&
	echo "echo: [[529x1]] overloaded" >expect &&
	test_cmp expect out &&
	a_first_backoff
'

test_expect_success 'every retryable status is retried' '
	for code in 408 429 500 502 503 504 529; do
		n=$(requests) &&
		llm-call "[[${code}x1 ram=10]] code $code" >out 2>err &&
		test $(requests) -eq $((n + 2)) || return 1
	done &&
	waits_are 10 10 10 10 10 10 10
'

test_expect_success 'retries give up after --retries, saying so' '
	n=$(requests) &&
	test_expect_code 1 llm-call --retries 2 "[[503 ram=10]] down" >out 2>err &&
	echo "llm-call: openai: 503 The server had an error while processing your request. Sorry about that! (after 3 attempts)" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test $(requests) -eq $((n + 3)) &&
	waits_are 10 10
'

test_expect_success 'a Retry-After past the limit fails at once' '
	n=$(requests) &&
	test_expect_code 1 llm-call "[[429 ra=3600]] later" >out 2>err &&
	test ! -e waits &&
	echo "llm-call: openai: 429 Rate limit reached for requests (the provider asks to wait 3600 s)" >expect &&
	test_cmp expect err &&
	test $(requests) -eq $((n + 1))
'

test_expect_success 'a Retry-After too large for a number still fails at once' '
	n=$(requests) &&
	test_expect_code 1 llm-call "[[429 ra=99999999999999999999]] much later" >out 2>err &&
	test ! -e waits &&
	echo "llm-call: openai: 429 Rate limit reached for requests (the provider asks to wait 1000000000000 s)" >expect &&
	test_cmp expect err &&
	test $(requests) -eq $((n + 1))
'

test_expect_success 'other 4xx are not retried' '
	for code in 400 403 404 422; do
		n=$(requests) &&
		test_expect_code 78 llm-call "[[$code]] no" >out 2>err &&
		test_one_line err &&
		test ! -s out &&
		test $(requests) -eq $((n + 1)) || return 1
	done
'

test_expect_success '404: the provider message and what to check' '
	test_expect_code 78 llm-call -m gpt-9 "[[404]] missing" 2>err &&
	echo "llm-call: the model '\''gpt-9'\'' does not exist or was retired; give --fallback-model, or fallback.gpt-9 in the config (openai: 404 The model \`gpt-9\` does not exist or you do not have access to it. (check the model name and the base URL))" >expect &&
	test_cmp expect err
'

test_expect_success 'a wrong key: 401 in one line, the key nowhere' '
	OPENAI_API_KEY=sk-proj-WRONGwrongWRONG1234 test_expect_code 78 llm-call hi >out 2>err &&
	echo "llm-call: openai: 401 Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys. (check OPENAI_API_KEY)" >expect &&
	test_cmp expect err &&
	ANTHROPIC_API_KEY=sk-ant-WRONG1234 test_expect_code 78 llm-call -m claude-3-opus-latest hi >out 2>err &&
	echo "llm-call: anthropic: 401 invalid x-api-key (check ANTHROPIC_API_KEY)" >expect &&
	test_cmp expect err &&
	! grep -r -e WRONGwrongWRONG1234 -e sk-ant-WRONG1234 fp tasks.db
'

test_expect_success 'a proxy HTML error page is named, not dumped' '
	test_expect_code 1 llm-call --retries 0 "[[html502]]" >out 2>err &&
	echo "llm-call: openai: 502 Bad Gateway (an HTML page, not the API'\''s JSON)" >expect &&
	test_cmp expect err
'

test_expect_success 'a truncated body is an error' '
	test_expect_code 1 llm-call --retries 0 "[[truncated]]" >out 2>err &&
	test_one_line err &&
	grep -q "^llm-call: openai: the reply was cut off (HTTP 200, " err &&
	test ! -s out
'

test_expect_success 'an empty body is an error' '
	test_expect_code 1 llm-call --retries 0 "[[empty]]" >out 2>err &&
	echo "llm-call: openai: empty reply (HTTP 200, no body)" >expect &&
	test_cmp expect err
'

test_expect_success 'a body that is not JSON is an error' '
	test_expect_code 1 llm-call -m claude-3-5-haiku-latest "[[nonjson]]" >out 2>err &&
	echo "llm-call: anthropic: the reply is not JSON (HTTP 200): '\''<html><body>Welcome to the proxy</body></html>'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'a slow reply hits --timeout and is not retried' '
	n=$(requests) && t0=$(ms) &&
	test_expect_code 1 llm-call --timeout 0.5 "[[slow=3000]]" >out 2>err &&
	test $(($(ms) - t0)) -ge 500 &&
	echo "llm-call: openai: no complete reply within 0.5 s (--timeout)" >expect &&
	test_cmp expect err &&
	test ! -e waits &&
	test $(requests) -eq $((n + 1))
'

test_expect_success 'a slow reply within the timeout is fine' '
	llm-call --timeout 5 "[[slow=200]] patience" >out &&
	echo "echo: [[slow=200]] patience" >expect &&
	test_cmp expect out
'

test_expect_success 'connection refused: retried, then one line' '
	test_expect_code 1 llm-call --retries 1 --base-url http://127.0.0.1:1/v1 hi >out 2>err &&
	test_one_line err &&
	a_first_backoff &&
	grep -q "^llm-call: openai: cannot connect to http://127.0.0.1:1/v1/chat/completions: .*(after 2 attempts)$" err
'

test_expect_success 'a stream cut short is an error' '
	test_expect_code 1 llm-call --stream --retries 0 "[[cut]] a b c d e f" >out 2>err &&
	test_one_line err &&
	grep -q "^llm-call: openai: the reply was cut off" err &&
	test_expect_code 1 llm-call -m claude-3-5-haiku-latest --stream --retries 0 "[[cut]] a b c d e f" >out 2>err &&
	grep -q "^llm-call: anthropic: the reply was cut off" err
'

test_expect_success 'an error event in a stream is the provider message' '
	test_expect_code 1 llm-call --stream --json "[[error-event]]" >out 2>err &&
	echo "llm-call: openai: The server had an error while processing your request." >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test_expect_code 1 llm-call -m claude-3-5-haiku-latest --stream --json "[[error-event]]" >out 2>err &&
	echo "llm-call: anthropic: overloaded_error: Overloaded" >expect &&
	test_cmp expect err
'

test_expect_success 'failed calls are recorded with their error' '
	store_sql "SELECT error FROM llm_calls WHERE prompt = '\''[[empty]]'\''" >actual &&
	echo "openai: empty reply (HTTP 200, no body)" >expect &&
	test_cmp expect actual
'

test_expect_success 'no request was malformed' '
	test ! -e fp/errors.log
'

test_done
