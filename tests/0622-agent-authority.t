#!/bin/sh
# Agent tools act with the authority of the run that calls them, never
# more: the MCP servers and tool patterns an agent gives a task, the files
# it attaches, the tasks it may change and how many tool calls a model
# round gets.  Each abuse is a tool error the model reads, and the store is
# as it was.  llm-call never attaches its config, key files, mcp.json,
# ~/.pgpass, the store or /proc, whoever asks.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
RUN=5b1f3c2a-1111-4222-8333-444455556666
uuids() { sed "s/[0-9a-f]\{8\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}/<uuid>/g"; }
cfg=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# create NAME ARGS: a call of the native task_create of a daily task NAME,
# its prompt too, with ARGS (",..." JSON members) added.
create() {
	printf '{"name":"task_create","arguments":{"name":"%s","prompt":"%s","daily":"07:00"%s}}\n' \
		"$1" "$1" "$2"
}

test_expect_success 'no MCP access: all, a server by name and wider patterns are refused' '
	task-ls --json >before &&
	{
		create Report ",\"mcp\":[\"all\"]" &&
		create Report ",\"mcp\":[\"shell\"]" &&
		create Report ",\"mcp\":[\"ALL\"],\"mcp_allow\":[\"*\"]"
	} >calls &&
	test_expect_code 2 task-mcp --call <calls >out 2>err &&
	test ! -s err &&
	cat >expect <<-\EOF &&
	Refused: an agent may not give a task '\''all'\'' MCP servers; name the ones it needs. The user'\''s config (agent_mcp) lets agents give: none.
	Refused: MCP server '\''shell'\'' is not one this session may give a task. The user'\''s config (agent_mcp) lets agents give: none.
	Refused: an agent may not give a task '\''all'\'' MCP servers; name the ones it needs. The user'\''s config (agent_mcp) lets agents give: none.
	EOF
	test_cmp expect out &&
	TASK_RUN_ID=$RUN TASK_MCP= test_expect_code 2 task-mcp --call <calls >out 2>err &&
	test ! -s err &&
	sed "s/this session/this run/; s/The user'\''s config (agent_mcp) lets agents give/This run may give/" expect >expect.run &&
	test_cmp expect.run out &&
	task-ls --json >after &&
	test_cmp before after
'

test_expect_success 'a run with github and mcp__github__list_*: it gives no more' '
	{
		create Report ",\"mcp\":[\"all\"]" &&
		create Report ",\"mcp\":[\"github\",\"shell\"],\"mcp_allow\":[\"mcp__github__list_*\"]" &&
		create Report ",\"mcp\":[\"github\"],\"mcp_allow\":[\"*\"]" &&
		create Report ",\"mcp\":[\"github\"],\"mcp_allow\":[\"mcp__github__*\"]" &&
		create Report ",\"mcp\":[\"github\"],\"mcp_allow\":[\"mcp__github__l*\"]" &&
		create Report ",\"mcp\":[\"github\"]"
	} >calls &&
	TASK_RUN_ID=$RUN TASK_MCP=github TASK_MCP_ALLOW="mcp__github__list_*" \
		test_expect_code 2 task-mcp --call <calls >out 2>err &&
	test ! -s err &&
	cat >expect <<-\EOF &&
	Refused: an agent may not give a task '\''all'\'' MCP servers; name the ones it needs. This run may give: github.
	Refused: MCP server '\''shell'\'' is not one this run may give a task. This run may give: github.
	Refused: MCP tool pattern '\''*'\'' is wider than this run'\''s own (mcp__github__list_*); give mcp_allow patterns within those.
	Refused: MCP tool pattern '\''mcp__github__*'\'' is wider than this run'\''s own (mcp__github__list_*); give mcp_allow patterns within those.
	Refused: MCP tool pattern '\''mcp__github__l*'\'' is wider than this run'\''s own (mcp__github__list_*); give mcp_allow patterns within those.
	Refused: this run may call only the MCP tools matching mcp__github__list_*; give mcp_allow patterns within those.
	EOF
	test_cmp expect out &&
	task-ls --json >actual &&
	test_cmp before actual
'

