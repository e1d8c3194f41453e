#!/bin/sh
# task-mcp speaks MCP over stdio: the handshake and its version negotiation,
# tools/list, ping, notifications, the stateless 2026-07-28 revision
# (server/discover, _meta versions, resultType) and batches where the
# revision has them; nothing but protocol on stdout, exit at end of input.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
# The protocolVersion of each initialize reply in a transcript.
versions() { sed -n 's/.*"result":{"protocolVersion":"\([^"]*\)".*/\1/p' "$1"; }
# JSON on stdin, indented one space a level, for comparisons a reader can follow.
pretty() {
	node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () =>
		process.stdout.write(JSON.stringify(JSON.parse(s), null, 1) + "\n"))'
}

test_expect_success 'initialize answers with the capabilities, server info and instructions' '
	echo "init 2025-11-25" >script &&
	client script task-mcp >actual 2>err &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false}},"serverInfo":{"name":"agentcron","version":"0.1.0"},"instructions":"Tools to schedule prompts that a model runs later: once, on a cron schedule, at planned times or on demand. Times without an offset or zone are read in this machine'\''s zone, UTC. IDs in results are complete; pass them back as given."}}
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'a version it speaks is echoed, any other gets the latest handshake one' '
	>actual &&
	for v in 2024-11-05 2025-03-26 2025-06-18 2025-11-25 1999-01-01 2026-07-28 DRAFT-2026-v1; do
		echo "init $v" >script &&
		client script task-mcp >out 2>>err &&
		versions out >>actual || return 1
	done &&
	cat >expect <<-\EOF &&
	2024-11-05
	2025-03-26
	2025-06-18
	2025-11-25
	2025-11-25
	2025-11-25
	2025-11-25
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'initialize without a protocolVersion is invalid params' '
	echo "send {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{}}" >script &&
	client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"initialize needs params.protocolVersion, a string"}}
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'tools/list gives the native tools, as the first ones of every profile'\''s list' '
	cat >script <<-\EOF &&
	init 2025-06-18
	send {"jsonrpc":"2.0","id":"l","method":"tools/list"}
	EOF
	client script task-mcp >out &&
	sed -n 2p out >list.json &&
	tr "{" "\n" <list.json | sed -n "s/^\"name\":\"\([a-z_]*\)\",\"description\".*/\1/p" >actual &&
	cat >expect <<-\EOF &&
	task_create
	task_list
	task_show
	task_run
	task_update
	task_cancel
	task_delete
	EOF
	test_cmp expect actual &&
	echo "send {\"jsonrpc\":\"2.0\",\"id\":\"l\",\"method\":\"tools/list\"}" >script &&
	client script task-mcp -p all >out &&
	sed -n 1p out >all.json &&
	native=$(sed "s/]}}\$//" list.json) &&
	case $(cat all.json) in "$native,{\"name\":\"create_scheduled_task\""*) ;; *) false ;; esac
'

test_expect_success 'tools/list of every profile: names, descriptions and schemas, whole' '
	echo "send {\"jsonrpc\":\"2.0\",\"id\":\"l\",\"method\":\"tools/list\"}" >script &&
	client script task-mcp -p all >out &&
	sed -n 1p out | pretty >actual &&
	test_cmp "$AC_TOP/tests/fixtures/tools-list-all.json" actual &&
	sed 1d out >actual &&
	echo "exit 0" >expect &&
	test_cmp expect actual
'

