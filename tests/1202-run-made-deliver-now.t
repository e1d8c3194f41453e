#!/bin/sh
# A task an agent made in a run (origin agent:run:ID) is held to what
# agent_deliver grants now when each delivery is sent, as one an agent
# made in a session is (1201), a retry included: a receipt waiting to be
# tried again when the name leaves agent_deliver fails at its next try,
# sent nowhere.  The config's `deliver`, which a task with no targets of
# its own gets, is the person's choice: an agent's task still delivers
# there with agent_deliver granting nothing.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
unset TASK_MCP TASK_MCP_ALLOW TASK_RUN_ID TASK_SCOPE
openai_stand_in || exit 1
printf '#!/bin/sh\necho fine\n' >job && chmod +x job &&
cfg=config/agentcron/config &&
cat >>"$cfg" <<EOF || exit 1
deliver.a = webhook:http://127.0.0.1:$P/hook/a
deliver.c = webhook:http://127.0.0.1:$P/hook/c
deliver = @c
exec = $PWD/job
agent_deliver = @a
EOF

# sent: each request the receiver took, "PATH TASK ANSWER" a line.
sent() {
	$PY -c 'import json,sys
for l in open("rcv/requests"):
    r = json.loads(l)
    print(r["path"], json.loads(r["body"])["data"]["task_name"], r["plan"])' | sort
}
# receipts TASK: its receipts, "TARGET STATUS ATTEMPTS ERROR" a line.
receipts() {
	store_sql "SELECT r.target, r.status, r.attempts, coalesce(r.error, '-')
		FROM receipts r JOIN tasks t ON t.id = r.task_id WHERE t.name = '$1'
		ORDER BY r.created_at, r.target" | tr '|' ' '
}

test_expect_success 'setup: a run of report makes w, to @a, and v, with no targets' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --manual --name report --exec "llm-call --tools" \
		"[[call task_create {\"name\":\"w\",\"prompt\":\"w\",\"manual\":true,\"deliver\":[\"@a\"]}]] [[call task_create {\"name\":\"v\",\"prompt\":\"v\",\"manual\":true}]] go" >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-run report >out &&
	grep -c "Created task" out >n && echo 2 >expect && test_cmp expect n &&
	store_sql "SELECT name FROM tasks WHERE origin LIKE '"'agent:run:%'"' ORDER BY name" >actual &&
	printf "v\nw\n" >expect && test_cmp expect actual
'

test_expect_success 'a retry waiting when @a leaves agent_deliver: failed at its next try, not sent' '
	echo "/hook/a 500" >rcv/plan &&
	TASK_NOW=2026-11-23T07:00:00Z task-run w >/dev/null &&
	TASK_NOW=2026-11-23T07:01:00Z task-deliver >/dev/null 2>err && test ! -s err &&
	echo "@a pending 1 HTTP 500: refused by the stand-in" >expect && receipts w >actual && test_cmp expect actual &&
	sed -i "/^agent_deliver/d" "$cfg" &&
	TASK_NOW=2026-11-23T07:02:00Z task-deliver >/dev/null 2>err && test ! -s err &&
	echo "@a failed 2 agent_deliver no longer grants @a: task '\''w'\'' had its targets from an agent, and agents may give only those the config'\''s agent_deliver lists (none); add it there, or set the task'\''s targets yourself (task-edit --deliver)" >expect &&
	receipts w >actual && test_cmp expect actual &&
	printf "/hook/a w 500\n/hook/c report ok\n" >expect && sent >actual && test_cmp expect actual
'

test_expect_success 'the config'\''s deliver still takes an agent'\''s task with none of its own' '
	rm rcv/requests &&
	TASK_NOW=2026-11-23T08:00:00Z task-run v >/dev/null &&
	TASK_NOW=2026-11-23T08:01:00Z task-deliver >/dev/null 2>err && test ! -s err &&
	echo "@c delivered 1 -" >expect && receipts v >actual && test_cmp expect actual &&
	echo "/hook/c v ok" >expect && sent >actual && test_cmp expect actual
'

test_done