test_expect_success 'what is the run'\''s to give it may give: its servers, narrowed patterns' '
	{
		create Narrow ",\"mcp\":[\"github\"],\"mcp_allow\":[\"mcp__github__list_issues\",\"mcp__github__list_open_*\",\"mcp__github__list_*\"]" &&
		create None ",\"mcp\":[]"
	} >calls &&
	TASK_RUN_ID=$RUN TASK_MCP=github TASK_MCP_ALLOW="mcp__github__list_*" \
		task-mcp --call <calls >out 2>err &&
	test ! -s err &&
	grep -c "^Created task" out >actual &&
	echo 2 >expect &&
	test_cmp expect actual &&
	task-ls --json | sed -n "s/.*\"name\":\"\([^\"]*\)\".*\"mcp\":\([^]]*]\|null\),\"mcp_allow\":\([^]]*]\|null\).*/\1 \2 \3/p" >actual &&
	cat >expect <<-\EOF &&
	Narrow ["github"] ["mcp__github__list_issues","mcp__github__list_open_*","mcp__github__list_*"]
	None null null
	EOF
	test_cmp expect actual &&
	create Any ",\"mcp\":[\"github\",\"mail\"],\"mcp_allow\":[\"*\"]" >calls &&
	TASK_RUN_ID=$RUN TASK_MCP=all task-mcp --call <calls >out &&
	grep -q "^Created task '\''Any'\''" out &&
	echo "agent_mcp = mail, notes" >"$cfg" &&
	create Mail ",\"mcp\":[\"mail\"]" >calls &&
	task-mcp --call <calls >out &&
	grep -q "^Created task '\''Mail'\''" out &&
	create Gh ",\"mcp\":[\"github\"]" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	echo "Refused: MCP server '\''github'\'' is not one this session may give a task. The user'\''s config (agent_mcp) lets agents give: mail, notes." >expect &&
	test_cmp expect out &&
	rm "$cfg"
'

test_expect_success 'task_update cannot widen a task'\''s MCP access either' '
	id=$(task-ls --json | sed -n "s/.*\"id\":\"\([^\"]*\)\",\"name\":\"None\".*/\1/p") &&
	task-ls --json >before &&
	printf "{\"name\":\"task_update\",\"arguments\":{\"id\":\"%s\",\"mcp\":[\"all\"]}}\n" "$id" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	echo "Refused: an agent may not give a task '\''all'\'' MCP servers; name the ones it needs. The user'\''s config (agent_mcp) lets agents give: none." >expect &&
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after
'

test_expect_success 'attachments: without agent_attach_dirs only http(s) URLs' '
	echo "root:secret-hash:0:0" >shadow &&
	chmod 600 shadow &&
	echo "openai_api_key = sk-config-secret-0001" >"$cfg" &&
	chmod 600 "$cfg" &&
	task-ls --json >before &&
	{
		create Report ",\"attachments\":[\"$TEST_TMP/shadow\"]" &&
		create Report ",\"attachments\":[\"https://example.com/a.txt\",\"$cfg\"]" &&
		create Report ",\"attachments\":[\"file://$TEST_TMP/shadow\"]"
	} >calls &&
	test_expect_code 2 task-mcp --call <calls >out 2>err &&
	test ! -s err &&
	cat >expect <<-EOF &&
	Refused: attachment '\''$TEST_TMP/shadow'\'' is a file, and this session may attach only http(s) URLs (the user'\''s config allows agents no directories: agent_attach_dirs).
	Refused: attachment '\''$cfg'\'' is a file, and this session may attach only http(s) URLs (the user'\''s config allows agents no directories: agent_attach_dirs).
	Attachment '\''file://$TEST_TMP/shadow'\'': only http and https URLs.
	EOF
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after &&
	create Web ",\"attachments\":[\"https://example.com/a.txt\"]" >calls &&
	task-mcp --call <calls >out &&
	grep -q "^Created task '\''Web'\''" out
'

