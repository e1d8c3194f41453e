#!/bin/sh
# A task's MCP servers end to end: task-add --mcp ... --mcp-allow ...,
# task-tick, the default executor llm-call (TASK_MCP, TASK_MCP_ALLOW),
# agentcron's own task-mcp as the configured stdio server, the local fake
# provider driving the tool calls, and task-log and task-show showing what
# the scheduled agent did; a server mcp.json does not name is refused at
# add and edit time, and one taken out of it later fails the run for good
# with the one reason in task-tick's line.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-23T06:30:00Z
export TASK_NOW
openai_stand_in || exit 1
unset TASK_MCP TASK_MCP_ALLOW
cfg=$XDG_CONFIG_HOME/agentcron/mcp.json
mkdir -p "$XDG_CONFIG_HOME/agentcron"
cat >"$cfg" <<EOF
{ "mcpServers": { "agentcron": { "command": "task-mcp", "args": ["--profile", "native"] } } }
EOF
chmod 600 "$cfg"

test_expect_success 'task-add --mcp, task-tick: the model acts through the MCP server, on record' '
	id=$(task-add --at 07:00 --name Agent --mcp agentcron \
		--mcp-allow "mcp__agentcron__task_create" --mcp-allow "mcp__agentcron__task_list" \
		"[[call mcp__agentcron__task_create {\"name\":\"Follow-up\",\"prompt\":\"Ask how it went\",\"at\":\"tomorrow at 9am\"}]] [[call mcp__agentcron__task_delete {\"id\":\"x\"}]] [[call mcp__agentcron__task_list {\"limit\":1}]] Plan a follow-up.") &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >out 2>err &&
	test ! -s err &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"Agent","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T07:00:10Z","ended_at":"2026-11-23T07:00:10Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	grep "^body.tools\[[0-9]*\].function.name" fp/last.req >actual &&
	cat >expect <<-\EOF &&
	body.tools[0].function.name = "mcp__agentcron__task_create"
	body.tools[1].function.name = "mcp__agentcron__task_list"
	body.tools[2].function.name = "report_outcome"
	EOF
	test_cmp expect actual &&
	run=$(sed "s/.*\"run_id\":\"\([^\"]*\)\".*/\1/" out) &&
	task-log "$run" | sed -n "/^model calls:/,\$p" |
		sed "s/[0-9]* in, [0-9]* out/N in, N out/; s/  [0-9.]*m*s  / DUR /; s/  [0-9.]*m*s$/  DUR/; s/ID: [0-9a-f-]*/ID: .../g; s/ *$//" >actual &&
	cat >expect <<-\EOF &&
	model calls:
	  2026-11-23 07:00:10 UTC  openai/gpt-4o-mini  N in, N out DUR stop
	    tool agentcron/task_create {"name":"Follow-up","prompt":"Ask how it went","at":"tomorrow at 9am"}  DUR
	      -> Created task '\''Follow-up'\''. ID: ... Schedule: Once on 2026-11-24 at 09:00 (UTC) Status: pending, enabled Next run: 2026-11-24 09:00 UTC
	    tool agentcron/task_delete {"id":"x"}  DUR
	      error: Refused: '\''mcp__agentcron__task_delete'\'' is not among the tools allowed for this call (--mcp-allow).
	    tool agentcron/task_list {"limit":1}  DUR
	      -> Found 1 task:  1. Follow-up    ID: ...    Schedule: Once on 2026-11-24 at 09:00 (UTC)    Status: pending, enabled    Next run: 2026-11-24 09:00 UTC    Last run: never ...
	EOF
	test_cmp expect actual &&
	task-show "$id" | sed -n "/^status:/p; /^mcp/p; /^last result:/,/^recent runs:/p" |
		sed "s/ID: [0-9a-f-]*/ID: .../g; /^recent runs:/d" >actual &&
	cat >expect <<-\EOF &&
	status:       completed
	mcp servers:  agentcron
	mcp allow:    mcp__agentcron__task_create, mcp__agentcron__task_list
	last result:
	  tool results: Created task '\''Follow-up'\''. ID: ... Schedule: Once on 2026-11-24 at 09:00 (UTC) Status: pending, enabled Next run: 2026-11-24 09:00 UTC | Refused: '\''mcp__ag...
	EOF
	test_cmp expect actual &&
	task-ls | cut -f2-4 | grep Follow-up >actual &&
	printf "Follow-up\tpending\t2026-11-24T09:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-add and task-edit refuse a server mcp.json does not name, naming the file' '
	test_expect_code 2 task-add --daily 08:00 --mcp agentcron,nosuch p >out 2>err &&
	test ! -s out &&
	echo "task-add: --mcp: no server '\''nosuch'\'' in $cfg" >expect && test_cmp expect err &&
	id=$(task-add --daily 08:00 --name Fine --mcp agentcron p) &&
	test_expect_code 2 task-edit "$id" --mcp nosuch >out 2>err &&
	echo "task-edit: --mcp: no server '\''nosuch'\'' in $cfg" >expect && test_cmp expect err &&
	task-show --json "$id" | grep -q "\"mcp\":\[\"agentcron\"\]" &&
	task-rm "$id" >/dev/null
'

# A server taken out of mcp.json after the task was added: every run would
# fail alike, so the run fails as permanently (78) and a one-shot is not
# retried.
test_expect_success 'a task whose MCP server is no longer configured: failed at once, one reason' '
	cp "$cfg" cfg.saved &&
	cat >"$cfg" <<-\EOF &&
	{ "mcpServers": { "agentcron": { "command": "task-mcp" }, "nosuch": { "command": "true" } } }
	EOF
	id=$(task-add --at 08:00 --name Lost --mcp agentcron,nosuch "[[call mcp__nosuch__x {}]] go") &&
	cp cfg.saved "$cfg" &&
	TASK_NOW=2026-11-23T08:00:10Z task-tick >out 2>err &&
	echo "task-tick: task '\''Lost'\'' ($(echo "$id" | cut -c1-8)) failed: exited with status 78: llm-call: no MCP server '\''nosuch'\'' in $cfg" >expect &&
	test_cmp expect err &&
	test_json_norm <out >actual &&
	cat >expect <<-EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"Lost","trigger":"schedule","slot":"2026-11-23T08:00:00Z","status":"failed","exit_code":78,"started_at":"2026-11-23T08:00:10Z","ended_at":"2026-11-23T08:00:10Z","duration_ms":<ms>,"error":"exited with status 78: llm-call: no MCP server '\''nosuch'\'' in $cfg"}
	EOF
	test_cmp expect actual &&
	task-ls | grep Lost | cut -f3,4 >actual &&
	printf "failed\t-\n" >expect && test_cmp expect actual
'

test_done
