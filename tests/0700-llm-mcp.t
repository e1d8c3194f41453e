#!/bin/sh
# llm-call as an MCP client: mcp.json and its rules, agentcron's own
# task-mcp as a stdio server driven by the fake provider in both wire
# formats, --mcp-allow, TASK_MCP, a Streamable HTTP server, servers that
# fail in every way (one line, no hang, no leftover process), and the tool
# calls on record for task-log.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
port=$(provider_start fp "" 300 900) || exit 1
hport=$("$AC_BUILD/tools/mcp-http" -d "$TEST_TMP/mh" -i 300 -t 900) || exit 1
jport=$("$AC_BUILD/tools/mcp-http" -d "$TEST_TMP/jwt" -s 1024 -i 300 -t 900) || exit 1
cat "$TEST_TMP/mh/pid" "$TEST_TMP/jwt/pid" >>"$TEST_TMP/.pids"
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 ANTHROPIC_BASE_URL=http://127.0.0.1:$port
export OPENAI_BASE_URL ANTHROPIC_BASE_URL
unset TASK_MCP TASK_MCP_ALLOW
S=$AC_TOP/tests/fixtures/mcp/scripted.sh
cfg=$XDG_CONFIG_HOME/agentcron/mcp.json
mkdir -p "$XDG_CONFIG_HOME/agentcron"
cat >"$cfg" <<EOF
{
  "mcpServers": {
    "agentcron": { "command": "task-mcp", "args": ["--profile", "native"] },
    "other": { "command": "task-mcp", "env": { "TASK_DB": "\${OTHER_DB:-$TEST_TMP/other.db}" } },
    "web": { "url": "http://127.0.0.1:$hport/mcp", "headers": { "X-Who": "\${USER:-me}" } },
    "jwt": { "url": "http://127.0.0.1:$jport/mcp" },
    "dead": { "command": "sh", "args": ["-c", "echo cannot start: no config >&2; exit 3"] },
    "missing": { "command": "no-such-mcp-server" },
    "hang": { "command": "sh", "args": ["-c", "echo \$\$ >hang.pid; sleep 30 & echo \$! >hang.child; exec sleep 30"] },
    "garbage": { "command": "sh", "args": ["-c", "echo 'Server started on stdio'; exec sleep 30"] },
    "error": { "command": "$S", "args": ["error"] },
    "big": { "command": "$S", "args": ["big"] },
    "die": { "command": "$S", "args": ["die"] }
  }
}
EOF
chmod 600 "$cfg"

test_expect_success 'llm-call --mcp NAME --list-tools: the names --mcp-allow matches, no key needed' '
	env -u OPENAI_API_KEY llm-call --mcp agentcron,web --list-tools >out 2>err &&
	test ! -s err &&
	cut -f1 out >actual &&
	cat >expect <<-\EOF &&
	mcp__agentcron__task_create
	mcp__agentcron__task_list
	mcp__agentcron__task_show
	mcp__agentcron__task_run
	mcp__agentcron__task_update
	mcp__agentcron__task_cancel
	mcp__agentcron__task_delete
	mcp__web__echo
	mcp__web__add
	EOF
	test_cmp expect actual &&
	grep "^mcp__agentcron__task_list" out | cut -f2 >desc &&
	echo "List scheduled tasks, soonest next run first, with ID, schedule, status, next and last run. Filters are optional." >expect &&
	test_cmp expect desc &&
	llm-call --mcp agentcron --mcp-allow "mcp__agentcron__task_[ls]*" --list-tools | cut -f1 >actual &&
	printf "%s\n" mcp__agentcron__task_list mcp__agentcron__task_show >expect &&
	test_cmp expect actual &&
	test_expect_code 2 llm-call --list-tools >out 2>err && test_one_line err &&
	test_expect_code 2 llm-call --mcp nosuch --list-tools >out 2>err && test_one_line err
'