test_expect_success 'agent_attach_dirs: files under them, resolved; .., links, the config and the store are not' '
	mkdir -p shared/sub &&
	echo "minutes" >shared/minutes.txt &&
	ln -s ../shadow shared/shadow-link &&
	ln -s "$XDG_CONFIG_HOME/agentcron" shared/conf &&
	printf "openai_api_key = sk-config-secret-0001\nagent_attach_dirs = shared, ~/shared/sub\n" >"$cfg" &&
	chmod 600 "$cfg" &&
	task-ls --json >before &&
	{
		create Report ",\"attachments\":[\"shared/../shadow\"]" &&
		create Report ",\"attachments\":[\"shared/shadow-link\"]" &&
		create Report ",\"attachments\":[\"shared/conf/config\"]" &&
		create Report ",\"attachments\":[\"shared/nosuchdir/x\"]" &&
		for a in shared/../shadow shared/shadow-link shared/conf/config shared/nosuchdir/x
		do
			printf "{\"name\":\"scheduler:create_adhoc_task\",\"arguments\":{\"name\":\"A\",\"prompt\":\"a\",\"attachments\":[\"%s\"]}}\n" "$a" || return 1
		done
	} >calls &&
	test_expect_code 2 task-mcp -p native,agent-zero --call <calls >out 2>err &&
	test ! -s err &&
	dirs="($TEST_TMP/shared, $TEST_TMP/shared/sub)" &&
	cat >expect <<-EOF &&
	Refused: attachment '\''$TEST_TMP/shadow'\'' is not under a directory the user allows agents to attach from $dirs.
	Refused: attachment '\''$TEST_TMP/shadow'\'' is not under a directory the user allows agents to attach from $dirs.
	Refused: attachment '\''$cfg'\'' is not under a directory the user allows agents to attach from $dirs.
	Attachment '\''shared/nosuchdir/x'\'': No such file or directory.
	Refused: attachment '\''shared/../shadow'\'' is not under a directory the user allows agents to attach from $dirs.
	Refused: attachment '\''shared/shadow-link'\'' is not under a directory the user allows agents to attach from $dirs.
	Refused: attachment '\''shared/conf/config'\'' is not under a directory the user allows agents to attach from $dirs.
	Refused: attachment '\''shared/nosuchdir/x'\'' cannot be found: No such file or directory.
	EOF
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after &&
	printf "agent_attach_dirs = %s\n" "$TEST_TMP" >"$cfg" &&
	{
		create Report ",\"attachments\":[\"$XDG_CONFIG_HOME/agentcron/config\"]" &&
		printf "{\"name\":\"scheduler:create_adhoc_task\",\"arguments\":{\"name\":\"A\",\"prompt\":\"a\",\"attachments\":[\"shared/conf/mcp.json\"]}}\n" &&
		if test "$AC_STORE" = sqlite
		then
			create Report ",\"attachments\":[\"$TASK_DB\"]"
		fi
	} >calls &&
	test_expect_code 2 task-mcp -p native,agent-zero --call <calls >out &&
	sed "s|$TASK_DB|STORE|" out >actual &&
	cat >expect <<-EOF &&
	Refused: attachment '\''$cfg'\'' is the scheduler'\''s settings, store or keys, which are never attached.
	Refused: attachment '\''shared/conf/mcp.json'\'' is the scheduler'\''s settings, store or keys, which are never attached.
	EOF
	if test "$AC_STORE" = sqlite
	then
		echo "Refused: attachment '\''STORE'\'' is the scheduler'\''s settings, store or keys, which are never attached." >>expect
	fi &&
	test_cmp expect actual &&
	task-ls --json >after &&
	test_cmp before after &&
	printf "agent_attach_dirs = shared\n" >"$cfg" &&
	{
		create Minutes ",\"attachments\":[\"shared/sub/../minutes.txt\"]" &&
		printf "{\"name\":\"scheduler:create_adhoc_task\",\"arguments\":{\"name\":\"Later\",\"prompt\":\"later\",\"attachments\":[\"shared/sub/../later.txt\"]}}\n"
	} >calls &&
	task-mcp -p native,agent-zero --call <calls >out &&
	task-ls --json | sed -n "s/.*\"name\":\"\(Minutes\|Later\)\".*\"attachments\":\(\[[^]]*]\).*/\1 \2/p" >actual &&
	cat >expect <<-EOF &&
	Minutes ["$TEST_TMP/shared/minutes.txt"]
	Later ["$TEST_TMP/shared/later.txt"]
	EOF
	test_cmp expect actual &&
	rm "$cfg"
'

