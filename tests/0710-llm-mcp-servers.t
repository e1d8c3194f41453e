#!/bin/sh
# The official MCP reference servers from npm (installed once into
# build/mcp-servers from tests/mcp-servers/package.json), started by
# llm-call over stdio: server-everything (echo, get-sum, structured
# content, an image) and server-filesystem limited to a scratch directory,
# from which the model reads a file whose words reach the answer.  Both
# speak stdio only as started here and touch no network.
. "$AC_TOP/tests/lib.sh"
srv=$AC_TOP/build/mcp-servers
port=$(provider_start fp "" 300 900) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 ANTHROPIC_BASE_URL=http://127.0.0.1:$port
export OPENAI_BASE_URL ANTHROPIC_BASE_URL
unset TASK_MCP TASK_MCP_ALLOW

test_expect_success 'the servers are installed (once for both runs of the suite)' '
	npm_once mcp-servers node_modules/.bin/mcp-server-filesystem &&
	mkdir -p files "$XDG_CONFIG_HOME/agentcron" &&
	echo "The spare key is under the blue flowerpot." >files/note.txt &&
	cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<-EOF &&
	{
	  "mcpServers": {
	    "everything": { "command": "$srv/node_modules/.bin/mcp-server-everything" },
	    "files": { "command": "$srv/node_modules/.bin/mcp-server-filesystem", "args": ["$TEST_TMP/files"] }
	  }
	}
	EOF
	chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json"
'

test_expect_success 'server-filesystem: the model reads a file and its words reach the answer' '
	llm-call --mcp files "[[call mcp__files__read_text_file {\"path\":\"$TEST_TMP/files/note.txt\"}]] Where is the key?" >out &&
	echo "tool results: The spare key is under the blue flowerpot." >expect &&
	test_cmp expect out &&
	llm-call -m claude-3-5-haiku-latest --mcp files "[[call mcp__files__read_text_file {\"path\":\"/etc/passwd\"}]] go" >out &&
	grep -q "^tool results: .*outside allowed directories" out
'

test_expect_success 'server-everything: echo, get-sum, structured content, in both formats' '
	llm-call --mcp everything "[[call mcp__everything__echo {\"message\":\"hi\"}]] [[call mcp__everything__get-sum {\"a\":2,\"b\":40}]] [[call mcp__everything__get-structured-content {\"location\":\"New York\"}]] go" >out &&
	sed "s/\"temperature\":[0-9.-]*/\"temperature\":T/; s/\"conditions\":\"[^\"]*\"/\"conditions\":C/; s/\"humidity\":[0-9.]*/\"humidity\":H/" out >actual &&
	echo "tool results: Echo: hi | The sum of 2 and 40 is 42. | {\"temperature\":T,\"conditions\":C,\"humidity\":H}" >expect &&
	test_cmp expect actual &&
	llm-call -m claude-3-5-haiku-latest --mcp everything "[[call mcp__everything__get-sum {\"a\":1,\"b\":1}]] go" >out &&
	echo "tool results: The sum of 1 and 1 is 2." >expect &&
	test_cmp expect out
'

test_expect_success 'server-everything: an image reaches the model in either format' '
	llm-call --mcp everything "[[call mcp__everything__get-tiny-image {}]] go" >out &&
	tail -1 out >actual &&
	echo "The image above is the MCP logo. [1 image]" >expect &&
	test_cmp expect actual &&
	grep -q "^body.messages\[3\].content\[0\].image_url.url = \"data:image/png;base64," fp/last.req &&
	llm-call -m claude-3-5-haiku-latest --mcp everything "[[call mcp__everything__get-tiny-image {}]] go" >out &&
	tail -1 out >actual &&
	test_cmp expect actual &&
	grep -q "^body.messages\[2\].content\[0\].content\[1\].source.media_type = \"image/png\"" fp/last.req &&
	test ! -e fp/errors.log
'

test_done
