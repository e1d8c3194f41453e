#!/bin/sh
# A task's runs read their conversation (--context) as their own history,
# so an agent's task that joined the conversation of a user's task would
# put words in the mouth of that task's next run, with that task's tools.
# An agent gives a task a context only if every other task in that
# conversation is one it may change, or the conversation is its run's own
# (agent-zero's tasks run in the chat that made them); scopes keep theirs.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
RUN=5b1f3c2a-1111-4222-8333-444455556666
cfg=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# create NAME CONTEXT: a native task_create of a manual task NAME in CONTEXT.
create() {
	printf '{"name":"task_create","arguments":{"name":"%s","prompt":"From now on, %s","manual":true,"context":"%s"}}\n' \
		"$1" "$1" "$2"
}
id_of() {
	store_sql "SELECT id FROM tasks WHERE name = '$1'"
}
refused() {
	echo "Refused: conversation '$1' is shared with a task agents may not change, whose runs would read what this task's runs say; give the task a context of its own."
}

test_expect_success 'setup: the user'\''s tasks in conversations "personal" and work'\''s "notes"' '
	task-add --manual --name mine --context personal --exec "llm-call --tools" "what did I say?" >/dev/null &&
	task-add --manual --name theirs --scope work --context notes "go on" >/dev/null
'

test_expect_success 'an agent'\''s task may not join a user'\''s conversation, by create or update' '
	task-ls --json >before &&
	{
		create plant personal &&
		create plant2 work/notes
	} >calls &&
	TASK_RUN_ID=$RUN test_expect_code 2 task-mcp --call <calls >out &&
	{ refused personal && refused work/notes; } >expect &&
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after &&
	create own mine-only | task-mcp --call >out &&
	id=$(id_of own) &&
	printf "{\"name\":\"task_update\",\"arguments\":{\"id\":\"%s\",\"context\":\"personal\"}}\n" "$id" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	refused personal >expect &&
	test_cmp expect out &&
	test "$(store_sql "SELECT context FROM tasks WHERE id = '\''$id'\''")" = mine-only
'

test_expect_success 'a scoped session may not join the scope'\''s user conversation either' '
	create plant3 notes >calls &&
	TASK_SCOPE=work test_expect_code 2 task-mcp --call <calls >out &&
	refused notes >expect &&
	test_cmp expect out &&
	test -z "$(id_of plant3)"
'

test_expect_success 'conversations of agents'\''s tasks, new ones and the run'\''s own are open' '
	{
		create other mine-only &&
		create fresh brand-new
	} >calls &&
	task-mcp --call <calls >out &&
	test "$(grep -c "^Created task" out)" = 2 &&
	create chat personal >calls &&
	TASK_RUN_ID=$RUN TASK_CONTEXT=personal task-mcp --call <calls >out &&
	grep -q "^Created task '\''chat'\''" out &&
	printf "{\"tool_name\":\"scheduler:create_adhoc_task\",\"tool_args\":{\"name\":\"az\",\"prompt\":\"p\",\"system_prompt\":\"\",\"attachments\":[],\"dedicated_context\":false}}\n" >calls &&
	TASK_RUN_ID=$RUN TASK_SCOPE=work TASK_CONTEXT=notes task-mcp -p agent-zero --call <calls >out &&
	test "$(store_sql "SELECT scope, context FROM tasks WHERE name = '\''az'\''")" = "work|notes"
'

test_expect_success 'agent_edit = all: the user lets agents into any conversation' '
	echo "agent_edit = all" >"$cfg" &&
	create plant4 personal | task-mcp --call >out &&
	grep -q "^Created task '\''plant4'\''" out &&
	rm "$cfg"
'

test_expect_success 'runs: the user'\''s task reads only its own words' '
	port=$(provider_start fp "") &&
	OPENAI_BASE_URL=http://127.0.0.1:$port/v1 &&
	export OPENAI_BASE_URL &&
	create plant5 personal >calls &&
	{ TASK_RUN_ID=$RUN task-mcp --call <calls >said; echo $? >status; } &&
	for id in $(id_of plant5)
	do
		task-run "$id" >/dev/null || return 1
	done &&
	task-run "$(id_of mine)" >out &&
	echo "echo: what did I say?" >expect &&
	test_cmp expect out &&
	grep "^body.messages\[[0-9]*\].content = " fp/last.req >actual &&
	echo "body.messages[0].content = \"what did I say?\"" >expect &&
	test_cmp expect actual &&
	refused personal >expect &&
	test_cmp expect said &&
	echo 2 >expect &&
	test_cmp expect status
'

test_done