test_expect_success 'a --exec sh task of the user: no rewrite, run, cancel or delete' '
	id=$(task-add --manual --exec sh --name Shell "echo hello") &&
	task-ls --json >before &&
	for t in task_update task_run task_cancel task_delete
	do
		printf "{\"name\":\"%s\",\"arguments\":{\"id\":\"%s\"%s}}\n" "$t" "$id" \
			"$(test $t = task_update && echo ",\"prompt\":\"id\"")" || return 1
	done >calls &&
	cat >>calls <<-EOF &&
	{"name":"run_scheduled_task","arguments":{"task_id":"$id"}}
	{"name":"update_scheduled_task","arguments":{"task_id":"$id","prompt":"id"}}
	{"name":"scheduler:run_task","arguments":{"uuid":"$id"}}
	{"name":"scheduler:delete_task","arguments":{"uuid":"$id"}}
	{"name":"cancel_task","arguments":{"id":"$id"}}
	{"name":"scheduler.update","arguments":{"job_id":"$id","message":"id"}}
	{"name":"scheduler.cancel","arguments":{"job_id":"$id"}}
	EOF
	test_expect_code 2 task-mcp -p all --call <calls >out 2>err &&
	test ! -s err &&
	for i in 1 2 3 4 5 6 7 8 9 10 11
	do
		echo "Refused: task '\''Shell'\'' was made by the user; agents may change, run, cancel or delete only tasks an agent made." || return 1
	done >expect &&
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after &&
	task-tick >out &&
	test ! -s out
'

test_expect_success 'agent_edit = all: the user lets agents change it' '
	id=$(task-ls --json | sed -n "s/.*\"id\":\"\([^\"]*\)\",\"name\":\"Shell\".*/\1/p") &&
	echo "agent_edit = all" >"$cfg" &&
	printf "{\"name\":\"task_update\",\"arguments\":{\"id\":\"%s\",\"prompt\":\"echo changed\"}}\n" "$id" >calls &&
	task-mcp --call <calls >out &&
	cat >expect <<-\EOF &&
	Task '\''Shell'\'' updated. Changed fields:
	  prompt: echo hello -> echo changed
	Next run: none (runs only when asked: task_run)
	EOF
	test_cmp expect out &&
	echo "agent_edit = some" >"$cfg" &&
	test_expect_code 2 task-mcp --call <calls >out 2>err &&
	echo "task-mcp: $cfg: agent_edit '\''some'\'' is neither '\''agents'\'' nor '\''all'\''" >expect &&
	test_cmp expect err &&
	rm "$cfg"
'

test_expect_success 'a user'\''s llm-call task: no rewrite, run, cancel or delete' '
	id=$(task-add --manual --name Mine "Summarise my day") &&
	task-ls --json >before &&
	for t in task_update task_run task_cancel task_delete
	do
		printf "{\"name\":\"%s\",\"arguments\":{\"id\":\"%s\"%s}}\n" "$t" "$id" \
			"$(test $t = task_update && echo ",\"prompt\":\"Mail my files to x\"")" || return 1
	done >calls &&
	test_expect_code 2 task-mcp --call <calls >out 2>err &&
	test ! -s err &&
	for i in 1 2 3 4
	do
		echo "Refused: task '\''Mine'\'' was made by the user; agents may change, run, cancel or delete only tasks an agent made." || return 1
	done >expect &&
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after &&
	task-show "$id" | grep "^made by:" >actual &&
	echo "made by:      the user" >expect &&
	test_cmp expect actual
'

test_expect_success 'tasks agents made: another session changes them; origin in task-show and JSON' '
	create Theirs "" | TASK_RUN_ID=$RUN task-mcp --call >out &&
	id=$(sed -n "s/^ID: //p" out) &&
	task-show "$id" | grep "^made by:" >actual &&
	echo "made by:      an agent, in run $RUN" >expect &&
	test_cmp expect actual &&
	task-ls --json | sed -n "s/.*\"id\":\"$id\".*\"origin\":\"\([^\"]*\)\".*/\1/p" >actual &&
	echo "agent:run:$RUN" >expect &&
	test_cmp expect actual &&
	printf "{\"name\":\"task_update\",\"arguments\":{\"id\":\"%s\",\"prompt\":\"Theirs, changed\"}}\n{\"name\":\"task_run\",\"arguments\":{\"id\":\"%s\"}}\n" "$id" "$id" >calls &&
	task-mcp --call <calls >out &&
	grep -c "^Task '\''Theirs'\'' \(updated\|has been queued\)" out >actual &&
	echo 2 >expect &&
	test_cmp expect actual &&
	create Session "" | task-mcp --call >out &&
	sid=$(sed -n "s/^ID: //p" out) &&
	task-ls --json | sed -n "s/.*\"id\":\"$sid\".*\"origin\":\"agent:session:\([^\"]*\)\".*/\1/p" >actual &&
	test $(uuids <actual) = "<uuid>" &&
	task-edit "$id" --exec "sh -c id" >/dev/null &&
	printf "{\"name\":\"task_run\",\"arguments\":{\"id\":\"%s\"}}\n" "$id" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	echo "Refused: task '\''Theirs'\'' runs '\''sh'\'', not llm-call; agents may not change, run, cancel or delete it." >expect &&
	test_cmp expect out
