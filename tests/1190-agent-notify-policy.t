#!/bin/sh
# A person's notify policy stands against agents, as their stop does
# (1181): an agent allowed to change the user's tasks (agent_edit = all)
# may make a task's notify_on tell of more runs, not of fewer, when a
# person made the task or set its notify_on last; one line says so and
# nothing changes.  On tasks agents made it is the agents' to set.  Through
# task-mcp (a real MCP client) and through a run's own tool call.
. "$AC_TOP/tests/lib.sh"
unset TASK_MCP TASK_MCP_ALLOW TASK_RUN_ID TASK_SCOPE
TASK_NOW=2026-11-23T06:00:00Z
export TASK_NOW
mkdir -p "$XDG_CONFIG_HOME/agentcron"
echo "agent_edit = all" >"$XDG_CONFIG_HOME/agentcron/config"
openai_stand_in || exit 1

# mcp TOOL ARGS: one tools/call through task-mcp driven by mcp-client.
mcp() {
	printf 'init 2025-06-18\ncall %s %s\n' "$1" "$2" >script &&
	client script task-mcp | sed 1d >out
}

policy() {
	store_sql "SELECT coalesce(notify_on, '<default>') FROM tasks WHERE name = '$1'"
}

refused() {
	cat >expect <<-EOF &&
	[2] error
	Refused: task '$1' has a notify policy the user set ($2); only they can make it tell of fewer runs.
	exit 0
	EOF
	test_cmp expect out
}

test_expect_success 'setup: a task a person made, with a notify policy, one with none' '
	task-add --name mine --every 1h --notify "true" --notify-on failure,change "p1" >/dev/null &&
	task-add --name plain --every 1h --notify "true" "p2" >/dev/null
'

test_expect_success 'an agent may not silence a person'\''s task: refused, nothing changed' '
	store_dump | grep -v "restrict " >before &&
	mcp task_update "{\"id\":\"mine\",\"notify_on\":\"never\"}" &&
	refused mine failure,change &&
	store_dump | grep -v "restrict " >after && test_cmp before after
'

test_expect_success 'nor narrow it, nor set it back to a default that tells of less' '
	mcp task_update "{\"id\":\"mine\",\"notify_on\":\"failure\"}" &&
	refused mine failure,change &&
	mcp task_update "{\"id\":\"mine\",\"notify_on\":\"\"}" &&
	refused mine failure,change &&
	test "$(policy mine)" = failure,change
'

test_expect_success 'the default of a person'\''s task is theirs too' '
	mcp task_update "{\"id\":\"plain\",\"notify_on\":\"failure\"}" &&
	refused plain failure,recovery &&
	test "$(policy plain)" = "<default>"
'

test_expect_success 'an agent may make a person'\''s task tell of more, and take back what it added' '
	mcp task_update "{\"id\":\"mine\",\"notify_on\":\"failure,change,recovery\"}" &&
	grep -q "^Task .* updated" out &&
	test "$(policy mine)" = failure,recovery,change &&
	mcp task_update "{\"id\":\"mine\",\"notify_on\":\"failure,change,success\"}" &&
	grep -q "^Task .* updated" out &&
	test "$(policy mine)" = failure,change,success
'

test_expect_success 'and may still change the rest of it' '
	mcp task_update "{\"id\":\"plain\",\"prompt\":\"q\"}" && grep -q "^Task .* updated" out
'

test_expect_success 'an agent'\''s own task: agents set its policy as they like' '
	mcp task_create "{\"name\":\"theirs\",\"prompt\":\"t1\",\"every\":\"1h\",\"notify_on\":\"always\"}" &&
	mcp task_update "{\"id\":\"theirs\",\"notify_on\":\"never\"}" &&
	grep -q "^Task .* updated" out && test "$(policy theirs)" = never
'

test_expect_success 'until a person sets it: then it is theirs' '
	task-edit --notify-on failure theirs >/dev/null &&
	mcp task_update "{\"id\":\"theirs\",\"notify_on\":\"never\"}" &&
	refused theirs failure &&
	test "$(policy theirs)" = failure
'

test_expect_success 'through a run'\''s tool call: refused in the run'\''s tool results' '
	run=$(task-add --manual --name runner --exec "llm-call --tools" \
		"[[call task_update {\"id\":\"mine\",\"notify_on\":\"never\"}]] go") &&
	task-run "$run" >out &&
	echo "tool results: Refused: task '\''mine'\'' has a notify policy the user set (failure,change); only they can make it tell of fewer runs." >expect &&
	test_cmp expect out &&
	test "$(policy mine)" = failure,change,success
'

test_expect_success 'and a run may silence an agent'\''s task' '
	mcp task_create "{\"name\":\"theirs2\",\"prompt\":\"t2\",\"every\":\"1h\"}" &&
	run=$(task-add --manual --name runner2 --exec "llm-call --tools" \
		"[[call task_update {\"id\":\"theirs2\",\"notify_on\":\"never\"}]] go") &&
	task-run "$run" >out &&
	grep -q "^tool results: Task .* updated" out &&
	test "$(policy theirs2)" = never
'

test_done
