#!/bin/sh
# A burst: many tasks due at one instant, claimed several per transaction
# and recorded in groups (the runs that ended ride along with the next
# claim).  One pass of task-tick -j 8 fires each occurrence once: one-shots,
# recurring tasks (which a pass fires once, however fast their runs end)
# and queued manual runs together; every run is recorded, nothing is left
# running; then two passes at once on a second burst.
. "$AC_TOP/tests/lib.sh"

cat >job <<EOF
#!/bin/sh
echo "\$TASK_ID \$TASK_RUN_ID \$TASK_TRIGGER" >>$PWD/log
EOF
chmod +x job

# burst N AT KIND PREFIX: N tasks of KIND (at, cron) named PREFIX-i, due at AT.
burst() {
	awk -v n="$1" -v at="$2" -v kind="$3" -v pre="$4" -v job="$PWD/job" 'BEGIN {
		for (i = 1; i <= n; i++)
			if (kind == "at")
				printf("{\"name\":\"%s-%d\",\"prompt\":\"p %s %d\",\"at\":\"%s\",\"exec\":\"%s\"}\n", pre, i, pre, i, at, job)
			else
				printf("{\"name\":\"%s-%d\",\"prompt\":\"p %s %d\",\"cron\":\"*/10 * * * *\",\"exec\":\"%s\"}\n", pre, i, pre, i, job)
	}' | task-add --json - >/dev/null
}

# A pass from cron claims for its first minute only (0871 tests that); under
# the sanitizers on a busy machine 720 claims can take longer.
mkdir -p config/agentcron && echo "pass_claim_time = 3600" >config/agentcron/config || exit 1

test_expect_success 'setup: 600 one-shots and 100 recurring tasks due at 07:00, 20 queued manual runs' '
	export TASK_NOW=2026-11-23T06:55:00Z &&
	burst 600 2026-11-23T07:00:00Z at at &&
	burst 100 "" cron cron &&
	for i in $(seq 20); do task-add --manual --name manual-$i --exec "$PWD/job" "manual $i" >/dev/null || return 1; done &&
	for i in $(seq 20); do task-run --queue manual-$i >/dev/null || return 1; done &&
	test "$(task-ls | wc -l)" -eq 720
'

test_expect_success 'one pass at -j 8 fires each once and records every run' '
	export TASK_NOW=2026-11-23T07:00:05Z &&
	task-tick -j 8 >out 2>err &&
	test ! -s err &&
	test "$(wc -l <out)" -eq 720 &&
	test "$(grep -c "\"status\":\"success\"" out)" -eq 720 &&
	cut -d" " -f1 log | sort >fired && test "$(wc -l <fired)" -eq 720 &&
	test -z "$(uniq -d fired)" &&
	cut -d" " -f2 log | sort >run_ids &&
	store_sql "SELECT id FROM runs WHERE status = '"'success'"'" | sort >stored &&
	test_cmp run_ids stored &&
	printf "schedule 700\nmanual 20\n" >expect &&
	cut -d" " -f3 log | sort | uniq -c | awk "{ print \$2, \$1 }" | sort -r >actual &&
	test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '"'running'"'")" = 0
'

test_expect_success 'the tasks after it: one-shots completed, recurring ones at their next occurrence, the queue empty' '
	task-ls --status completed | wc -l >n && echo 600 >expect && test_cmp expect n &&
	store_sql "SELECT next_run_at FROM tasks WHERE name LIKE '"'cron-%'"'" | sort -u >actual &&
	store_sql "SELECT next_run_at FROM tasks WHERE name = '"'cron-1'"'" >expect &&
	test_cmp expect actual &&
	test "$(task-ls --json | grep -c "\"next_run_at\":\"2026-11-23T07:10:00Z\"")" -eq 100 &&
	test "$(store_sql "SELECT count(*) FROM tasks WHERE queued <> 0")" = 0 &&
	TASK_NOW=2026-11-23T07:00:06Z task-tick -j 8 >again && test ! -s again
'

test_expect_success 'two passes at once on the next burst, 500 one-shots and the recurring tasks again at 07:10: each once' '
	: >log &&
	export TASK_NOW=2026-11-23T07:05:00Z &&
	burst 500 2026-11-23T07:10:00Z at b &&
	export TASK_NOW=2026-11-23T07:10:01Z &&
	{ task-tick -j 8 >out.1 2>err.1 & } && p1=$! && test_when_finished "test_end \$p1" &&
	{ task-tick -j 8 >out.2 2>err.2 & } && p2=$! && test_when_finished "test_end \$p2" &&
	wait $p1 && wait $p2 &&
	cat err.1 err.2 >errs && test ! -s errs &&
	test "$(cat out.1 out.2 | wc -l)" -eq 600 &&
	cut -d" " -f1 log | sort >fired && test "$(wc -l <fired)" -eq 600 &&
	test -z "$(uniq -d fired)" &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '"'running'"'")" = 0 &&
	test "$(store_sql "SELECT count(*) FROM runs")" -eq 1320
'

# Text that array literals must quote: quotes, backslashes, braces,
# commas, NULL and its spelling, non-ASCII, and bytes that are not UTF-8
# (stored with U+FFFD), through the group writes of tasks and the group
# ends of runs.
cat >odd <<\EOF
#!/bin/sh
printf '"q" \\b {x,y} NULL, caf\303\251 \377 %s\n' "$TASK_NAME"
EOF
chmod +x odd

test_expect_success 'odd text in tasks and outputs survives the group writes' '
	export TASK_NOW=2026-11-23T08:00:00Z &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		task-add --at 2026-11-23T08:00:00Z --name "odd \"$i\" \\ {a,b} NULL" --exec "$PWD/odd" \
		    "p \"$i\" \\n {} , NULL $(printf "caf\303\251")" >/dev/null || return 1
	done &&
	task-ls --json --status pending | grep "odd" | sed "s/\"status\":\"pending\".*//" | sort >before &&
	test "$(wc -l <before)" -eq 12 &&
	TASK_NOW=2026-11-23T08:00:01Z task-tick -j 8 >out 2>err && test ! -s err &&
	test "$(grep "\"name\":\"odd " out | grep -c "\"status\":\"success\"")" -eq 12 &&
	task-ls --json --status completed | grep "odd" | sed "s/\"status\":\"completed\".*//" | sort >after &&
	test_cmp before after &&
	store_sql "SELECT output FROM runs WHERE task_id = (SELECT id FROM tasks WHERE name LIKE '"'odd _7_ %'"')" >actual &&
	printf "\"q\" \\\\b {x,y} NULL, caf\303\251 \357\277\275 odd \"7\" \\\\ {a,b} NULL\n%s\n\n" \
	    "[... 1 byte that is not UTF-8 shown as U+FFFD]" >expect &&
	test_cmp expect actual
'

test_done
