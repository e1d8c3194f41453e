#!/bin/sh
# A budget meets the other policies.  Over budget, a one-shot (or the last
# occurrence of a recurrence) waits for the start of the next budget
# window and runs then; with a --deadline that ends before that window it
# cannot start in time: it is skipped with the reason saying so and
# completed, not run hours past its deadline.  Without one it still waits.
# --overlap replace does not end a run in flight for an occurrence its
# budget skips: the occurrence is skipped, the run goes on.  A scheduled
# occurrence skipped over budget leaves an upstream's answer that waits
# for the task (--after) queued: it becomes a run, or a skip, of its own.
. "$AC_TOP/tests/lib.sh"
test_config "provider = echo" "budget = 3tok/day"

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null 2>>tick.err
}

# state: each task's name, status, next run and last run's status.
state() {
	task-ls | cut -f2,3,4,6 | sort
}

test_expect_success 'the global budget spent by another task' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --manual --name spender "one two three four" >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-run spender >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --deadline 10m --name soon \
		--exec "echo ran" p >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --name whenever \
		--exec "echo ran" p >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --count 1 --deadline 1h --name daily \
		--exec "echo ran" p >/dev/null 2>&1
'

test_expect_success 'past the deadline by the next window: skipped, said why, completed' '
	tick 2026-11-23T07:00:00Z &&
	task-log --task soon --limit 0 --json | python3 -c "
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print(r[\"trigger\"], r[\"slot\"], r[\"status\"], r[\"error\"])
" >actual &&
	echo "schedule 2026-11-23T07:00:00Z skipped budget: 9 of 3 tokens this day (all tasks); not run later: its deadline (10m00s) ends before the next window" >expect &&
	test_cmp expect actual &&
	state >actual &&
	cat >expect <<-\EOF &&
	daily	completed	-	skipped
	soon	completed	-	skipped
	spender	pending	-	success
	whenever	pending	2026-11-24T00:00:00Z	skipped
	EOF
	test_cmp expect actual
'

test_expect_success 'in the next window only the one without a deadline runs' '
	tick 2026-11-24T00:00:00Z && tick 2026-11-24T00:01:00Z &&
	state >actual &&
	cat >expect <<-\EOF &&
	daily	completed	-	skipped
	soon	completed	-	skipped
	spender	pending	-	success
	whenever	completed	-	success
	EOF
	test_cmp expect actual
'

# slow: logs its slot when it starts and when it ends, which it does
# when the file go exists.
cat >slow <<\EOF
#!/bin/sh
echo "start $TASK_SLOT" >>"$HOME/log"
trap 'echo "term $TASK_SLOT" >>"$HOME/log"; exit 143' TERM
while [ ! -e "$HOME/go" ]; do sleep 0.1; done
echo "end $TASK_SLOT" >>"$HOME/log"
echo done
EOF
chmod +x slow

test_expect_success '--overlap replace over budget: the occurrence skipped, the run in flight kept' '
	reset_store &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "*/5 * * * *" --overlap replace --name r \
		--exec "$PWD/slow" p >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --manual --name spender "one two three four" >/dev/null 2>&1 &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >a.out 2>a.err & } &&
	test_until 60 lines log 1 &&
	TASK_NOW=2026-11-23T07:02:00Z task-run spender >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:05:00Z task-tick >b.out 2>b.err &&
	sleep 3 &&
	TASK_NOW=2026-11-23T07:05:10Z task-tick >>b.out 2>>b.err &&
	touch go && wait &&
	cat >expect <<-\EOF &&
	start 2026-11-23T07:00:00Z
	end 2026-11-23T07:00:00Z
	EOF
	test_cmp expect log &&
	task-log --task r --limit 0 --json | python3 -c "
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print(r[\"slot\"], r[\"status\"], r.get(\"error\"))
" >actual &&
	cat >expect <<-\EOF &&
	2026-11-23T07:05:00Z skipped budget: 9 of 3 tokens this day (all tasks)
	2026-11-23T07:00:00Z success None
	EOF
	test_cmp expect actual &&
	state >actual &&
	cat >expect <<-\EOF &&
	r	pending	2026-11-23T07:10:00Z	success
	spender	pending	-	success
	EOF
	test_cmp expect actual
'

test_expect_success 'an occurrence skipped over budget as its upstream ends: the input still taken' '
	reset_store && rm -f log go && test_config "provider = echo" &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --name up --exec "$PWD/slow" p >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "1 7 * * *" --after up --budget 3tok/day --name f \
		"one two three four" >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T06:00:00Z task-run --force f >/dev/null &&
	{ TASK_NOW=2026-11-23T07:01:00Z task-tick -j 1 >a.out 2>a.err & } &&
	test_until 60 lines log 1 && touch go && wait &&
	task-log --task f --limit 0 | cut -f5,7 >actual &&
	cat >expect <<-\EOF &&
	after	skipped
	schedule	skipped
	manual	success
	EOF
	test_cmp expect actual &&
	store_sql "SELECT count(*) FROM run_inputs WHERE run_id IS NULL" >actual &&
	echo 0 >expect && test_cmp expect actual
'

test_done
