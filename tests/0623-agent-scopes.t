#!/bin/sh
# Scopes: a task's --scope keeps the agents of that scope (task-mcp --scope,
# and the runs of a scoped task through TASK_SCOPE, down to the task-mcp
# that llm-call starts as an MCP server) to that scope's tasks and
# conversations; a session without a scope sees every task, as the user
# does.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
uuids() { sed "s/[0-9a-f]\{8\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}/<uuid>/g"; }
# id_of NAME: the id of the task named NAME.
id_of() {
	task-ls --json | sed -n "s/.*\"id\":\"\([^\"]*\)\",\"name\":\"$1\".*/\1/p"
}
# json_field ID FIELD: the value of FIELD in task-ls --json's line of task ID.
json_field() {
	task-ls --json | grep "\"id\":\"$1\"" | sed "s/.*\"$2\":\(\"[^\"]*\"\|null\).*/\1/"
}
port=$("$AC_BUILD/tools/fake-provider" -d "$TEST_TMP/fp" -i 30 -t 200) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1
export OPENAI_BASE_URL

test_expect_success 'task-add --scope: in JSON and task-show; task-edit moves it; bad names refused' '
	work=$(task-add --manual --scope work --context notes --name "Work notes" "Work things") &&
	home=$(task-add --manual --scope home --context notes --name "Home notes" "Home things") &&
	task-add --manual --name Everyone "Unscoped things" >/dev/null &&
	echo "\"work\"" >expect &&
	json_field "$work" scope >actual &&
	test_cmp expect actual &&
	task-show "$work" | grep "^scope:" >actual &&
	echo "scope:        work" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 task-add --manual --scope "a/b" x 2>err &&
	echo "task-add: scope '\''a/b'\'' is not a name of 1 to 64 letters, digits, '\''.'\'', '\''_'\'' or '\''-'\''" >expect &&
	test_cmp expect err &&
	id=$(task-add --manual --scope tmp --name Move m) &&
	task-edit "$id" --scope "" >out &&
	printf "scope: tmp -> none\nnext run: none\n" >expect &&
	test_cmp expect out &&
	echo null >expect &&
	json_field "$id" scope >actual &&
	test_cmp expect actual &&
	task-rm "$id" >/dev/null
'

test_expect_success 'task-mcp --scope work: every profile lists and shows only work'\''s tasks' '
	home=$(id_of "Home notes") &&
	cat >calls <<-EOF &&
	{"name":"task_list","arguments":{}}
	{"name":"task_show","arguments":{"id":"$home"}}
	{"name":"task_update","arguments":{"id":"$home","prompt":"stolen"}}
	{"name":"list_scheduled_tasks","arguments":{}}
	{"name":"scheduler:list_tasks","arguments":{}}
	{"name":"scheduler:show_task","arguments":{"uuid":"$home"}}
	{"name":"list_tasks","arguments":{}}
	{"name":"scheduler.list","arguments":{}}
	EOF
	task-ls --json >before &&
	test_expect_code 2 task-mcp -p all --scope work --call <calls >out 2>err &&
	test ! -s err &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	Found 1 task:

	1. Work notes
	   ID: <uuid>
	   Schedule: Manual
	   Status: pending, enabled
	   Next run: none (runs only when asked: task_run)
	   Last run: never
	Task not found with ID '\''<uuid>'\''.
	Task not found with ID '\''<uuid>'\''.
	Found 1 scheduled task:

	1. [id: <uuid>] Work notes
	   Schedule: Manual
	   Enabled: true
	   Last execution: Never
	   Next trigger: None
	[
	    {
	        "uuid": "<uuid>",
	        "name": "Work notes",
	        "type": "adhoc",
	        "state": "idle",
	        "schedule": null,
	        "next_run": null
	    }
	]
	Task not found: <uuid>
	1 task:
	- id: <uuid>
	  description: Work notes
	  status: PENDING
	  trigger: MANUAL
	1 job:
	- <uuid> | pending | manual | next run: none
	EOF
	test_cmp expect actual &&
	task-ls --json >after &&
	test_cmp before after &&
	echo "{\"name\":\"task_list\",\"arguments\":{}}" | task-mcp --call | grep -c "^[0-9]*\. " >actual &&
	echo 3 >expect &&
	test_cmp expect actual
'

test_expect_success 'a scoped session makes tasks only in its scope' '
	cat >calls <<-\EOF &&
	{"name":"task_create","arguments":{"name":"Made","prompt":"made in work","manual":true}}
	{"name":"task_create","arguments":{"name":"Elsewhere","prompt":"x","manual":true,"scope":"home"}}
	{"name":"task_create","arguments":{"name":"Said","prompt":"said work","manual":true,"scope":"work"}}
	{"name":"scheduler:create_adhoc_task","arguments":{"name":"Zero","prompt":"zero"}}
	EOF
	test_expect_code 2 task-mcp -p native,agent-zero --scope work --call <calls >out &&
	grep "^Refused" out >actual &&
	echo "Refused: this session sees and makes only tasks of scope '\''work'\''." >expect &&
	test_cmp expect actual &&
	task-ls --json | grep -e "\"name\":\"Made\"" -e "\"name\":\"Said\"" -e "\"name\":\"Zero\"" |
		sed "s/.*\"name\":\"\([^\"]*\)\".*\"scope\":\(\"[^\"]*\"\|null\).*/\1 \2/" >actual &&
	cat >expect <<-\EOF &&
	Made "work"
	Said "work"
	Zero "work"
	EOF
	test_cmp expect actual &&
	made=$(id_of Made) &&
	echo "{\"name\":\"task_update\",\"arguments\":{\"id\":\"$made\",\"scope\":\"home\"}}" >calls &&
	test_expect_code 2 task-mcp --scope work --call <calls >out &&
	echo "Refused: this session sees and makes only tasks of scope '\''work'\''." >expect &&
	test_cmp expect out &&
	TASK_SCOPE=work test_expect_code 2 task-mcp --scope home --call </dev/null 2>err &&
	echo "task-mcp: --scope '\''home'\'' differs from this run'\''s scope '\''work'\'' (TASK_SCOPE)" >expect &&
	test_cmp expect err
