#!/bin/sh
# Every request goes through libcurl, one handle per llm-call: retries and
# tool rounds reuse the connection (the fake provider counts the ones it
# accepts), over https too (a TLS front with a throwaway CA that only these
# runs trust); HTTP/2 where offered; proxies and NO_PROXY as in curl; the
# connect phase and the transfer bounded by their timeouts.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY ANTHROPIC_BASE_URL ANTHROPIC_API_KEY
unset http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY \
  CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR
tport=$("$AC_TOP/tests/tools/tls-front" "$TEST_TMP/tls" "$port") || exit 1
hport=$("$AC_TOP/tests/tools/tls-front" -2 "$TEST_TMP/h2" "$port") || exit 1
CA=$TEST_TMP/tls/ca.pem

conns() { cat "$TEST_TMP/fp/connections"; }
FIVE='[[call task_list {}]] [[call task_list {"limit":1}]] [[call task_list {}]] [[call task_list {"status":"pending"}]] [[call task_list {}]] five rounds'

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

test_expect_success 'a retry after Retry-After reuses the connection' '
	c0=$(conns) && t0=$(ms) &&
	llm-call --json "[[429x1 ra=1]] busy" >out &&
	test $(($(ms) - t0)) -ge 1000 &&
	grep -q "\"attempts\":2" out &&
	test $(($(conns) - c0)) -eq 1
'

test_expect_success 'five tool rounds over http: six requests, one connection' '
	c0=$(conns) && n0=$(wc -l <fp/requests.log) &&
	llm-call --tools "$FIVE" >out &&
	echo "tool results: No tasks found. | No tasks found. | No tasks found. | No tasks found. | No tasks found." >expect &&
	test_cmp expect out &&
	test $(($(wc -l <fp/requests.log) - n0)) -eq 6 &&
	test $(($(conns) - c0)) -eq 1
'

test_expect_success 'five tool rounds over https: one connection, one TLS handshake' '
	c0=$(conns) &&
	CURL_CA_BUNDLE=$CA llm-call --tools -m claude-3-5-haiku-latest \
		--base-url "https://127.0.0.1:$tport" "$FIVE" >out &&
	test_cmp expect out &&
	test $(($(conns) - c0)) -eq 1 &&
	echo 1 >expect &&
	test_cmp expect tls/handshakes
'

test_expect_success 'https streams, and SSL_CERT_FILE as curl reads it' '
	SSL_CERT_FILE=$CA llm-call --stream --base-url "https://localhost:$tport/v1" "[[split]] a b c" >out &&
	echo "echo: [[split]] a b c" >expect &&
	test_cmp expect out
'

test_expect_success 'a server certificate from an unknown CA is refused, not retried' '
	c0=$(conns) &&
	test_expect_code 1 llm-call --base-url "https://127.0.0.1:$tport/v1" hi 2>err &&
	test_one_line err &&
	grep -q "^llm-call: openai: cannot trust https://127.0.0.1:$tport/v1/chat/completions: SSL certificate problem: unable to get local issuer certificate (CURL_CA_BUNDLE names" err &&
	test $(conns) -eq $c0
'

test_expect_success 'HTTP/2 where the server offers it' '
	CURL_CA_BUNDLE=h2/ca.pem llm-call --tools --base-url "https://localhost:$hport/v1" \
		"[[call task_list {}]] over h2" >out &&
	echo "tool results: No tasks found." >expect &&
	test_cmp expect out &&
	cat >expect <<-\EOT &&
	2.0 POST /v1/chat/completions
	2.0 POST /v1/chat/completions
	EOT
	test_cmp expect h2/versions &&
	echo 1 >expect &&
	test_cmp expect h2/handshakes
'

test_expect_success 'a proxy from http_proxy, as curl has it' '
	http_proxy=http://127.0.0.1:$port llm-call --base-url http://api.example.invalid/v1 "via proxy" >out &&
	echo "echo: via proxy" >expect &&
	test_cmp expect out &&
	sed -n 2p fp/last.req >actual &&
	echo "proxied for api.example.invalid" >expect &&
	test_cmp expect actual
'

test_expect_success 'NO_PROXY goes direct; a dead proxy is a connection error' '
	http_proxy=http://127.0.0.1:1 NO_PROXY=127.0.0.1 llm-call "no proxy" >out &&
	echo "echo: no proxy" >expect &&
	test_cmp expect out &&
	test_expect_code 1 env http_proxy=http://127.0.0.1:1 llm-call --retries 0 "no proxy" 2>err &&
	test_one_line err &&
	grep -q "^llm-call: openai: cannot connect to http://127.0.0.1:$port/v1/chat/completions: Failed to connect to 127.0.0.1 port 1" err
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

test_expect_success 'a TLS handshake that never ends is bounded by --connect-timeout' '
	mkfifo silent.port &&
	{ node -e "const s = require(\"net\").createServer(() => {}).listen(0, \"127.0.0.1\", () => console.log(s.address().port)); setTimeout(() => process.exit(0), 30000)" >silent.port & } &&
	read -r sport <silent.port &&
	test_expect_code 1 llm-call --retries 0 --connect-timeout 0.5 --base-url "https://127.0.0.1:$sport/v1" hi 2>err &&
	kill $! &&
	test_one_line err &&
	grep -q "^llm-call: openai: cannot connect to https://127.0.0.1:$sport/v1/chat/completions: .*time.*out" err
'

test_expect_success 'TLS to a plain server fails as a connection error' '
	test_expect_code 1 llm-call --retries 0 --base-url "https://127.0.0.1:$port/v1" hi 2>err &&
	test_one_line err &&
	grep -q "^llm-call: openai: cannot connect to https://127.0.0.1:$port/v1/chat/completions: " err
'

test_expect_success 'the key is in no error line and no request log' '
	test_expect_code 1 grep -rl "$KEY" err out fp
'

kill "$(cat tls/pid)" "$(cat h2/pid)"
test_done
