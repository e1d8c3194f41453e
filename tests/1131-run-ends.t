#!/bin/sh
# How a run's end is read: which signals are someone outside ending it
# (interrupted, not the task's failure) and which are the executor's own
# failure; what an outcome file may say.  Found by mutating
# common/fire_rules.c, common/outcome.c and common/fire_end.c and seeing
# which changes no other test noticed.
. "$AC_TOP/tests/lib.sh"

# The executor: ends itself with the signal its task is named after.
cat >sig <<\EOF
#!/bin/sh
kill -s "$TASK_NAME" $$
sleep 5
EOF
chmod +x sig

# ended: each task's name and how its run ended, by name.
ended() {
	store_sql "SELECT t.name, r.status FROM runs r JOIN tasks t ON t.id = r.task_id ORDER BY t.name"
}

test_expect_success 'a run ended by HUP, INT, QUIT, TERM or KILL is interrupted; by another signal it failed' '
	for s in HUP INT QUIT TERM KILL USR1 SEGV; do
		TASK_NOW=2026-11-23T06:30:00Z task-add --at 2026-11-23T07:00:00Z --name $s \
			--exec "$PWD/sig" p >/dev/null || return 1
	done &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick -j 7 >/dev/null 2>&1 &&
	ended >actual &&
	cat >expect <<-\EOF &&
	HUP|interrupted
	INT|interrupted
	KILL|interrupted
	QUIT|interrupted
	SEGV|failed
	TERM|interrupted
	USR1|failed
	EOF
	test_cmp expect actual
'

# The executor: writes ./say to its outcome file and answers.
cat >say-job <<\EOF
#!/bin/sh
cat >/dev/null
cat "$HOME/say" >"$TASK_OUTCOME_FILE"
echo answered
EOF
chmod +x say-job

test_expect_success 'an outcome whose summary is null is understood: no summary' '
	TASK_NOW=2026-11-22T06:00:00Z task-add --manual --name done --exec "$PWD/say-job" p >/dev/null &&
	TASK_NOW=2026-11-22T06:00:00Z task-add --manual --name idle --exec "$PWD/say-job" p >/dev/null &&
	printf "{\"status\":\"done\",\"summary\":null}" >say &&
	TASK_NOW=2026-11-22T06:00:00Z task-run done >out &&
	echo answered >expect && test_cmp expect out &&
	printf "{\"status\":\"nothing_to_do\",\"summary\":null}" >say &&
	TASK_NOW=2026-11-22T06:01:00Z task-run idle >out &&
	store_sql "SELECT t.name, r.status, coalesce(r.error, '\''-'\'') FROM runs r JOIN tasks t ON t.id = r.task_id WHERE t.kind = '\''manual'\'' ORDER BY t.name" >actual &&
	cat >expect <<-\EOF &&
	done|success|-
	idle|skipped|reported nothing to do
	EOF
	test_cmp expect actual
'

# The executor: notes its pid, then waits for a long time.
cat >slow <<\EOF
#!/bin/sh
echo $$ >"$HOME/$TASK_NAME.pid"
sleep 300
EOF
chmod +x slow

test_expect_success 'a run recovered after its ticker died lasted from its start to the recovery' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --at 2026-11-23T07:00:00Z --name crash \
		--exec "$PWD/slow" x >/dev/null &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>&1 & } && tick=$! &&
	test_when_finished "test_end \$tick" &&
	test_until 60 test -s crash.pid &&
	kill -9 $tick && { wait $tick; test $? -eq 137; } &&
	TASK_NOW=2026-11-23T07:00:30Z task-tick >out 2>err &&
	python3 -c "import json,sys; r=json.loads(open(\"out\").readline()); print(r[\"status\"], r[\"duration_ms\"])" >actual &&
	echo "interrupted 30000" >expect && test_cmp expect actual
'

test_done