test_expect_success 'task-mcp over stdio: the model lists and creates tasks through MCP (OpenAI)' '
	llm-call --mcp agentcron "[[call mcp__agentcron__task_list {}]] [[call mcp__agentcron__task_create {\"name\":\"Plants\",\"prompt\":\"Water the plants\",\"daily\":\"07:00\"}]] go" >out &&
	head -1 out >actual &&
	echo "tool results: No tasks found. | Created task '\''Plants'\''." >expect &&
	test_cmp expect actual &&
	task-ls --json | sed -n "s/.*\"name\":\"\([^\"]*\)\".*\"cron\":\"\([^\"]*\)\".*/\1 \2/p" >actual &&
	echo "Plants 0 7 * * *" >expect &&
	test_cmp expect actual &&
	grep "^body.tools\[[0-9]*\].function.name" fp/last.req >actual &&
	cat >expect <<-\EOF &&
	body.tools[0].function.name = "mcp__agentcron__task_create"
	body.tools[1].function.name = "mcp__agentcron__task_list"
	body.tools[2].function.name = "mcp__agentcron__task_show"
	body.tools[3].function.name = "mcp__agentcron__task_run"
	body.tools[4].function.name = "mcp__agentcron__task_update"
	body.tools[5].function.name = "mcp__agentcron__task_cancel"
	body.tools[6].function.name = "mcp__agentcron__task_delete"
	EOF
	test_cmp expect actual &&
	grep -q "^body.tools\[1\].function.parameters.properties.limit.type = \"integer\"" fp/last.req
'

test_expect_success 'the same in the Anthropic format, schemas passed through' '
	llm-call -m claude-3-5-haiku-latest --mcp agentcron "[[call mcp__agentcron__task_list {\"limit\":1}]] go" >out &&
	head -2 out >actual &&
	printf "tool results: Found 1 task:\n\n" >expect &&
	test_cmp expect actual &&
	grep -q "^body.tools\[1\].input_schema.properties.limit.type = \"integer\"" fp/last.req &&
	grep -q "^body.tools\[1\].name = \"mcp__agentcron__task_list\"" fp/last.req
'

test_expect_success '--mcp-allow offers only the matching tools; a call outside them is refused' '
	llm-call --mcp agentcron --mcp-allow "mcp__agentcron__task_list" --mcp-allow "*_show" \
		"[[call mcp__agentcron__task_delete {\"id\":\"x\"}]] go" >out &&
	echo "tool results: Refused: '\''mcp__agentcron__task_delete'\'' is not among the tools allowed for this call (--mcp-allow)." >expect &&
	test_cmp expect out &&
	grep "^body.tools\[[0-9]*\].function.name" fp/last.req >actual &&
	cat >expect <<-\EOF &&
	body.tools[0].function.name = "mcp__agentcron__task_list"
	body.tools[1].function.name = "mcp__agentcron__task_show"
	EOF
	test_cmp expect actual
'

test_expect_success 'TASK_MCP and TASK_MCP_ALLOW stand in for the flags; --tools sits beside' '
	TASK_MCP=agentcron,web TASK_MCP_ALLOW="mcp__web__*, mcp__agentcron__task_list" llm-call --tools \
		"[[call mcp__web__echo {\"message\":\"hi\"}]] [[call task_list {\"limit\":1}]] go" >out &&
	head -1 out >actual &&
	echo "tool results: Echo: hi | Found 1 task:" >expect &&
	test_cmp expect actual &&
	grep "^body.tools\[[0-9]*\].function.name" fp/last.req | sed "s/.*= //" | tr "\n" " " >actual &&
	printf "%s " "\"task_create\"" "\"task_list\"" "\"task_show\"" "\"task_run\"" "\"task_update\"" \
		"\"task_cancel\"" "\"task_delete\"" "\"mcp__agentcron__task_list\"" "\"mcp__web__echo\"" \
		"\"mcp__web__add\"" >expect &&
	test_cmp expect actual
'

test_expect_success '${VAR} in env reaches the server: another store' '
	OTHER_DB=$TEST_TMP/third.db llm-call --mcp other "[[call mcp__other__task_create {\"prompt\":\"Elsewhere\",\"manual\":true}]] go" >/dev/null &&
	TASK_DB=$TEST_TMP/third.db task-ls --json | grep -c Elsewhere >actual &&
	echo 1 >expect &&
	test_cmp expect actual &&
	task-ls --json >ours && test_expect_code 1 grep -q Elsewhere ours
'