test_expect_success 'profiles choose the tool names, several at once' '
	task-mcp --profile kai,toolpack --list-tools | cut -f1 >actual &&
	cat >expect <<-\EOF &&
	schedule_task
	list_tasks
	cancel_task
	scheduler.create
	scheduler.list
	scheduler.cancel
	scheduler.update
	EOF
	test_cmp expect actual &&
	task-mcp -p oneclaw -p wooster -l | cut -f1 >actual &&
	cat >expect <<-\EOF &&
	create_scheduled_task
	list_scheduled_tasks
	run_scheduled_task
	update_scheduled_task
	delete_scheduled_task
	scheduleAgentTask
	EOF
	test_cmp expect actual &&
	task-mcp -p agent-zero -l | cut -f1 >actual &&
	cat >expect <<-\EOF &&
	scheduler:list_tasks
	scheduler:show_task
	scheduler:run_task
	scheduler:delete_task
	scheduler:create_scheduled_task
	scheduler:create_adhoc_task
	scheduler:create_planned_task
	EOF
	test_cmp expect actual &&
	task-mcp -p all -l | cut -f1 >actual &&
	sed -n "s/^    \"name\": \"\(.*\)\",$/\1/p" "$AC_TOP/tests/fixtures/tools-list-all.json" >expect &&
	test $(wc -l <expect) -eq 27 &&
	test_cmp expect actual &&
	task-mcp -l | cut -f1 >actual &&
	task-mcp -p native -l | cut -f1 >expect &&
	test_cmp expect actual
'

test_expect_success 'an unknown profile is a usage error' '
	test_expect_code 2 task-mcp -p native,nonesuch </dev/null >out 2>err &&
	test ! -s out &&
	echo "task-mcp: unknown profile '\''nonesuch'\'' (use native, oneclaw, agent-zero, kai, toolpack, wooster or all)" >expect &&
	test_cmp expect err
'

test_expect_success 'a cursor restarts the one page; a cursor that is no string is refused' '
	cat >script <<-\EOF &&
	send {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"anything"}}
	send {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":5}}
	send {"jsonrpc":"2.0","id":1,"method":"tools/list"}
	EOF
	client script task-mcp >out &&
	sed -n 3p out >expect &&
	sed -n 1p out >actual &&
	test_cmp expect actual &&
	sed "1d;3d" out >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid cursor: expected a string"}}
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'ping answers {}; notifications and responses get no reply' '
	cat >script <<-\EOF &&
	init 2025-11-25
	notify {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"x"}}
	notify {"jsonrpc":"2.0","method":"notifications/whatever"}
	notify {"jsonrpc":"2.0","id":99,"result":{}}
	notify {"jsonrpc":"2.0","id":98,"error":{"code":-1,"message":"no"}}
	send {"jsonrpc":"2.0","id":"p1","method":"ping"}
	send {"jsonrpc":"2.0","id":3,"method":"ping","params":{}}
	EOF
	client script task-mcp >out &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":"p1","result":{}}
	{"jsonrpc":"2.0","id":3,"result":{}}
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'requests before initialize are served' '
	echo "call task_list" >script &&
	client script task-mcp >actual &&
	printf "[1] ok\nNo tasks found.\nexit 0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'server/discover: versions, capabilities and identity, no handshake needed' '
	echo "send {\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}" >script &&
	client script task-mcp >out &&
	sed "s/\"instructions\":\"[^\"]*\"/\"instructions\":I/" out >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":"d","result":{"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"capabilities":{"tools":{"listChanged":false}},"serverInfo":{"name":"agentcron","version":"0.1.0"},"instructions":I,"resultType":"complete","ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"agentcron","version":"0.1.0"}}}}
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'stateless requests carry the version in _meta and get resultType' '
	cat >script <<-\EOF &&
	send {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"task_create","arguments":{"prompt":"Water the plants","daily":"07:00"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
	send {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
	send {"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
	EOF
	client script task-mcp >out &&
	sed "s/\"tools\":\[.*\],\"resultType\"/\"tools\":T,\"resultType\"/" out >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Created task '\''Water the plants'\''.
	ID: <uuid>
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 07:00 UTC
	{"jsonrpc":"2.0","id":2,"result":{"tools":T,"resultType":"complete","ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"agentcron","version":"0.1.0"}}}}
	{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"agentcron","version":"0.1.0"}}}}
	exit 0
	EOF
	test_cmp expect actual &&
	echo "send {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}" >script &&
	client script task-mcp >plain &&
	sed -n 1p plain >expect &&
	sed -n "/\"id\":2,/s/,\"resultType\":\"complete\",\"ttlMs\".*/}}/p" out >actual &&
	test_cmp expect actual &&
	printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"task_list\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}" |
		task-mcp >raw &&
	sed "s/[0-9a-f]\{8\}-[0-9a-f-]\{27\}/<uuid>/" raw >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"Found 1 task:\n\n1. Water the plants\n   ID: <uuid>\n   Schedule: Daily at 07:00 (UTC)\n   Status: pending, enabled\n   Next run: 2026-03-02 07:00 UTC\n   Last run: never\n"}],"isError":false,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"agentcron","version":"0.1.0"}}}}
	EOF
	test_cmp expect actual
