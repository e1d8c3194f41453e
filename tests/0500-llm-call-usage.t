#!/bin/sh
# llm-call: options, usage errors and missing settings, before any request.
. "$AC_TOP/tests/lib.sh"

test_expect_success '--help prints the usage on stdout' '
	llm-call --help >out 2>err &&
	head -n 1 out >first &&
	echo "usage: llm-call [-s SYSTEM] [-m MODEL] [-a FILE|URL]... [-o KEY=VALUE]..." >expect &&
	test_cmp expect first &&
	test ! -s err &&
	! grep -i "api-key" out
'

test_expect_success '--version' '
	llm-call --version >out &&
	echo "llm-call (agentcron) 0.1.0" >expect &&
	test_cmp expect out
'

test_expect_success 'an unknown flag is a usage error' '
	test_expect_code 2 llm-call --api-key sk-nope hi >out 2>err &&
	test ! -s out &&
	echo "llm-call: unknown option '\''--api-key'\'' (try '\''llm-call --help'\'')" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call -m 2>err &&
	echo "llm-call: option '\''-m'\'' needs a value (try '\''llm-call --help'\'')" >expect &&
	test_cmp expect err
'

test_expect_success 'an empty prompt is refused' '
	test_expect_code 2 llm-call </dev/null >out 2>err &&
	echo "llm-call: the prompt is empty" >expect &&
	test_cmp expect err &&
	test ! -s out
'

test_expect_success 'a prompt of blanks is refused' '
	printf "  \n\t\n" | test_expect_code 2 llm-call >out 2>err &&
	echo "llm-call: the prompt is empty" >expect &&
	test_cmp expect err
'

test_expect_success 'a prompt that is not UTF-8 is refused' '
	printf "caf\351\n" | test_expect_code 2 llm-call >out 2>err &&
	echo "llm-call: the prompt is not UTF-8 text" >expect &&
	test_cmp expect err
'

test_expect_success 'a missing key names the variable and the config key' '
	test_expect_code 78 llm-call hello >out 2>err &&
	echo "llm-call: no API key for openai: set OPENAI_API_KEY, or openai_api_key in $XDG_CONFIG_HOME/agentcron/config" >expect &&
	test_cmp expect err &&
	test_expect_code 78 llm-call -m claude-3-5-haiku-latest hello 2>err &&
	echo "llm-call: no API key for anthropic: set ANTHROPIC_API_KEY, or anthropic_api_key in $XDG_CONFIG_HOME/agentcron/config" >expect &&
	test_cmp expect err
'

test_expect_success 'an unknown provider is a usage error' '
	test_expect_code 2 llm-call --provider gemini hi 2>err &&
	echo "llm-call: bad --provider '\''gemini'\'': expected openai, anthropic or echo" >expect &&
	test_cmp expect err
'

test_expect_success 'bad -o options' '
	test_expect_code 2 llm-call -o temperature hi 2>err &&
	echo "llm-call: -o wants KEY=VALUE, not '\''temperature'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call -o model=gpt-4o hi 2>err &&
	echo "llm-call: -o model is set by llm-call itself; use -m" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call -o "a b=1" hi 2>err &&
	test_one_line err
'

test_expect_success 'bad numbers' '
	test_expect_code 2 llm-call --timeout 0 hi 2>err &&
	echo "llm-call: bad --timeout '\''0'\'': expected a number of seconds above 0, at most 86400" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call --retries -1 hi 2>err &&
	echo "llm-call: bad --retries '\''-1'\'': expected a number from 0 to 20" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call --max-rounds 0 hi 2>err &&
	echo "llm-call: bad --max-rounds '\''0'\'': expected a number from 1 to 1000" >expect &&
	test_cmp expect err
'

test_expect_success 'a base URL must be http or https' '
	OPENAI_API_KEY=sk-test test_expect_code 2 llm-call --base-url ftp://example.invalid hi 2>err &&
	echo "llm-call: bad --base-url '\''ftp://example.invalid'\'': expected an http or https URL" >expect &&
	test_cmp expect err
'

test_expect_success 'TASK_ATTACHMENTS must be a JSON array of strings' '
	TASK_ATTACHMENTS="[1]" OPENAI_API_KEY=sk-test test_expect_code 2 llm-call hi 2>err &&
	echo "llm-call: TASK_ATTACHMENTS is not a JSON array of strings" >expect &&
	test_cmp expect err
'

test_expect_success 'nothing is recorded when the call never started' '
	test ! -e "$TASK_DB"
'

test_done