test_expect_success 'Streamable HTTP: session id, version header, SSE and JSON replies, session deleted' '
	: >mh/requests.log &&
	llm-call -m claude-3-5-haiku-latest --mcp web "[[call mcp__web__echo {\"message\":\"over http\"}]] [[call mcp__web__add {\"a\":2,\"b\":40}]] [[call mcp__web__nope {}]] go" >out &&
	echo "tool results: Echo: over http | {\"sum\":42} | Unknown tool '\''mcp__web__nope'\''." >expect &&
	test_cmp expect out &&
	cat >expect <<-\EOF &&
	POST initialize session=- version=-
	POST notifications/initialized session=3f6c1d2e-session version=2025-11-25
	POST tools/list session=3f6c1d2e-session version=2025-11-25
	POST tools/call session=3f6c1d2e-session version=2025-11-25
	POST tools/call session=3f6c1d2e-session version=2025-11-25
	DELETE - session=3f6c1d2e-session version=2025-11-25
	EOF
	test_cmp expect mh/requests.log &&
	test ! -e mh/errors.log
'

test_expect_success 'a 1 KB session id (a JWT) goes back whole with every request' '
	llm-call --mcp jwt "[[call mcp__jwt__echo {\"message\":\"long session\"}]] go" >out &&
	echo "tool results: Echo: long session" >expect &&
	test_cmp expect out &&
	cat >expect <<-\EOF &&
	POST initialize session=- version=-
	POST notifications/initialized session=<1024 bytes> version=2025-11-25
	POST tools/list session=<1024 bytes> version=2025-11-25
	POST tools/call session=<1024 bytes> version=2025-11-25
	DELETE - session=<1024 bytes> version=2025-11-25
	EOF
	test_cmp expect jwt/requests.log &&
	test ! -e jwt/errors.log
'

test_expect_success 'an isError result goes back to the model, flagged for Anthropic; version 2025-06-18 spoken' '
	llm-call --json --mcp error "[[call mcp__error__probe {\"what\":\"disk\"}]] go" >out &&
	grep -q "\"answer\":\"tool results: disk full\"" out &&
	grep -q "\"mcp_servers\":\[{\"name\":\"error\",\"protocol_version\":\"2025-06-18\"" out &&
	grep -q "^body.messages\[2\].content = \"disk full\"" fp/last.req &&
	llm-call -m claude-3-5-haiku-latest --mcp error "[[call mcp__error__probe {}]] go" >out &&
	grep -q "^body.messages\[2\].content\[0\].is_error = true" fp/last.req
'

test_expect_success 'every tool call is on record; task-log RUN shows them' '
	task-add --manual --name Audit --exec "llm-call --mcp agentcron" \
		"[[call mcp__agentcron__task_list {\"limit\":2}]] [[call mcp__agentcron__task_show {\"id\":\"zzzz\"}]] go" >id &&
	task-run "$(cat id)" >out &&
	run=$(task-log --json --task "$(cat id)" | sed -n "s/^{\"id\":\"\([^\"]*\)\".*/\1/p" | head -1) &&
	task-log "$run" | sed -n "/^model calls:/,\$p" | sed "s/  [0-9.]*m*s$/  DUR/; s/  [0-9.]*m*s  / DUR /" >actual &&
	cat >expect <<-\EOF &&
	model calls:
	  2026-03-01 12:00 UTC  openai/gpt-4o-mini  0 in, 0 out DUR stop
	    tool agentcron/task_list {"limit":2}  DUR
	      -> Found 2 tasks:  1. Plants    ID: ...
	    tool agentcron/task_show {"id":"zzzz"}  DUR
	      error: Task not found with ID '\''zzzz'\''.
	EOF
	sed -i "s/[0-9]* in, [0-9]* out/0 in, 0 out/; s/    ID: [0-9a-f-]*.*/    ID: .../" actual &&
	test_cmp expect actual &&
	task-log --json "$run" | grep -q "\"tool_calls\":\[{\"server\":\"agentcron\",\"tool\":\"task_list\",\"arguments\":{\"limit\":2},\"result\":\"Found 2 tasks:"
'

