#!/bin/sh
# What llm-call's MCP servers leave behind and ask for: a stdio server's
# descendants, even in a session of their own, end with llm-call (it is
# their subreaper); a Streamable HTTP server that wants authorization
# (HTTP 401) is told llm-call does not support it, and is not retried; a
# server's requests inside an event stream are answered while the stream
# is open (ping with a result, the rest -32601), as on stdio; one asking
# for a person (elicitation) is declined at once there too, and the run
# ends blocked saying what it wanted.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
port=$(provider_start fp "" 300 900) || exit 1
aport=$("$AC_BUILD/tools/mcp-http" -a -d "$TEST_TMP/auth" -i 300 -t 900) || exit 1
rport=$("$AC_BUILD/tools/mcp-http" -r -d "$TEST_TMP/asks" -i 300 -t 900) || exit 1
cat "$TEST_TMP/auth/pid" "$TEST_TMP/asks/pid" >>"$TEST_TMP/.pids"
OPENAI_BASE_URL=http://127.0.0.1:$port/v1
export OPENAI_BASE_URL
unset TASK_MCP TASK_MCP_ALLOW
mkdir -p "$XDG_CONFIG_HOME/agentcron"
cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<EOF
{
  "mcpServers": {
    "spawner": { "command": "sh", "args": ["-c",
      "setsid sleep 60 </dev/null >/dev/null 2>&1 & echo \$! >gc.pid; (setsid sh -c 'trap \"\" TERM; exec sleep 60' </dev/null >/dev/null 2>&1 & echo \$! >gc2.pid) & wait \$!; exec task-mcp"] },
    "auth": { "url": "http://127.0.0.1:$aport/mcp" },
    "asks": { "url": "http://127.0.0.1:$rport/mcp" }
  }
}
EOF
chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json"

test_expect_success 'a stdio server'\''s setsid descendants end with llm-call, one ignoring SIGTERM too' '
	llm-call --mcp spawner --list-tools >out 2>err && test ! -s err &&
	grep -q "^mcp__spawner__task_create	" out &&
	test -s gc.pid && test -s gc2.pid &&
	test_expect_code 1 alive "$(cat gc.pid)" &&
	test_expect_code 1 alive "$(cat gc2.pid)"
'

test_expect_success 'the same through a call of the model and a tool of the server' '
	rm gc.pid gc2.pid &&
	llm-call --mcp spawner "[[call mcp__spawner__task_list {}]] go" >out 2>err &&
	test ! -s err && grep -q "^tool results: " out &&
	test_expect_code 1 alive "$(cat gc.pid)" &&
	test_expect_code 1 alive "$(cat gc2.pid)"
'

test_expect_success 'HTTP 401: authorization is not supported, said in one line; in a run, not retried' '
	test_expect_code 2 llm-call --mcp auth --list-tools >out 2>err &&
	echo "llm-call: MCP server '\''auth'\'' asks for authorization (HTTP 401), which llm-call does not support; a static token can go in its \"headers\" in mcp.json" >expect &&
	test_cmp expect err &&
	n=$(wc -l <auth/requests.log) &&
	test_expect_code 78 env TASK_MCP=auth llm-call hi >out 2>err &&
	test_cmp expect err &&
	test $(($(wc -l <auth/requests.log) - n)) -eq 1
'

test_expect_success 'requests inside an event stream: answered while it is open, -32601 and ping' '
	llm-call --mcp asks "[[call mcp__asks__ask {}]] go" >out 2>err &&
	test ! -s err &&
	echo "tool results: answered: 2" >expect && head -1 out >actual && test_cmp expect actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":"s1","error":{"code":-32601,"message":"llm-call does not offer this"}}
	{"jsonrpc":"2.0","id":"p1","result":{}}
	EOF
	test_cmp expect asks/answers.log
'

test_expect_success 'elicitation inside an event stream: declined at once, llm-call ends blocked' '
	: >asks/answers.log &&
	test_expect_code 1 llm-call --mcp asks "[[call mcp__asks__ask_person {}]] go" >out 2>err &&
	echo "llm-call: blocked: MCP server '\''asks'\'' asked for input that no one is there to give: Approve the transfer?" >expect &&
	test_cmp expect err && test ! -s out &&
	echo "{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"result\":{\"action\":\"decline\"}}" >expect &&
	test_cmp expect asks/answers.log
'

test_expect_success 'the same as a scheduled run: its status is blocked, with the reason' '
	task-add --at 12:30 --name Transfer --mcp asks "[[call mcp__asks__ask_person {}]] go" >/dev/null &&
	TASK_NOW=2026-03-01T12:30:10Z task-tick >out 2>err &&
	echo blocked >expect && task-log --task Transfer --limit 1 | cut -f7 >actual && test_cmp expect actual &&
	task-log "$(task-log --task Transfer --limit 1 | cut -f1)" >log &&
	grep -q "asked for input that no one is there to give: Approve the transfer?" log
'

test_done
