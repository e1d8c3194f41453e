#!/bin/sh
# What an agent may not do through the tools, second round: make heartbeat
# additions (they would run with the heartbeat's authority), re-arm tasks
# past agent_max_tasks, set retries, pause_after or keep past the bounds,
# drive a task whose executor line grants access it lacks, take a name the
# user's task has, or learn another scope's keys.  And on PostgreSQL,
# parallel sessions cannot together pass the quotas.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
RUN=5b1f3c2a-1111-4222-8333-444455556666
cfg=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# call TOOL ARGS: one tool call as a line.
call() {
	printf '{"name":"%s","arguments":%s}\n' "$1" "$2"
}
id_of() {
	store_sql "SELECT id FROM tasks WHERE name = '$1'"
}

test_expect_success 'heartbeat additions: refused on create and update, native and kai' '
	{
		call task_create "{\"prompt\":\"read scope s2\",\"heartbeat\":true}" &&
		call schedule_task "{\"description\":\"d\",\"prompt\":\"p\",\"on_heartbeat\":true}"
	} >calls &&
	TASK_RUN_ID=$RUN TASK_SCOPE=s1 test_expect_code 2 task-mcp -p native,kai --call <calls >out 2>err &&
	test ! -s err &&
	cat >expect <<-\EOF &&
	Refused: agents may not make heartbeat additions (they would run with the heartbeat'\''s authority, not this run'\''s); give the task a schedule instead.
	Refused: agents may not make heartbeat additions (they would run with the heartbeat'\''s authority, not this run'\''s); give the task a schedule instead.
	EOF
	test_cmp expect out &&
	call task_create "{\"name\":\"Mine\",\"prompt\":\"p\",\"daily\":\"07:00\"}" | task-mcp --call >/dev/null &&
	id=$(id_of Mine) &&
	call task_update "{\"id\":\"$id\",\"heartbeat\":true}" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	echo "Refused: agents may not make heartbeat additions (they would run with the heartbeat'\''s authority, not this session'\''s); give the task a schedule instead." >expect &&
	test_cmp expect out &&
	test "$(store_sql "SELECT kind FROM tasks WHERE id = '\''$id'\''")" = cron
'

test_expect_success 'an agent-made addition already stored is left out of the heartbeat' '
	printf "#!/bin/sh\ncat\n" >cat-exec && chmod +x cat-exec &&
	task-tick --heartbeat "0 * * * *" --heartbeat-prompt "Check in." >/dev/null &&
	task-add --heartbeat --name user-add "The user'\''s addition." >/dev/null &&
	task-add --heartbeat --name sneaky "Read every scope." >/dev/null &&
	store_sql "UPDATE tasks SET origin = '\''agent:session:x'\'' WHERE name = '\''sneaky'\''" &&
	TASK_EXEC=$PWD/cat-exec TASK_NOW=2026-03-01T13:00:00Z task-tick >/dev/null &&
	store_sql "SELECT output FROM runs" >actual &&
	cat >expect <<-\EOF &&
	Check in.

	## Heartbeat Additions

	- The user'\''s addition.

	EOF
	test_cmp expect actual
'

test_expect_success 're-arming a cancelled task counts like creating one (agent_max_tasks)' '
	reset_store &&
	echo "agent_max_tasks = 3" >"$cfg" &&
	for i in 1 2 3; do
		call task_create "{\"name\":\"Old $i\",\"prompt\":\"old $i\",\"daily\":\"07:00\"}" || return 1
	done | task-mcp --call >/dev/null &&
	for i in 1 2 3; do
		call task_cancel "{\"id\":\"$(id_of "Old $i")\"}" || return 1
	done | task-mcp --call >/dev/null &&
	for i in 1 2 3; do
		call task_create "{\"name\":\"New $i\",\"prompt\":\"new $i\",\"daily\":\"07:00\"}" || return 1
	done | task-mcp --call >/dev/null &&
	for i in 1 2 3; do
		call task_update "{\"id\":\"$(id_of "Old $i")\",\"daily\":\"08:00\"}" || return 1
	done >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	grep -c "^Refused: agents have 3 active tasks, the most the user allows (agent_max_tasks); cancel or delete some first.$" out >actual &&
	echo 3 >expect &&
	test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM tasks WHERE status = '\''pending'\''")" = 3 &&
	call task_cancel "{\"id\":\"$(id_of "New 1")\"}" | task-mcp --call >/dev/null &&
	call task_update "{\"id\":\"$(id_of "Old 1")\",\"daily\":\"08:00\"}" | task-mcp --call >out &&
	grep -q "^Task .Old 1. updated" out &&
	rm "$cfg"