'

test_expect_success 'an unknown _meta version is refused with the supported list' '
	cat >script <<-\EOF &&
	send {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}
	send {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}
	EOF
	client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"requested":"1900-01-01"}}}
	{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"_meta.io.modelcontextprotocol/protocolVersion must be a string"}}
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success '2025-03-26 takes batches: one array of replies, none for notifications' '
	cat >script <<-\EOF &&
	init 2025-03-26
	send [{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"nonesuch"},{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}]
	send []
	EOF
	client script task-mcp >out &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: nonesuch"}},{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"initialize must not be part of a batch"}}]
	{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: empty batch"}}
	exit 0
	EOF
	test_cmp expect actual &&
	printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\"}}" \
		"[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]" \
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}" | task-mcp >raw &&
	sed "s/,\"capabilities\":.*}}$/, .../" raw >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26", ...
	{"jsonrpc":"2.0","id":2,"result":{}}
	EOF
	test_cmp expect actual
'

test_expect_success 'other revisions refuse batches' '
	>actual &&
	for v in 2025-06-18 2025-11-25; do
		printf "%s\n" "init $v" "send [{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]" >script &&
		client script task-mcp >out &&
		sed -n 2p out >>actual || return 1
	done &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batches are not supported by this protocol version"}}
	{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batches are not supported by this protocol version"}}
	EOF
	test_cmp expect actual
'

test_expect_success 'end of input ends the server cleanly, with nothing on stdout' '
	task-mcp </dev/null >out 2>err &&
	test ! -s out &&
	test ! -s err &&
	printf "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}" | task-mcp >out 2>err &&
	echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}" >expect &&
	test_cmp expect out &&
	test ! -s err
'

test_expect_success 'CRLF line ends and blank lines are tolerated' '
	printf "\r\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n" | task-mcp >out 2>err &&
	echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}" >expect &&
	test_cmp expect out &&
	test ! -s err
'

test_expect_success 'usage, --help and --version' '
	task-mcp --help >out &&
	cat >expect <<-\EOF &&
	usage: task-mcp [-p PROFILE]...
	       task-mcp [-p PROFILE]... --call [--json]
	       task-mcp [-p PROFILE]... --list-tools
	  Serves the scheduler'\''s tools over MCP on standard input and output.
	  -p, --profile NAME  tool set: native (the default), oneclaw, agent-zero, kai,
	                      toolpack, wooster or all; repeat or comma-separate to combine
	  -c, --call          run the tool calls on standard input ({"tool_name": ...,
	                      "tool_args": {...}} or {"name": ..., "arguments": {...}})
	                      and print each result
	  -j, --json          with --call: each result as a JSON line
	  -l, --list-tools    print each tool'\''s name and description
	  -h, --help, -V, --version
	EOF
	test_cmp expect out &&
	task-mcp --version >out &&
	echo "task-mcp (agentcron) 0.1.0" >expect &&
	test_cmp expect out &&
	test_expect_code 2 task-mcp --bogus 2>err </dev/null &&
	test_one_line err &&
	test_expect_code 2 task-mcp extra 2>err </dev/null &&
	test_one_line err &&
	test_expect_code 2 task-mcp --json 2>err </dev/null &&
	test_one_line err &&
	test_expect_code 2 task-mcp --call --list-tools 2>err </dev/null &&
	test_one_line err
'

test_expect_success 'a store that cannot be opened is one line and exit 1' '
	echo not a directory >plain &&
	test_expect_code 1 env TASK_DB=$TEST_TMP/plain/x.db task-mcp </dev/null >out 2>err &&
	test ! -s out &&
	echo "task-mcp: cannot create store '\''$TEST_TMP/plain/x.db'\'': '\''$TEST_TMP/plain'\'' is not a directory" >expect &&
	test_cmp expect err
'

test_done