test_expect_success 'a server that exits at once: one line naming it and what it said' '
	test_expect_code 1 llm-call --mcp dead hi 2>err &&
	echo "llm-call: MCP server '\''dead'\'' exited with status 3: cannot start: no config" >expect &&
	test_cmp expect err &&
	test_expect_code 1 llm-call --mcp missing hi 2>err &&
	echo "llm-call: MCP server '\''missing'\'': command '\''no-such-mcp-server'\'' not found in PATH" >expect &&
	test_cmp expect err
'

test_expect_success 'a server that never answers: bounded by --mcp-timeout, its group ended' '
	test_expect_code 1 llm-call --mcp-timeout 0.5 --mcp hang hi 2>err &&
	echo "llm-call: MCP server '\''hang'\'' did not answer initialize within 0.5 s (--mcp-timeout)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 alive "$(cat hang.pid)" &&
	test_expect_code 1 alive "$(cat hang.child)"
'

test_expect_success 'a server that prints garbage, one that dies mid-call, one that sends 10 MB' '
	test_expect_code 1 llm-call --mcp garbage hi 2>err &&
	echo "llm-call: MCP server '\''garbage'\'' sent what is not a JSON-RPC message: '\''Server started on stdio'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 1 llm-call --mcp die "[[call mcp__die__probe {}]] go" 2>err &&
	echo "llm-call: MCP server '\''die'\'' exited with status 7: probe crashed" >expect &&
	test_cmp expect err &&
	test_expect_code 1 llm-call --mcp big "[[call mcp__big__probe {}]] go" 2>err &&
	echo "llm-call: MCP server '\''big'\'' sent a message larger than 4 MiB" >expect &&
	test_cmp expect err
'

test_expect_success 'inside a run, a failing server is a failed run with that reason' '
	task-add --manual --name Broken --exec "llm-call --mcp die" "[[call mcp__die__probe {}]] go" >id &&
	test_expect_code 1 task-run "$(cat id)" >/dev/null 2>&1 &&
	task-log --json --task "$(cat id)" >log &&
	grep -q "\"status\":\"failed\"" log &&
	grep -q "\"error\":\"exited with status 1.nllm-call: MCP server '\''die'\'' exited with status 7: probe crashed" log
'

test_expect_success 'mcp.json: unknown names, unset variables, bad JSON, unsafe modes, a FIFO' '
	test_expect_code 2 llm-call --mcp nope hi 2>err &&
	echo "llm-call: no MCP server '\''nope'\'' in $cfg" >expect &&
	test_cmp expect err &&
	cp "$cfg" good.json &&
	sed "s/\${USER:-me}/\${AC_UNSET_VAR}/" good.json >"$cfg" &&
	test_expect_code 2 env -u AC_UNSET_VAR llm-call --mcp web hi 2>err &&
	echo "llm-call: MCP server '\''web'\'' uses \${AC_UNSET_VAR}, which is not set" >expect &&
	test_cmp expect err &&
	chmod 644 "$cfg" &&
	test_expect_code 2 llm-call --mcp agentcron hi 2>err &&
	echo "llm-call: '\''$cfg'\'' holds env or headers values and group or others can read it; run: chmod 600 '\''$cfg'\''" >expect &&
	test_cmp expect err &&
	chmod 620 "$cfg" &&
	test_expect_code 2 llm-call --mcp agentcron hi 2>err &&
	grep -q "can be changed by group or others; run: chmod 600" err &&
	printf "{\"mcpServers\": {\"a\": {\"command\": 1}}}" >"$cfg" && chmod 600 "$cfg" &&
	test_expect_code 2 llm-call --mcp a hi 2>err &&
	echo "llm-call: $cfg: server '\''a'\'' needs either \"command\" or \"url\"" >expect &&
	test_cmp expect err &&
	echo "{oops" >"$cfg" &&
	test_expect_code 2 llm-call --mcp a hi 2>err &&
	test_one_line err &&
	rm "$cfg" && mkfifo "$cfg" &&
	test_expect_code 2 timeout 60 llm-call --mcp a hi 2>err &&
	echo "llm-call: '\''$cfg'\'' is not a regular file" >expect &&
	test_cmp expect err &&
	rm "$cfg" && cp good.json "$cfg" && chmod 600 "$cfg"
'

kill "$(cat mh/pid)" "$(cat jwt/pid)"
test_done
