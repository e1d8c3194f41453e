#!/bin/sh
# A task an agent made delivers only to the targets agent_deliver grants
# when each delivery is sent: a name the person takes from agent_deliver
# stops the deliveries to it (the receipt fails for good, saying why, and
# no request leaves), while the task's other targets, a person's task
# with the same target, and targets a person set on the agent's task
# still go.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
unset TASK_MCP TASK_MCP_ALLOW TASK_RUN_ID TASK_SCOPE
printf '#!/bin/sh\necho fine\n' >job && chmod +x job &&
cfg=config/agentcron/config &&
cat >>"$cfg" <<EOF || exit 1
deliver.a = webhook:http://127.0.0.1:$P/hook/a
deliver.b = webhook:http://127.0.0.1:$P/hook/b
exec = $PWD/job
agent_deliver = @a, @b
EOF

# sent: each request the receiver took, "PATH TASK" a line.
sent() {
	$PY -c 'import json,sys
for l in open("rcv/requests"):
    r = json.loads(l)
    print(r["path"], json.loads(r["body"])["data"]["task_name"])' | sort
}
# receipts DAY: the receipts of the runs of that day, "TASK TARGET STATUS ATTEMPTS NEXT".
receipts() {
	store_sql "SELECT t.name, r.target, r.status, r.attempts, coalesce(CAST(r.next_at AS TEXT), '-')
		FROM receipts r JOIN tasks t ON t.id = r.task_id JOIN runs u ON u.id = r.run_id
		WHERE u.slot >= $1 ORDER BY t.name, r.target" | tr '|' ' '
}
day1=1795417200 day2=1795503600 day3=1795590000
# pass_delivers T DAY SENT RECEIPTS: a pass at T that says nothing, after
# which the receiver took SENT and the runs from DAY on have RECEIPTS
# (each lines as sent and receipts print them).
pass_delivers() {
	rm -f rcv/requests &&
	TASK_NOW=$1 task-tick >/dev/null 2>err && test ! -s err &&
	printf "%s\n" "$3" >expect && sent >actual && test_cmp expect actual &&
	printf "%s\n" "$4" >expect && receipts "$2" >actual && test_cmp expect actual
}

test_expect_success 'setup: an agent'\''s task to @a and @b, a person'\''s to @a; both delivered' '
	echo "{\"name\":\"task_create\",\"arguments\":{\"name\":\"theirs\",\"prompt\":\"p\",\"daily\":\"07:00\",\"deliver\":[\"@a\",\"@b\"]}}" |
		TASK_NOW=2026-11-23T06:30:00Z task-mcp --call >out 2>err &&
	test ! -s err && grep -q "^Created task '\''theirs'\''" out &&
	test "$(store_sql "SELECT count(*) FROM tasks WHERE origin LIKE '"'agent:session:%'"'")" = 1 &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --name mine \
		--deliver @a x >/dev/null &&
	tick 2026-11-23T07:00:00Z && test ! -s tick.err &&
	cat >expect <<-\EOF &&
	/hook/a mine
	/hook/a theirs
	/hook/b theirs
	EOF
	sent >actual && test_cmp expect actual
'

test_expect_success 'agent_deliver loses @a: the agent'\''s @a fails for good, nothing sent to it' '
	sed -i "s/^agent_deliver = .*/agent_deliver = @b/" "$cfg" &&
	pass_delivers 2026-11-24T07:00:00Z $day2 "/hook/a mine
/hook/b theirs" "mine @a delivered 1 -
theirs @a failed 1 -
theirs @b delivered 1 -"
'

test_expect_success 'the reason: in task-deliver'\''s lines and task-log --deliveries' '
	why="agent_deliver no longer grants @a: task '\''theirs'\'' had its targets from an agent, and agents may give only those the config'\''s agent_deliver lists (@b); add it there, or set the task'\''s targets yourself (task-edit --deliver)" &&
	rm rcv/requests &&
	TASK_NOW=2026-11-24T08:00:00Z task-run theirs >/dev/null &&
	TASK_NOW=2026-11-24T08:01:00Z task-deliver >out 2>err && test ! -s err &&
	$PY -c "import json,sys
for d in sorted(map(json.loads, sys.stdin), key=lambda d: d[\"target\"]):
    print(d[\"target\"], d[\"status\"], d[\"attempts\"], d[\"next_at\"], d[\"error\"])" <out >actual &&
	printf "@a failed 1 None %s\n@b delivered 1 None None\n" "$why" >expect && test_cmp expect actual &&
	echo "/hook/b theirs" >expect && sent >actual && test_cmp expect actual &&
	task-log --deliveries --status failed | cut -f2-6 >actual &&
	printf "failed\twebhook\t@a\t1\t%s\n" "$why" "$why" >expect && test_cmp expect actual
'

test_expect_success 'a later pass sends it no more' '
	rm -f rcv/requests &&
	TASK_NOW=2026-11-24T09:00:00Z task-deliver >out 2>err && test ! -s err && test ! -s out &&
	test ! -e rcv/requests
'

test_expect_success 'a person who changes the task'\''s targets makes them theirs: delivered' '
	task-edit --deliver @a theirs >/dev/null &&
	pass_delivers 2026-11-25T07:00:00Z $day3 "/hook/a mine
/hook/a theirs" "mine @a delivered 1 -
theirs @a delivered 1 -"
'

test_done