'

test_expect_success 'a task with MCP access beyond the caller'\''s own: no rewrite or run' '
	create Gitty ",\"mcp\":[\"github\"],\"mcp_allow\":[\"mcp__github__list_*\"]" |
		TASK_RUN_ID=$RUN TASK_MCP=github TASK_MCP_ALLOW="mcp__github__*" task-mcp --call >out &&
	id=$(sed -n "s/^ID: //p" out) &&
	task-ls --json >before &&
	printf "{\"name\":\"task_update\",\"arguments\":{\"id\":\"%s\",\"prompt\":\"Delete every repository\"}}\n{\"name\":\"task_run\",\"arguments\":{\"id\":\"%s\"}}\n" "$id" "$id" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	cat >expect <<-\EOF &&
	Refused: task '\''Gitty'\'' has MCP access beyond this session'\''s own, so this session may not change, run, cancel or delete it.
	Refused: task '\''Gitty'\'' has MCP access beyond this session'\''s own, so this session may not change, run, cancel or delete it.
	EOF
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after &&
	TASK_RUN_ID=$RUN TASK_MCP=github TASK_MCP_ALLOW="mcp__github__list_*" task-mcp --call <calls >out &&
	grep -c "^Task '\''Gitty'\'' \(updated\|has been queued\)" out >actual &&
	echo 2 >expect &&
	test_cmp expect actual
'

test_expect_success '2,000 creates in one session: agent_max_create (10) are made, the rest refused' '
	reset_store &&
	i=0 &&
	while test $i -lt 2000
	do
		printf "{\"name\":\"task_create\",\"arguments\":{\"prompt\":\"Flood %d\",\"cron\":\"* * * * *\"}}\n" $i || return 1
		i=$((i + 1))
	done >calls &&
	test_expect_code 2 task-mcp --call <calls >out 2>err &&
	test ! -s err &&
	grep -c "^Created task" out >actual &&
	echo 10 >expect &&
	test_cmp expect actual &&
	grep "^Refused" out | sort | uniq -c | sed "s/^ *//" >actual &&
	echo "1990 Refused: this session has created 10 tasks, the most one session may create (agent_max_create)." >expect &&
	test_cmp expect actual &&
	test $(task-ls | wc -l) -eq 10
'

test_expect_success 'agent_max_create counts a run'\''s tasks across its sessions, deleted ones too' '
	reset_store &&
	for i in 1 2 3 4 5 6
	do
		create "Run $i" "" || return 1
	done >calls &&
	TASK_RUN_ID=$RUN task-mcp --call <calls >out &&
	id=$(sed -n "s/^ID: //p" out | head -1) &&
	printf "{\"name\":\"task_delete\",\"arguments\":{\"id\":\"%s\"}}\n" "$id" >calls &&
	TASK_RUN_ID=$RUN task-mcp --call <calls >out &&
	for i in 7 8 9 10 11 12
	do
		create "Run $i" "" || return 1
	done >calls &&
	TASK_RUN_ID=$RUN test_expect_code 2 task-mcp -p native,kai --call <calls >out &&
	grep -c "^Created task" out >actual &&
	echo 4 >expect &&
	test_cmp expect actual &&
	grep "^Refused" out >actual &&
	cat >expect <<-\EOF &&
	Refused: this run has created 10 tasks, the most one run may create (agent_max_create).
	Refused: this run has created 10 tasks, the most one run may create (agent_max_create).
	EOF
	test_cmp expect actual &&
	echo "{\"name\":\"schedule_task\",\"arguments\":{\"description\":\"k\",\"prompt\":\"k\",\"cron\":\"0 9 * * *\"}}" >calls &&
	TASK_RUN_ID=$RUN test_expect_code 2 task-mcp -p kai --call <calls >out &&
	echo "Refused: this run has created 10 tasks, the most one run may create (agent_max_create)." >expect &&
	test_cmp expect out
'

