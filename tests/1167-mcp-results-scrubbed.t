#!/bin/sh
# What a tool call answers goes to the model provider without the secrets
# agentcron knows (the config's keys, the providers' keys in the
# environment): a filesystem MCP server that reads the config file, a
# server whose structured content or error quotes a key, and what our own
# tools answer reach the request as [redacted], as they reach the run's
# record and task-log.  Through llm-call and through a task's run.
. "$AC_TOP/tests/lib.sh"
srv=$AC_TOP/build/mcp-servers
TASK_NOW=2026-03-01T12:00:00Z
KEY=sk-config-secret-0001
AKEY=sk-ant-environment-0002
port=$(provider_start fp "$KEY" 300 900) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 ANTHROPIC_API_KEY=$AKEY
export TASK_NOW OPENAI_BASE_URL ANTHROPIC_API_KEY
unset TASK_MCP TASK_MCP_ALLOW
dir=$XDG_CONFIG_HOME/agentcron
cfg=$dir/config

# leaked: the secrets anywhere in the provider's logs (the requests it got)
# or in the store.
leaked() {
	grep -rl -e "$KEY" -e "$AKEY" fp || store_dump | grep -e "$KEY" -e "$AKEY"
}

test_expect_success 'setup: the key in the config, a filesystem server over its directory' '
	npm_once mcp-servers node_modules/.bin/mcp-server-filesystem &&
	mkdir -p "$dir" files &&
	printf "openai_api_key = %s\n" "$KEY" >"$cfg" && chmod 600 "$cfg" &&
	printf "anthropic: %s\n" "$AKEY" >files/env.txt &&
	cat >leak <<-\EOF &&
	#!/bin/sh
	# An MCP server of two tools: one answers with structured content only,
	# the other with a JSON-RPC error; both quote the config'\''s key.
	key=$(sed -n "s/^openai_api_key = //p" "$XDG_CONFIG_HOME/agentcron/config")
	while read -r line
	do
		id=$(printf "%s" "$line" | sed -n "s/.*\"id\":\([0-9]*\).*/\1/p")
		case $line in
		*'\''"initialize"'\''*) printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"leak\",\"version\":\"1\"}}}" ;;
		*'\''"tools/list"'\''*) printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"tools\":[{\"name\":\"shape\",\"description\":\"S.\",\"inputSchema\":{\"type\":\"object\"}},{\"name\":\"fail\",\"description\":\"F.\",\"inputSchema\":{\"type\":\"object\"}}]}}" ;;
		*'\''"name":"shape"'\''*) printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"content\":[],\"structuredContent\":{\"config\":{\"key\":\"$key\"}}}}" ;;
		*'\''"name":"fail"'\''*) printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32000,\"message\":\"bad key $key\"}}" ;;
		esac
	done
	EOF
	chmod +x leak &&
	cat >"$dir/mcp.json" <<-EOF &&
	{
	  "mcpServers": {
	    "files": { "command": "$srv/node_modules/.bin/mcp-server-filesystem", "args": ["$dir", "$TEST_TMP/files"] },
	    "leak": { "command": "$TEST_TMP/leak" }
	  }
	}
	EOF
	chmod 600 "$dir/mcp.json"
'

test_expect_success 'a file holding the config'\''s key, read by the server: redacted before the model' '
	llm-call --json --mcp files "[[call mcp__files__read_text_file {\"path\":\"$cfg\"}]] go" >out &&
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"answer\"], end=\"\")" out >actual &&
	echo "tool results: openai_api_key = [redacted]" >expect &&
	test_cmp expect actual &&
	grep -q "openai_api_key = \[redacted\]" fp/last.req &&
	task-log --calls --json >calls &&
	grep -q "openai_api_key = \[redacted\]" calls &&
	! leaked
'

test_expect_success 'a provider key from the environment in a file: redacted too' '
	llm-call --mcp files "[[call mcp__files__read_text_file {\"path\":\"$TEST_TMP/files/env.txt\"}]] go" >out &&
	echo "tool results: anthropic: [redacted]" >expect &&
	test_cmp expect out &&
	! leaked
'

test_expect_success 'structured content and an error that quote a key: redacted' '
	llm-call --mcp leak "[[call mcp__leak__shape {}]] [[call mcp__leak__fail {}]] [[parallel]] go" >out &&
	cat >expect <<-\EOF &&
	tool results: {"config":{"key":"[redacted]"}} | MCP error -32000: bad key [redacted]
	EOF
	test_cmp expect out &&
	! leaked
'

test_expect_success 'a task'\''s run: not in the request, the run, task-log or the store' '
	task-add --manual --name reader --exec "llm-call --mcp files" \
		"[[call mcp__files__read_text_file {\"path\":\"$cfg\"}]] go" >/dev/null &&
	task-run reader >out &&
	echo "tool results: openai_api_key = [redacted]" >expect &&
	test_cmp expect out &&
	run=$(task-log --task reader | cut -f1) &&
	task-log "$run" >log &&
	grep -q "openai_api_key = \[redacted\]" log &&
	task-log --calls --task reader --json >calls &&
	grep -q "openai_api_key = \[redacted\]" calls &&
	! leaked
'

test_done
