#!/bin/sh
# Bad input to task-mcp: malformed JSON, invalid requests, unknown methods
# and tools, missing, mistyped and unknown arguments, huge messages
# (answered with their id wherever it stands), bytes that are not UTF-8.
# Each gets an error reply, the server goes on serving, and the store is as
# it was; every reply is valid UTF-8.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
snapshot() {
	store_sql "SELECT id, name, prompt, kind, cron, plan, tz, enabled,
		status, next_run_at, queued, updated_at, deleted_at FROM tasks ORDER BY id"
}

test_expect_success 'setup: one task to keep' '
	printf "%s\n" "init 2025-11-25" "call task_create {\"name\":\"Keep\",\"prompt\":\"Keep me\",\"daily\":\"07:00\"}" >script &&
	client script task-mcp >out &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[2] ok
	Created task '\''Keep'\''.
	ID: <uuid>
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 07:00 UTC
	exit 0
	EOF
	test_cmp expect actual &&
	snapshot >store.before &&
	test $(wc -l <store.before) -eq 1
'

test_expect_success 'malformed and invalid JSON-RPC: an error each, then still serving' '
	cat >script <<-\EOF &&
	init 2025-11-25
	send {"jsonrpc":"2.0","id":1,
	send not json at all
	send 42
	send "a string"
	send {"id":3,"method":"ping"}
	send {"jsonrpc":"1.0","id":4,"method":"ping"}
	send {"jsonrpc":"2.0","id":null,"method":"ping"}
	send {"jsonrpc":"2.0","id":true,"method":"ping"}
	send {"jsonrpc":"2.0","id":{"a":1},"method":"ping"}
	send {"jsonrpc":"2.0","id":5}
	send {"jsonrpc":"2.0","id":6,"method":7}
	send {"jsonrpc":"2.0","id":7,"method":"ping","params":[1,2]}
	send {"jsonrpc":"2.0","id":8,"method":"ping","params":"x"}
	send {"jsonrpc":"2.0","id":9,"method":"resources/list"}
	send {"jsonrpc":"2.0","id":10,"method":"notifications/initialized"}
	send {"jsonrpc":"2.0","id":11,"method":"ping"}
	EOF
	client script task-mcp >out 2>err &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}
	{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}
	{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: expected a JSON-RPC object"}}
	{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: expected a JSON-RPC object"}}
	{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""}}
	{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""}}
	{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id must be a string or a number"}}
	{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id must be a string or a number"}}
	{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id must be a string or a number"}}
	{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request: method must be a string"}}
	{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"Invalid Request: method must be a string"}}
	{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"params must be an object"}}
	{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"params must be an object"}}
	{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found: resources/list"}}
	{"jsonrpc":"2.0","id":10,"error":{"code":-32601,"message":"Method not found: notifications/initialized"}}
	{"jsonrpc":"2.0","id":11,"result":{}}
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err &&
	snapshot >store.after &&
	test_cmp store.before store.after
'

test_expect_success 'a message with anything after its JSON is not one message' '
	printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing" \
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}" | task-mcp >actual 2>err &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}
	{"jsonrpc":"2.0","id":2,"result":{}}
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'unknown tools and unreadable calls are JSON-RPC errors' '
	cat >script <<-\EOF &&
	send {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rm_rf","arguments":{}}}
	send {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_tasks","arguments":{}}}
	send {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}
	send {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"task_create","arguments":"prompt"}}
	send {"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"task_create","arguments":[1]}}
	send {"jsonrpc":"2.0","id":6,"method":"tools/call"}
	send {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_list","arguments":null}}
	EOF
	client script task-mcp >out 2>err &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: rm_rf"}}
	{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown tool: list_tasks"}}
	{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"tools/call needs params.name, the tool'\''s name"}}
	{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"tools/call params.arguments must be an object"}}
	{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"tools/call params.arguments must be an object"}}
	{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"tools/call needs params.name, the tool'\''s name"}}
	[7] ok
	Found 1 task:

	1. Keep
	   ID: <uuid>
	   Schedule: Daily at 07:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 07:00 UTC
	   Last run: never
	exit 0
	EOF
	test_cmp expect out &&
	test ! -s err &&
	snapshot >store.after &&
	test_cmp store.before store.after
'

test_expect_success 'missing, mistyped and unknown arguments are tool errors the model can read' '
	id=$(store_sql "SELECT id FROM tasks") &&
	cat >script <<-EOF &&
	call task_create {}
	call task_create {"prompt":""}
	call task_create {"prompt":"x"}
	call task_create {"prompt":42,"daily":"25:00"}
	call task_create {"prompt":"x","daily":"07:00","cron":"0 7 * * *"}
	call task_create {"prompt":"x","cron":"0 25 * * *"}
	call task_create {"prompt":"x","at":"yesterday at 9"}
	call task_create {"prompt":"x","at":"blorp"}
	call task_create {"prompt":"x","manual":"yes"}
	call task_create {"prompt":"x","manual":true,"tz":"Mars/Olympus"}
	call task_create {"prompt":"x","manual":true,"payload":"not an object"}
	call task_create {"prompt":"x","manual":true,"attachments":[1,2]}
	call task_create {"prompt":"x","manual":true,"colour":"blue"}
	call task_list {"limit":"many"}
	call task_list {"limit":0}
	call task_list {"status":"sleeping"}
	call task_list {"due_within":-5}
	call task_show {}
	call task_show {"id":12345}
	call task_update {"id":"$id","cron":"nonsense"}
	call task_update {"id":"$id","daily":"07:00","weekly":"mon 09:00"}
	call task_update {"id":"$id","name":""}
	EOF
	client script task-mcp >actual 2>err &&
	cat >expect <<-\EOF &&
	[1] error
	Missing required argument '\''prompt'\''.
	[2] error
	Missing required argument '\''prompt'\''.
	[3] error
	Give exactly one schedule: cron, at, plan, daily, weekly, manual or heartbeat.
	[4] error
	Bad time of day '\''25:00'\'': hour 25 is out of range 0-23; write one such as 09:00, 9am, 9:30pm, noon or '\''half past 9'\''.
	[5] error
	Give exactly one schedule, not cron and daily.
	[6] error
	Invalid cron expression '\''0 25 * * *'\'': bad hour field '\''25'\'': 25 is out of range 0-23.
	[7] error
	at: '\''yesterday at 9'\'' is 2026-02-28 09:00 UTC in UTC, which is in the past.
	[8] error
	at: cannot understand time '\''blorp'\'' (read in UTC): unknown word '\''blorp'\''; try '\''tomorrow at 10am'\'', '\''in 2 hours'\'' or 2026-11-23T07:00:00Z.
	[9] error
	Argument '\''manual'\'' must be true or false.
	[10] error
	Unknown time zone '\''Mars/Olympus'\''.
	[11] error
	Argument '\''payload'\'' must be a JSON object.
	[12] error
	Argument '\''attachments'\'' must be a list of strings.
	[13] error
	Unknown argument '\''colour'\'' for task_create. Valid arguments: name, prompt, system_prompt, cron, every, from, not_before, at, plan, daily, weekly, manual, heartbeat, tz, enabled, context, attachments, intent, channel, payload, model, fallback_models, until, count, mcp, deliver, after, mcp_allow, scope, overlap, budget, notify_on, deadline, retries, pause_after, keep, comment, key, force.
	[14] error
	Argument '\''limit'\'' must be an integer.
	[15] error
	Argument '\''limit'\'' must be at least 1.
	[16] error
	Argument '\''status'\'' must be pending, running, completed, failed, cancelled, paused or all, not '\''sleeping'\''.
	[17] error
	Argument '\''due_within'\'' must be 0 to 52560000 minutes.
	[18] error
	Missing required argument '\''id'\''.
	[19] error
	Task not found with ID '\''12345'\''.
	[20] error
	Invalid cron expression '\''nonsense'\'': expected 5 fields (minute hour day-of-month month day-of-week), got 1.
	[21] error
	Give exactly one schedule, not daily and weekly.
	[22] error
	Name cannot be empty.
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err &&
	snapshot >store.after &&
	test_cmp store.before store.after
'

test_expect_success 'a number for an enumerated string or a huge integer is a tool error, not a crash' '
	cat >script <<-\EOF &&
	call list_tasks {"status":5}
	call list_tasks {"status":"completed"}
	call scheduler.list {"status":7}
	call scheduler.list {"limit":1e300}
	call task_list {"limit":-1e300}
	EOF
	client script task-mcp -p kai,toolpack,native >actual 2>err &&
	cat >expect <<-\EOF &&
	[1] error
	Argument '\''status'\'' must be PENDING or COMPLETED, not '\''5'\''.
	[2] ok
	No completed tasks.
	[3] error
	Argument '\''status'\'' must be pending, running, completed, failed, cancelled or all, not '\''7'\''.
	[4] error
	Argument '\''limit'\'' must be an integer.
	[5] error
	Argument '\''limit'\'' must be an integer.
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err &&
	snapshot >store.after &&
	test_cmp store.before store.after
'

test_expect_success 'a NUL byte in one line does not swallow the next message' '
	printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}" >in &&
	printf "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"pi\000ng\"}\n" >>in &&
	printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}" >>in &&
	task-mcp <in >out 2>err &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":1,"result":{}}
	{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}
	{"jsonrpc":"2.0","id":3,"result":{}}
	EOF
	test_cmp expect out &&
	test ! -s err