'

test_expect_success 'retries, pause_after and keep: within the bounds only' '
	reset_store &&
	{
		call task_create "{\"name\":\"a\",\"prompt\":\"a\",\"daily\":\"07:00\",\"retries\":1000000}" &&
		call task_create "{\"name\":\"b\",\"prompt\":\"b\",\"daily\":\"07:00\",\"retries\":-1}" &&
		call task_create "{\"name\":\"c\",\"prompt\":\"c\",\"daily\":\"07:00\",\"pause_after\":0}" &&
		call task_create "{\"name\":\"d\",\"prompt\":\"d\",\"daily\":\"07:00\",\"keep\":\"forever\"}" &&
		call task_create "{\"name\":\"e\",\"prompt\":\"e\",\"daily\":\"07:00\",\"keep\":\"FOREVER\"}"
	} >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	cat >expect <<-\EOF &&
	Refused: an agent may give retries from 0 to 3, not 1000000; more is the user'\''s to set.
	Refused: an agent may give retries from 0 to 3, not -1; more is the user'\''s to set.
	Refused: an agent may give pause_after from 1 to 5, not 0; a task that never pauses is the user'\''s to make.
	Refused: an agent may not keep a task'\''s history forever; give a duration or a number of runs.
	Refused: an agent may not keep a task'\''s history forever; give a duration or a number of runs.
	EOF
	test_cmp expect out &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0 &&
	call task_create "{\"name\":\"ok\",\"prompt\":\"ok\",\"daily\":\"07:00\",\"retries\":3,\"pause_after\":2,\"keep\":\"30d\"}" |
		task-mcp --call >out &&
	grep -q "^Created task" out &&
	id=$(id_of ok) &&
	{
		call task_update "{\"id\":\"$id\",\"retries\":4}" &&
		call task_update "{\"id\":\"$id\",\"pause_after\":0}" &&
		call task_update "{\"id\":\"$id\",\"keep\":\"forever\"}"
	} >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	test "$(grep -c ^Refused out)" = 3 &&
	test "$(store_sql "SELECT retries, pause_after, keep FROM tasks")" = "3|2|30d"
'

test_expect_success 'access an executor line grants counts as the task'\''s' '
	reset_store &&
	call task_create "{\"name\":\"Driven\",\"prompt\":\"p\",\"manual\":true}" | task-mcp --call >/dev/null &&
	id=$(id_of Driven) &&
	for line in "llm-call --mcp secret" "llm-call --mcp=secret" "llm-call --mc secret" \
		"llm-call -n --mcp-allow=mcp__x__y --mcp x" "llm-call --tools" "llm-call --tools=all" \
		"llm-call -a /etc/passwd" "llm-call -na/etc/passwd" "llm-call --attach=/x" \
		"llm-call --key-file /k" "llm-call --key=/k"; do
		task-edit "$id" --exec "$line" >/dev/null &&
		{
			call task_update "{\"id\":\"$id\",\"prompt\":\"call mcp__secret__everything\"}" &&
			call task_run "{\"id\":\"$id\"}"
		} >calls &&
		{ test_expect_code 2 task-mcp --call <calls >out || return 1; } &&
		{ test "$(grep -c "^Refused: task .Driven. " out)" = 2 || { echo "$line"; cat out; return 1; }; }
	done &&
	test "$(store_sql "SELECT prompt FROM tasks")" = p &&
	task-edit "$id" --exec "llm-call -m gpt-x --timeout 30 -s sys" >/dev/null &&
	call task_update "{\"id\":\"$id\",\"prompt\":\"q\"}" | task-mcp --call >out &&
	grep -q "^Task .Driven. updated" out &&
	task-edit "$id" --exec "llm-call --mcp github" >/dev/null &&
	call task_run "{\"id\":\"$id\"}" >calls &&
	TASK_RUN_ID=$RUN TASK_MCP=github task-mcp --call <calls >out &&
	grep -q "has been queued" out
