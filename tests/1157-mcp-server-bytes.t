#!/bin/sh
# An MCP server's answers are untrusted text: bytes that are not UTF-8 in
# a tool's description, its result, its structured content or a JSON-RPC
# error become U+FFFD before they reach the model's request (JSON, which
# is UTF-8), llm-call's output or the record of the call.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
openai_stand_in || exit 1
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# A stdio server whose one tool answers, as $1 says, with text, structured
# content or a JSON-RPC error, each holding \377\376 and a cut-off é.
cat >bytes.sh <<\EOF
#!/bin/sh
read -r _ || exit 1
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"b","version":"1"}}}'
read -r _ || exit 1
read -r _ || exit 1
printf '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"probe","description":"Pro\377bes caf\303.","inputSchema":{"type":"object","properties":{"what":{"type":"string","description":"wh\376at"}}}}]}}\n'
read -r _ || exit 1
case $1 in
text) printf '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"bad \377\376 bytes caf\303"}]}}\n' ;;
structured) printf '{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"k\377":"v\376"}}}\n' ;;
rpcerror) printf '{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"no \377 way"}}\n' ;;
esac
read -r _
EOF
chmod +x bytes.sh
cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<EOF
{ "mcpServers": {
  "text": { "command": "$TEST_TMP/bytes.sh", "args": ["text"] },
  "structured": { "command": "$TEST_TMP/bytes.sh", "args": ["structured"] },
  "rpcerror": { "command": "$TEST_TMP/bytes.sh", "args": ["rpcerror"] } } }
EOF
chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json"
# utf8 FILE...: each file is valid UTF-8, else its name.
utf8() {
	python3 -c '
import sys
for f in sys.argv[1:]:
    try:
        open(f, "rb").read().decode("utf-8")
    except UnicodeDecodeError as x:
        print(f, x)
' "$@"
}

test_expect_success '--list-tools: a description that is not UTF-8 shows U+FFFD' '
	llm-call --mcp text --list-tools >out &&
	printf "mcp__text__probe\tPro\357\277\275bes caf\357\277\275.\n" >expect &&
	test_cmp expect out
'

test_expect_success 'a text result: the request, the answer and the record are UTF-8' '
	llm-call --mcp text "[[call mcp__text__probe {\"what\":\"x\"}]] go" >out &&
	printf "tool results: bad \357\277\275\357\277\275 bytes caf\357\277\275\n" >expect &&
	test_cmp expect out &&
	utf8 out fp/*.body >bad &&
	test_cmp /dev/null bad &&
	task-log --calls --json >calls &&
	utf8 calls >bad &&
	test_cmp /dev/null bad &&
	python3 -c "import json, sys; print(json.loads(open(sys.argv[1]).readline())[\"answer\"])" calls >actual &&
	test_cmp expect actual
'

test_expect_success 'structured content and a JSON-RPC error: the same' '
	llm-call --mcp structured "[[call mcp__structured__probe {\"what\":\"x\"}]] go" >out &&
	llm-call --mcp rpcerror "[[call mcp__rpcerror__probe {\"what\":\"x\"}]] go" >>out &&
	utf8 out fp/*.body >bad &&
	test_cmp /dev/null bad &&
	task-log --calls --json >calls &&
	utf8 calls >bad &&
	test_cmp /dev/null bad &&
	test "$(store_sql "SELECT count(*) FROM llm_calls")" = 3
'

test_done
