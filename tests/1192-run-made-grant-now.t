#!/bin/sh
# A task an agent made in a run of task X holds its MCP servers and tool
# patterns as X grants them now, not as X did when the run made it: X
# edited to grant less, its executor line narrowed, or X deleted (which
# grants only what the config's agent_mcp lets agents give) fails the
# child's run before any model is asked, the reason in the run's record.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
openai_stand_in || exit 1
mkdir -p "$XDG_CONFIG_HOME/agentcron"
cfg=$XDG_CONFIG_HOME/agentcron/config
: >"$cfg"
cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<EOF
{ "mcpServers": {
  "gh": { "command": "task-mcp", "env": { "TASK_DB": "$TEST_TMP/gh.db" } } } }
EOF
chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json"

id_of() {
	store_sql "SELECT id FROM tasks WHERE name = '$1'"
}

# refused_run ID NAME WHY: the run of ID fails, no model asked, WHY said
# on standard error and in the run's record (each WHY is said once here).
refused_run() {
	n=$(wc -l <fp/requests.log) &&
	test_expect_code 1 task-run "$1" >out 2>err &&
	test ! -s out &&
	short=$(echo "$1" | cut -c1-8) &&
	printf "llm-call: %s\ntask-run: task '%s' (%s) failed: exited with status 78\n" "$3" "$2" "$short" >expect &&
	test_cmp expect err &&
	test $(wc -l <fp/requests.log) -eq $n &&
	store_sql "SELECT error FROM runs WHERE task_id = '$1' AND status = 'failed'" >actual &&
	grep -qF "$3" actual
}

test_expect_success 'setup: a run of report makes w, which uses what report grants' '
	task-add --manual --name report --mcp gh --exec "llm-call --tools --mcp-allow mcp__gh__task_*" \
		"[[call task_create {\"name\":\"w\",\"prompt\":\"w\",\"manual\":true,\"mcp\":[\"gh\"],\"mcp_allow\":[\"mcp__gh__task_list\"]}]] go" >/dev/null &&
	task-run report >out &&
	grep -q "^tool results: Created task '\''w'\''" out &&
	task-edit --prompt "[[call mcp__gh__task_list {}]] go" w >/dev/null &&
	task-run w >out &&
	echo "tool results: No tasks found." >ok &&
	test_cmp ok out
'

test_expect_success 'report grants gh no more: w'\''s run fails, said in its record' '
	task-edit --mcp "" report >/dev/null &&
	refused_run "$(id_of w)" w "task '\''w'\'', which an agent made in a run of task '\''report'\'', uses MCP access beyond what that task grants now (MCP servers none; tools mcp__gh__task_*); give it there, or take it from the task (task-edit --mcp, --mcp-allow)"
'

test_expect_success 'given again, w runs again' '
	task-edit --mcp gh report >/dev/null &&
	task-run w >out &&
	test_cmp ok out
'

test_expect_success 'report'\''s executor line narrows its tools: w'\''s pattern is beyond them' '
	task-edit --exec "llm-call --tools --mcp-allow mcp__gh__task_show" report >/dev/null &&
	refused_run "$(id_of w)" w "task '\''w'\'', which an agent made in a run of task '\''report'\'', uses MCP access beyond what that task grants now (MCP servers gh; tools mcp__gh__task_show); give it there, or take it from the task (task-edit --mcp, --mcp-allow)" &&
	task-edit --exec "llm-call --tools --mcp-allow mcp__gh__task_list" report >/dev/null &&
	task-run w >out &&
	test_cmp ok out
'

test_expect_success 'report deleted: w holds only what agent_mcp gives agents' '
	task-rm report >/dev/null 2>&1 &&
	refused_run "$(id_of w)" w "MCP server '\''gh'\'' of task '\''w'\'', which an agent made in a run of a task since deleted, is no longer one the config'\''s agent_mcp lets agents give (none); add it there, or take it from the task (task-edit --mcp)" &&
	echo "agent_mcp = gh" >"$cfg" &&
	task-run w >out &&
	test_cmp ok out &&
	: >"$cfg"
'

test_expect_success 'the run that made it gone from the history: as report2 grants now, from the trail' '
	task-add --manual --name report2 --mcp gh --exec "llm-call --tools --mcp-allow mcp__gh__task_list" \
		"[[call task_create {\"name\":\"w2\",\"prompt\":\"w2\",\"manual\":true,\"mcp\":[\"gh\"],\"mcp_allow\":[\"mcp__gh__task_list\"]}]] go" >/dev/null &&
	task-run report2 >out &&
	task-edit --prompt "[[call mcp__gh__task_list {}]] go" w2 >/dev/null &&
	task-run w2 >out &&
	test_cmp ok out &&
	store_sql "DELETE FROM runs WHERE task_id = '\''$(id_of report2)'\''" &&
	task-run w2 >out &&
	test_cmp ok out &&
	task-edit --exec "llm-call --tools --mcp-allow mcp__gh__task_show" report2 >/dev/null &&
	refused_run "$(id_of w2)" w2 "task '\''w2'\'', which an agent made in a run of task '\''report2'\'', uses MCP access beyond what that task grants now (MCP servers gh; tools mcp__gh__task_show); give it there, or take it from the task (task-edit --mcp, --mcp-allow)" &&
	task-edit --exec "llm-call --tools --mcp-allow mcp__gh__task_list" report2 >/dev/null
'

test_expect_success 'neither the run nor the trail of its making: held as when deleted' '
	store_sql "DELETE FROM audit WHERE task_id = '\''$(id_of w2)'\'' AND action = '\''create'\''" &&
	refused_run "$(id_of w2)" w2 "MCP server '\''gh'\'' of task '\''w2'\'', which an agent made in a run no longer in the history, is no longer one the config'\''s agent_mcp lets agents give (none); add it there, or take it from the task (task-edit --mcp)"
'

test_expect_success 'a person'\''s own task with the same servers is not held' '
	mine=$(task-add --manual --name mine --mcp gh "[[call mcp__gh__task_list {}]] go") &&
	task-run "$mine" >out &&
	test_cmp ok out
'

test_done