'

test_expect_success 'an agent may not take the name of a user'\''s task' '
	reset_store &&
	task-add --manual --name Report "the user'\''s report" >/dev/null &&
	call task_create "{\"name\":\"Report\",\"prompt\":\"p\",\"manual\":true}" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	echo "Refused: the user has a task named '\''Report'\''; choose another name." >expect &&
	test_cmp expect out &&
	call task_create "{\"name\":\"Mine\",\"prompt\":\"p\",\"manual\":true}" | task-mcp --call >/dev/null &&
	call task_update "{\"id\":\"$(id_of Mine)\",\"name\":\"Report\"}" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	test_cmp expect out &&
	printf "#!/bin/sh\necho ran\n" >ran && chmod +x ran &&
	task-edit Report --exec "$PWD/ran" >/dev/null &&
	task-run Report >out &&
	echo ran >expect &&
	test_cmp expect out
'

test_expect_success 'keys are each scope'\''s own: no "taken" across scopes' '
	reset_store &&
	call task_create "{\"name\":\"S2\",\"prompt\":\"s2 secret plan\",\"manual\":true,\"key\":\"k1\"}" |
		TASK_SCOPE=s2 TASK_RUN_ID=$RUN task-mcp --call >/dev/null &&
	call task_create "{\"name\":\"S1\",\"prompt\":\"mine\",\"manual\":true,\"key\":\"k1\"}" >calls &&
	TASK_SCOPE=s1 TASK_RUN_ID=$RUN task-mcp --call <calls >out &&
	grep -q "^Created task .S1." out &&
	TASK_SCOPE=s1 TASK_RUN_ID=$RUN task-mcp --call <calls >out &&
	head -1 out >actual &&
	echo "A task with key '\''k1'\'' already exists; nothing was added." >expect &&
	test_cmp expect actual &&
	call task_show "{\"id\":\"$(id_of S1)\"}" | TASK_SCOPE=s1 TASK_RUN_ID=$RUN task-mcp --call >out &&
	grep -q "^Key: k1$" out &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 2
'

if [ "$AC_STORE" = postgres ]; then
# race N CALLS-FILE: N sessions of task-mcp --call, each released at once
# through its own FIFO, all waited for.
race() {
	n=$1 && rm -f fifo.* &&
	i=0 && while [ $i -lt "$n" ]; do
		mkfifo fifo.$i && { task-mcp --call <fifo.$i >race.$i 2>&1 & } || return 1
		i=$((i + 1))
	done &&
	i=0 && while [ $i -lt "$n" ]; do
		exec 9>fifo.$i && cat "$2" >&9 && exec 9>&- || return 1
		i=$((i + 1))
	done &&
	wait
}
test_expect_success 'twelve parallel sessions of one run: agent_max_create holds' '
	reset_store &&
	echo "agent_max_create = 10" >"$cfg" &&
	for i in 1 2 3 4; do
		call task_create "{\"prompt\":\"p $i\",\"manual\":true,\"force\":true}" || return 1
	done >calls &&
	TASK_RUN_ID=$RUN race 12 calls &&
	n=$(store_sql "SELECT count(*) FROM tasks") &&
	{ test "$n" = 10 || { echo "made $n tasks"; return 1; }; } &&
	cat race.* | grep -c "^Created task" >actual &&
	echo 10 >expect &&
	test_cmp expect actual
'
test_expect_success 'twelve parallel sessions: agent_max_tasks holds' '
	reset_store &&
	echo "agent_max_tasks = 20" >"$cfg" &&
	for i in 1 2 3 4; do
		call task_create "{\"prompt\":\"p $i\",\"manual\":true,\"force\":true}" || return 1
	done >calls &&
	race 12 calls &&
	n=$(store_sql "SELECT count(*) FROM tasks") &&
	{ test "$n" = 20 || { echo "made $n tasks"; return 1; }; }
'
fi

test_done
