#!/bin/sh
# A run is unique per (task, instant, arming): a claim whose occurrence
# already has its run (here one written into the store by hand) starts
# nothing for that task and leaves it as it was, whether the claim
# inserts one run or several at once; the other tasks run, in the same
# claim or the next.
# PostgreSQL reads the key before the insert (the claim holds the task's
# row), where SQLite lets the unique index refuse it: the same outcome.
. "$AC_TOP/tests/lib.sh"

# add NAME: a one-shot at 07:00 whose executor says its name.
add() {
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --tz UTC --name "$1" \
		--exec "echo $1" p >/dev/null
}

# ran: the name and status of each run task-tick reported in out.
ran() {
	python3 -c "
import json
for l in open(\"out\"):
    r = json.loads(l)
    print(r[\"name\"], r[\"status\"])
"
}

# taken NAME: a run of NAME's occurrence at 07:00, ended, put there by hand.
taken() {
	id=$(store_sql "SELECT id FROM tasks WHERE name = '$1'") &&
	store_sql "INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at,
		attempt, arming) SELECT '00000000-0000-4000-8000-00000000000$2', id, 1795417200,
		'schedule', 'success', 1795417200, 1795417201, 1, arming FROM tasks WHERE id = '$id'"
}

test_expect_success 'one claim at a time (-j 1): the task whose occurrence has its run stays pending' '
	add a && add e &&
	taken a 1 &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick -j 1 >out 2>err &&
	test ! -s err &&
	ran >actual &&
	echo "e success" >expect &&
	test_cmp expect actual &&
	task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    print(t[\"name\"], t[\"status\"], t[\"next_run_at\"])
" | sort >actual &&
	printf "a pending 2026-11-23T07:00:00Z\ne completed None\n" >expect &&
	test_cmp expect actual &&
	store_sql "SELECT count(*) FROM runs" >actual &&
	echo 2 >expect && test_cmp expect actual
'

test_expect_success 'three due, one with its run: the other two run, once each' '
	store_sql "DELETE FROM runs" && store_sql "DELETE FROM tasks" &&
	add b && add c && add d &&
	taken c 2 &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick -j 4 >out 2>err &&
	test ! -s err &&
	ran | sort >actual &&
	printf "b success\nd success\n" >expect &&
	test_cmp expect actual &&
	task-ls | cut -f2,3 | sort >actual &&
	printf "b\tcompleted\nc\tpending\nd\tcompleted\n" >expect &&
	test_cmp expect actual &&
	store_sql "SELECT count(*), count(DISTINCT task_id) FROM runs" >actual &&
	echo "3|3" >expect && test_cmp expect actual
'

test_done
