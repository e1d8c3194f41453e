#!/bin/sh
# A run's agent gives tasks no more MCP access than the run has, and what
# the run has is what its llm-call uses: --mcp and --mcp-allow on the
# task's executor line replace the task's servers and patterns
# (TASK_MCP, TASK_MCP_ALLOW), so a line that narrows them narrows what the
# run's agent may hand on, through llm-call's own tools and through the
# task-mcp it starts as an MCP server.  And a task an agent made outside a
# run holds its servers as the config's agent_mcp lets agents give them
# now, as its attachments are held to agent_attach_dirs.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
openai_stand_in || exit 1
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# gh: a stand-in for a server with tools that read and tools that write
# (task-mcp on a store of its own); agentcron: the scheduler's tools.
cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<EOF
{ "mcpServers": {
  "gh": { "command": "task-mcp", "env": { "TASK_DB": "$TEST_TMP/gh.db" } },
  "agentcron": { "command": "task-mcp" } } }
EOF
chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json"
# made NAME: the servers and patterns of the task NAME, if there is one.
made() {
	task-ls --json | python3 -c '
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    if t["name"] == sys.argv[1]:
        print(t["name"], t.get("mcp"), t.get("mcp_allow"))
' "$1"
}

test_expect_success 'an executor line'\''s --mcp-allow bounds the agent of llm-call --tools' '
	id=$(task-add --manual --name report --mcp gh --exec "llm-call --tools --mcp-allow mcp__gh__task_list" \
		"[[call task_create {\"name\":\"w1\",\"prompt\":\"w1\",\"manual\":true,\"mcp\":[\"gh\"]}]] go") &&
	task-run "$id" >out &&
	echo "tool results: Refused: this run may call only the MCP tools matching mcp__gh__task_list; give mcp_allow patterns within those." >expect &&
	test_cmp expect out &&
	made w1 >actual &&
	test_cmp /dev/null actual
'

test_expect_success 'and of the task-mcp the run starts as a server' '
	id=$(task-add --manual --name report2 --mcp agentcron,gh \
		--exec "llm-call --mcp-allow mcp__agentcron__* --mcp-allow mcp__gh__task_list" \
		"[[call mcp__agentcron__task_create {\"name\":\"w2\",\"prompt\":\"w2\",\"manual\":true,\"mcp\":[\"gh\"]}]] go") &&
	task-run "$id" >out &&
	echo "tool results: Refused: this run may call only the MCP tools matching mcp__agentcron__*, mcp__gh__task_list; give mcp_allow patterns within those." >expect &&
	test_cmp expect out &&
	made w2 >actual &&
	test_cmp /dev/null actual
'

test_expect_success 'an executor line'\''s --mcp bounds the servers it may give' '
	id=$(task-add --manual --name report3 --mcp gh,agentcron --exec "llm-call --tools --mcp agentcron" \
		"[[call task_create {\"name\":\"w3\",\"prompt\":\"w3\",\"manual\":true,\"mcp\":[\"gh\"]}]] go") &&
	task-run "$id" >out &&
	echo "tool results: Refused: MCP server '\''gh'\'' is not one this run may give a task. This run may give: agentcron." >expect &&
	test_cmp expect out &&
	made w3 >actual &&
	test_cmp /dev/null actual
'

test_expect_success 'what the run has it may still give' '
	id=$(task-add --manual --name report4 --mcp gh --exec "llm-call --tools --mcp-allow mcp__gh__task_list" \
		"[[call task_create {\"name\":\"w4\",\"prompt\":\"w4\",\"manual\":true,\"mcp\":[\"gh\"],\"mcp_allow\":[\"mcp__gh__task_list\"]}]] go") &&
	task-run "$id" >out &&
	grep -q "^tool results: Created task '\''w4'\''" out &&
	made w4 >actual &&
	echo "w4 ['\''gh'\''] ['\''mcp__gh__task_list'\'']" >expect &&
	test_cmp expect actual
'

test_expect_success 'a session'\''s task keeps its servers only while agent_mcp gives them' '
	cfg=$XDG_CONFIG_HOME/agentcron/config &&
	echo "agent_mcp = gh" >"$cfg" &&
	printf "%s\n" "{\"name\":\"task_create\",\"arguments\":{\"name\":\"s1\",\"prompt\":\"[[call mcp__gh__task_list {}]] go\",\"manual\":true,\"mcp\":[\"gh\"]}}" |
		task-mcp --call >out &&
	id=$(task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    if t[\"name\"] == \"s1\":
        print(t[\"id\"])
") &&
	task-run "$id" >out &&
	echo "tool results: No tasks found." >expect &&
	test_cmp expect out &&
	n=$(wc -l <fp/requests.log) &&
	: >"$cfg" &&
	test_expect_code 1 task-run "$id" >out 2>err &&
	test ! -s out &&
	short=$(echo "$id" | cut -c1-8) &&
	cat >expect <<-EOF &&
	llm-call: MCP server '\''gh'\'' of task '\''s1'\'', which an agent made, is no longer one the config'\''s agent_mcp lets agents give (none); add it there, or take it from the task (task-edit --mcp)
	task-run: task '\''s1'\'' ($short) failed: exited with status 78
	EOF
	test_cmp expect err &&
	test $(wc -l <fp/requests.log) -eq $n &&
	echo "agent_mcp = mail, all" >"$cfg" &&
	task-run "$id" >out &&
	echo "tool results: No tasks found." >expect &&
	test_cmp expect out &&
	: >"$cfg" &&
	mine=$(task-add --manual --name mine --mcp gh "[[call mcp__gh__task_list {}]] go") &&
	task-run "$mine" >out &&
	test_cmp expect out
'

test_done