test_expect_success 'agent_max_tasks bounds the active tasks of all agents; agent_max_create = 0 none' '
	echo "agent_max_tasks = 10" >"$cfg" &&
	task-add --daily 07:00 --name User "the user'\''s own do not count" >/dev/null &&
	create "Tenth" "" | task-mcp --call >out &&
	grep -q "^Created task" out &&
	create "Eleventh" "" | test_expect_code 2 task-mcp --call >out &&
	echo "Refused: agents have 10 active tasks, the most the user allows (agent_max_tasks); cancel or delete some first." >expect &&
	test_cmp expect out &&
	echo "agent_max_create = 0" >"$cfg" &&
	create "None" "" | test_expect_code 2 task-mcp --call >out &&
	echo "Refused: the user'\''s config lets agents create no tasks (agent_max_create = 0)." >expect &&
	test_cmp expect out &&
	rm "$cfg"
'

port=$(FAKE_PROVIDER_KEY=sk-config-secret-0001 "$AC_BUILD/tools/fake-provider" -d "$TEST_TMP/fp" -i 30 -t 200) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1
export OPENAI_BASE_URL

test_expect_success 'llm-call never attaches its config, mcp.json, keys, ~/.pgpass, the store or /proc' '
	printf "openai_api_key = sk-config-secret-0001\n" >"$cfg" &&
	chmod 600 "$cfg" &&
	echo "{\"mcpServers\":{}}" >"$XDG_CONFIG_HOME/agentcron/mcp.json" &&
	ln "$cfg" hard-config &&
	ln -s "$cfg" soft-config &&
	echo "*:*:*:*:pg-secret" >.pgpass &&
	echo "sk-keyfile-secret-0002" >key &&
	chmod 600 .pgpass key &&
	for a in "$cfg" hard-config soft-config "$XDG_CONFIG_HOME/agentcron/../agentcron/mcp.json" \
		.pgpass key /proc/self/environ
	do
		test_expect_code 2 llm-call --key-file key -a "$a" hi >out 2>err || return 1
		test ! -s out &&
		echo "llm-call: attachment '\''$a'\'' is never sent to a model: it is agentcron'\''s config or store, a key file, a PostgreSQL password or service file or a file of /proc" >expect &&
		test_cmp expect err || return 1
	done &&
	if test "$AC_STORE" = sqlite
	then
		test_expect_code 2 llm-call -a "$TASK_DB" hi 2>err &&
		grep -q "never sent to a model" err
	fi &&
	test ! -e fp/requests.log &&
	echo "minutes" >minutes.txt &&
	llm-call -a minutes.txt hi >out &&
	cat >expect <<-\EOF &&
	echo: <attachment name="minutes.txt">
	minutes
	</attachment>

	hi
	EOF
	test_cmp expect out
'

test_expect_success 'a scheduled run attaching the config fails; the key reaches neither the provider nor the store' '
	n=$(wc -l <fp/requests.log) &&
	id=$(task-add --at 12:05 --attach "$cfg" --name Leak "Summarise") &&
	TASK_NOW=2026-03-01T12:05:10Z task-tick >out 2>err &&
	grep -q "\"status\":\"failed\"" out &&
	test $(wc -l <fp/requests.log) -eq $n &&
	store_dump >dump &&
	! grep -q sk-config-secret dump &&
	! grep -q sk-config-secret fp/*.req
'

test_expect_success 'tool calls per model round are capped (agent_max_calls)' '
	printf "openai_api_key = sk-config-secret-0001\nagent_max_calls = 3\n" >"$cfg" &&
	llm-call --tools "[[parallel]][[call task_list {\"limit\":1}]][[call task_list {\"limit\":1}]][[call task_list {\"limit\":1}]][[call task_create {\"prompt\":\"x\",\"manual\":true}]][[call task_create {\"prompt\":\"y\",\"manual\":true}]] go" >out &&
	sed -n "s/^body.messages\[[0-9]*\].content = \"\(Refused: [^\"]*\)\"$/\1/p" fp/last.req >actual &&
	cat >expect <<-\EOF &&
	Refused: at most 3 tool calls are answered in one round (agent_max_calls); make this one again in a later round.
	Refused: at most 3 tool calls are answered in one round (agent_max_calls); make this one again in a later round.
	EOF
	test_cmp expect actual &&
	test $(grep -c "^body.messages\[[0-9]*\].role = \"tool\"" fp/last.req) -eq 5 &&
	task-ls --json >actual &&
	! grep -q "\"prompt\":\"[xy]\"" actual &&
	echo "agent_max_calls = many" >"$cfg" &&
	test_expect_code 78 llm-call --tools hi 2>err &&
	echo "llm-call: $cfg: agent_max_calls '\''many'\'' is not a number from 0 to 1000000" >expect &&
	test_cmp expect err
'

kill "$(cat fp/pid)"
test_done
