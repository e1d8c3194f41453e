#!/bin/sh
# Settings from flags, then the environment, then the config file; the
# config file refused when a key in it is exposed; keys only ever in
# request headers: never in ps, the store, logs or messages.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-config-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
URL=http://127.0.0.1:$port/v1
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"

test_expect_success 'key, base URL and model from the config file' '
	cat >"$CONF" <<-EOT &&
	# agentcron settings
	openai_api_key = $KEY
	openai_base_url = "$URL"   
	model = gpt-4o   # the usual one

	EOT
	chmod 600 "$CONF" &&
	llm-call from config >out 2>err &&
	echo "echo: from config" >expect &&
	test_cmp expect out &&
	test ! -s err &&
	grep "^header authorization\|^body.model" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	header authorization: <key ok>
	body.model = "gpt-4o"
	EOT
	test_cmp expect actual
'

test_expect_success 'a config file with a key that others can read is refused' '
	chmod 644 "$CONF" &&
	test_expect_code 78 llm-call hi >out 2>err &&
	echo "llm-call: config '\''$CONF'\'' holds an API key and group or others can read it; run: chmod 600 '\''$CONF'\''" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	chmod 640 "$CONF" &&
	test_expect_code 78 llm-call hi 2>err &&
	test_cmp expect err &&
	chmod 600 "$CONF" &&
	llm-call hi >out
'

test_expect_success 'a config file others can change is refused, key or not' '
	printf "model = gpt-4o\n" >"$CONF" &&
	chmod 622 "$CONF" &&
	test_expect_code 78 llm-call hi 2>err &&
	echo "llm-call: config '\''$CONF'\'' can be changed by group or others; run: chmod 600 '\''$CONF'\''" >expect &&
	test_cmp expect err &&
	chmod 644 "$CONF" &&
	OPENAI_API_KEY=$KEY OPENAI_BASE_URL=$URL llm-call hi >out &&
	grep "^body.model" fp/last.req >actual &&
	echo "body.model = \"gpt-4o\"" >expect &&
	test_cmp expect actual
'

test_expect_success 'a bad line is named by its number' '
	printf "model = gpt-4o\nthis is not a setting\n" >"$CONF" &&
	test_expect_code 78 llm-call hi 2>err &&
	echo "llm-call: $CONF:2: expected '\''key = value'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'flags over environment over config' '
	cat >"$CONF" <<-EOT &&
	openai_api_key = $KEY
	openai_base_url = http://127.0.0.1:1/v1
	model = gpt-4o
	openai_model = gpt-4.1-mini
	EOT
	chmod 600 "$CONF" &&
	OPENAI_BASE_URL=$URL llm-call hi >out &&
	grep "^body.model" fp/last.req >actual &&
	echo "body.model = \"gpt-4.1-mini\"" >expect &&
	test_cmp expect actual &&
	OPENAI_BASE_URL=http://127.0.0.1:1/v1 llm-call --base-url "$URL" -m o4-mini hi >out &&
	grep "^body.model" fp/last.req >actual &&
	echo "body.model = \"o4-mini\"" >expect &&
	test_cmp expect actual &&
	OPENAI_API_KEY=sk-env-wrong-key-0000 test_expect_code 78 llm-call --base-url "$URL" hi 2>err &&
	grep -q "401" err
'

test_expect_success 'timeout and retries from the config file' '
	cat >"$CONF" <<-EOT &&
	openai_api_key = $KEY
	openai_base_url = $URL
	timeout = 0.4
	retries = 0
	EOT
	test_expect_code 1 llm-call "[[slow=2000]]" 2>err &&
	echo "llm-call: openai: no complete reply within 0.4 s (--timeout)" >expect &&
	test_cmp expect err &&
	printf "timeout = soon\n" >>"$CONF" &&
	test_expect_code 78 llm-call hi 2>err &&
	echo "llm-call: $CONF: bad timeout '\''soon'\'': expected a number of seconds above 0, at most 86400" >expect &&
	test_cmp expect err &&
	rm "$CONF"
'

test_expect_success '--key-file: mode 600, first line, over the environment' '
	echo "$KEY" >keyfile &&
	chmod 600 keyfile &&
	OPENAI_API_KEY=sk-env-wrong-key-0000 llm-call --key-file keyfile --base-url "$URL" hi >out &&
	grep "^header authorization" fp/last.req >actual &&
	echo "header authorization: <key ok>" >expect &&
	test_cmp expect actual &&
	chmod 644 keyfile &&
	test_expect_code 78 llm-call --key-file keyfile --base-url "$URL" hi 2>err &&
	echo "llm-call: key file '\''keyfile'\'' holds a key and group or others can read it; run: chmod 600 '\''keyfile'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'a 401 says where the key came from' '
	echo sk-file-wrong-key-9999 >badkey && chmod 600 badkey &&
	test_expect_code 78 llm-call --key-file badkey --base-url "$URL" hi 2>err &&
	echo "llm-call: openai: 401 Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys. (check the key in badkey)" >expect &&
	test_cmp expect err
'

# The provider holds the answer back for 1.5 s once the request is in, so
# llm-call is still running when ps looks.
test_expect_success 'the key is not in ps while a call runs' '
	{ OPENAI_API_KEY=$KEY OPENAI_BASE_URL=$URL llm-call "[[slow=1500]] wait" >out 2>err & } &&
	pid=$! &&
	test_until 60 grep -q "slow=1500" fp/last.req &&
	ps -o args= -p $pid >args &&
	tr "\0" " " </proc/$pid/cmdline >cmdline &&
	wait $pid &&
	grep -q "^llm-call" args &&
	! grep -F "$KEY" args cmdline &&
	echo "echo: [[slow=1500]] wait" >expect &&
	test_cmp expect out
'

test_expect_success 'the key is not in the store, the server logs or --json' '
	OPENAI_API_KEY=$KEY OPENAI_BASE_URL=$URL llm-call --json hi >out &&
	test "$(grep -a -c -F "$KEY" out)" = 0 &&
	store_dump >dump &&
	! grep -F "$KEY" dump &&
	grep -q "llm_calls" dump &&
	! grep -r -F "$KEY" fp &&
	if test "$AC_STORE" = sqlite; then
		test "$(cat "$TASK_DB"* | grep -a -c -F "$KEY")" = 0
	fi
'

test_done