'

test_expect_success 'an id prefix ambiguous among all tasks is unique within the scope' '
	cat >import <<-\EOF &&
	{"id":"abcd0000-0000-4000-8000-000000000001","name":"A1","prompt":"a1","kind":"manual","scope":"work"}
	{"id":"abcd0000-0000-4000-8000-000000000002","name":"A2","prompt":"a2","kind":"manual","scope":"home"}
	EOF
	task-add --json - <import >/dev/null &&
	echo "{\"name\":\"task_show\",\"arguments\":{\"id\":\"abcd0000\"}}" >calls &&
	task-mcp --scope work --call <calls | sed -n 1p >actual &&
	echo "Task '\''A1'\''" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 task-mcp --call <calls >actual &&
	echo "Id prefix '\''abcd0000'\'' is ambiguous: abcd0000-0000, abcd0000-0000; give more characters." >expect &&
	test_cmp expect actual
'

test_expect_success 'a scope'\''s conversation is its own: the same context name elsewhere is another' '
	TASK_SCOPE=work llm-call -c notes "The work secret is 42." >out &&
	TASK_SCOPE=home llm-call -c notes "What is the work secret?" >out &&
	grep "^body.messages\[[0-9]*\].content" fp/last.req >actual &&
	echo "body.messages[0].content = \"What is the work secret?\"" >expect &&
	test_cmp expect actual &&
	llm-call -c notes "And unscoped?" >out &&
	grep "^body.messages\[[0-9]*\].content" fp/last.req >actual &&
	echo "body.messages[0].content = \"And unscoped?\"" >expect &&
	test_cmp expect actual &&
	TASK_SCOPE=work llm-call --json -c notes "Again?" >out &&
	grep -c "^body.messages\[[0-9]*\].content" fp/last.req >actual &&
	echo 3 >expect &&
	test_cmp expect actual &&
	grep -q "\"context\":\"work/notes\"" out &&
	TASK_SCOPE="../x" test_expect_code 2 llm-call -c notes hi 2>err &&
	test_one_line err
'

# The conversation the home run joins is home's own (the exchange of the test
# before), none of work's.  It is also the user's task "Home notes"'s, which
# agents join only when the user lets them (agent_edit = all).
test_expect_success 'a home run cannot read work'\''s task nor join its conversation' '
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	echo "agent_edit = all" >"$XDG_CONFIG_HOME/agentcron/config" &&
	test_when_finished "rm -f \"$XDG_CONFIG_HOME/agentcron/config\"" &&
	work=$(id_of "Work notes") &&
	spy=$(task-add --manual --scope home --exec "llm-call --tools" --name Spy \
		"[[call task_show {\"id\":\"$work\"}]][[call task_create {\"name\":\"Join\",\"prompt\":\"What is the work secret?\",\"context\":\"notes\",\"manual\":true}]] go") &&
	task-run "$spy" >out &&
	uuids <out | sed -n "1s/ | .*//p" >actual &&
	echo "tool results: Task not found with ID '\''<uuid>'\''." >expect &&
	test_cmp expect actual &&
	join=$(id_of Join) &&
	echo "\"home\"" >expect &&
	json_field "$join" scope >actual &&
	test_cmp expect actual &&
	task-run "$join" >out &&
	grep "^body.messages\[[0-9]*\].content" fp/last.req >actual &&
	cat >expect <<-\EOF &&
	body.messages[0].content = "What is the work secret?"
	body.messages[1].content = "echo: What is the work secret?"
	body.messages[2].content = "What is the work secret?"
	EOF
	test_cmp expect actual
'

test_expect_success 'the runs of a scoped task: TASK_SCOPE, and their task-mcp sees only the scope' '
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<-\EOF &&
	{ "mcpServers": { "agentcron": { "command": "task-mcp", "args": ["--profile", "native"] } } }
	EOF
	chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json" &&
	id=$(task-add --manual --scope work --mcp agentcron --name Lister \
		"[[call mcp__agentcron__task_list {}]] list") &&
	task-run "$id" >out &&
	sed -n "s/^tool results: //p" out | uuids >actual &&
	test -s actual &&
	! grep -q -e "Home notes" -e Everyone out &&
	grep -q "Work notes" out &&
	printf "#!/bin/sh\necho \"scope=\$TASK_SCOPE\"\n" >show-scope &&
	chmod +x show-scope &&
	id=$(task-add --manual --scope work --exec "$PWD/show-scope" --name Env e) &&
	task-run "$id" >actual &&
	echo "scope=work" >expect &&
	test_cmp expect actual
'

kill "$(cat fp/pid)"
test_done