'

test_expect_success 'a huge message is answered with its id, and the server goes on' '
	cat >script <<-\EOF &&
	huge 5000000
	huge 150000
	send {"jsonrpc":"2.0","id":"after","method":"ping"}
	EOF
	client script task-mcp >actual 2>err &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: message longer than 4194304 bytes"}}
	[2] error
	The prompt is longer than 100000 bytes.
	{"jsonrpc":"2.0","id":"after","result":{}}
	exit 0
	EOF
	test_cmp expect actual &&
	echo "task-mcp: refused a message longer than 4194304 bytes" >expect &&
	test_cmp expect err &&
	snapshot >store.after &&
	test_cmp store.before store.after
'

# huge HEAD TAIL: a message of HEAD, 4.2 MB of x and TAIL, on one line.
huge() { printf "%s" "$1" && head -c 4200000 /dev/zero | tr "\0" x && printf "%s\n" "$2"; }

test_expect_success 'the id of a huge message is found wherever it is, or is null' '
	{ huge "{\"jsonrpc\":\"2.0\",\"id\":\"first\",\"method\":\"ping\",\"params\":{\"x\":\"" "\"}}" &&
	  huge "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"id\":1,\"x\":\"" "\",\"id\":2},\"id\":3}" &&
	  huge "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"x\":\"\\\"id\\\":4," "\"},\"id\" : -7.5e1 }" &&
	  huge "{\"id\":\"say \\\"hi\\\"\",\"params\":{\"x\":\"" "\"}}" &&
	  huge "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"x\":\"" "\"}}]" &&
	  huge "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":6},\"params\":{\"x\":\"" "\"}}" &&
	  huge "{\"jsonrpc\":\"2.0\",\"params\":{\"x\":\"" "\"}}" &&
	  huge "not json at all " "" &&
	  printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}"
	} | task-mcp >out 2>err &&
	sed "s/,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: message longer than 4194304 bytes\"}}$/ too long/" out >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":"first" too long
	{"jsonrpc":"2.0","id":3 too long
	{"jsonrpc":"2.0","id":-75 too long
	{"jsonrpc":"2.0","id":"say \"hi\"" too long
	{"jsonrpc":"2.0","id":null too long
	{"jsonrpc":"2.0","id":null too long
	{"jsonrpc":"2.0","id":null too long
	{"jsonrpc":"2.0","id":null too long
	{"jsonrpc":"2.0","id":"after","result":{}}
	EOF
	test_cmp expect actual &&
	test $(wc -l <err) -eq 8
'

test_expect_success 'a huge last line without a newline is answered too' '
	{ printf "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" &&
	  head -c 4200000 /dev/zero | tr "\0" x && printf "\"}}"; } | task-mcp >out 2>err &&
	echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: message longer than 4194304 bytes\"}}" >expect &&
	test_cmp expect out &&
	{ printf "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"x\":\"" &&
	  head -c 4200000 /dev/zero | tr "\0" x && printf "\"},\"id\":12"; } | task-mcp >out 2>err &&
	echo "{\"jsonrpc\":\"2.0\",\"id\":12,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: message longer than 4194304 bytes\"}}" >expect &&
	test_cmp expect out
'

test_expect_success 'a store failure is an error result, logged, and the server goes on' '
	cat >script <<-\EOF &&
	call task_list
	run store-sql "ALTER TABLE tasks RENAME TO tasks_away"
	call task_list
	call task_create {"prompt":"x","manual":true}
	run store-sql "ALTER TABLE tasks_away RENAME TO tasks"
	call task_list {"limit":1}
	EOF
	client script task-mcp >out 2>err &&
	sed "s|$TASK_DB|DB|" out >actual &&
	# Each backend says it in its own words.
	case $AC_STORE in
	sqlite) gone="no such table: tasks" ;;
	postgres) gone="relation \"tasks\" does not exist" ;;
	esac &&
	cat >expect.in <<-\EOF &&
	[1] ok
	Found 1 task:

	1. Keep
	   ID: <uuid>
	   Schedule: Daily at 07:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 07:00 UTC
	   Last run: never
	[2] error
	Error: store '\''DB'\'': listing tasks: GONE
	[3] error
	Error: store '\''DB'\'': counting tasks: GONE
	[4] ok
	Found 1 task:

	1. Keep
	   ID: <uuid>
	   Schedule: Daily at 07:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 07:00 UTC
	   Last run: never
	exit 0
	EOF
	sed "s/GONE/$gone/" expect.in >expect &&
	test_cmp expect actual &&
	sed "s|$TASK_DB|DB|" err >actual &&
	cat >expect.in <<-\EOF &&
	task-mcp: store '\''DB'\'': listing tasks: GONE
	task-mcp: store '\''DB'\'': counting tasks: GONE
	EOF
	sed "s/GONE/$gone/" expect.in >expect &&
	test_cmp expect actual &&
	snapshot >store.after &&
	test_cmp store.before store.after
'

test_expect_success 'bytes that are not UTF-8 become U+FFFD in every reply, and a tool refuses them; quoting never cuts a character' '
	a99=$(printf "%099d" 0 | tr 0 a) &&
	{ printf "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"b\377d\"}\n" &&
	  printf "{\"jsonrpc\":\"2.0\",\"id\":\"\377\",\"method\":\"ping\"}\n" &&
	  printf "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"rm\300\257\"}}\n" &&
	  printf "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\303\251\"}}\n" "$a99" &&
	  printf "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"task_show\",\"arguments\":{\"id\":\"%s\342\202\254\"}}}\n" "$(printf "%063d" 0)" &&
	  printf "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"task_create\",\"arguments\":{\"name\":\"Caf\351\",\"prompt\":\"caf\351 \355\240\200\",\"manual\":true}}}\n"
	} | task-mcp >out 2>err &&
	R=$(printf "\357\277\275") &&
	cat >expect <<-EOF &&
	{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: b${R}d"}}
	{"jsonrpc":"2.0","id":"$R","result":{}}
	{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown tool: rm$R$R"}}
	{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: $a99"}}
	{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"Task not found with ID '\''$(printf "%063d" 0)'\''."}],"isError":true}}
	{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"Argument '\''name'\'' must be UTF-8 text."}],"isError":true}}
	EOF
	sed "s/[0-9a-f]\{8\}-[0-9a-f-]\{27\}/<uuid>/" out >actual &&
	test_cmp expect actual &&
	test ! -s err &&
	test "$(store_sql "SELECT count(*) FROM tasks WHERE name LIKE '\''Caf%'\''")" = 0
'

test_done
