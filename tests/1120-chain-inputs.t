#!/bin/sh
# The inputs a follower (task-add --after) or an event is given each
# become one run.  A recurring task's failed attempt that will be retried
# fires none of its followers: its last attempt does.  When that retry
# never comes (no pass reached it before the next occurrence was due, so
# the occurrence is counted failed), the attempt that failed was the last
# one: its --after TASK:failure (and :any) followers fire then, once, with
# its error as their input, however the passes are timed.  A task run by
# hand while such an input waits for the next pass leaves it waiting: the
# pass still runs it.
. "$AC_TOP/tests/lib.sh"

# ex: logs task, trigger, slot and input, one line a run; a task named
# fail* fails.
cat >ex <<\EOF
#!/bin/sh
in=$(cat | tr '\n' '|')
echo "$TASK_NAME $TASK_TRIGGER $TASK_SLOT <$in>" >>log
case $TASK_NAME in fail*) echo "it broke at $TASK_SLOT" >&2; exit 1 ;; esac
echo "answer of $TASK_NAME"
EOF
chmod +x ex

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null 2>>tick.err
}

test_expect_success 'a retry overtaken by the next occurrence: the failure followers fire for the attempt that failed' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --name failing --exec "$PWD/ex" up >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --after failing:failure --name alert --exec "$PWD/ex" tell >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --after failing:any --name every --exec "$PWD/ex" any >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --after failing --name never --exec "$PWD/ex" ok >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	tick 2026-11-23T08:00:00Z &&
	sort log >actual &&
	cat >expect <<-\EOF &&
	alert after 2026-11-23T07:00:00Z <tell||exited with status 1|it broke at 2026-11-23T07:00:00Z|>
	every after 2026-11-23T07:00:00Z <any||exited with status 1|it broke at 2026-11-23T07:00:00Z|>
	failing schedule 2026-11-23T07:00:00Z <up>
	failing schedule 2026-11-23T08:00:00Z <up>
	EOF
	test_cmp expect actual &&
	first=$(task-log --task failing --limit 0 | tail -n 1 | cut -f1) &&
	task-log --task alert --json --limit 0 >runs &&
	test "$(wc -l <runs)" -eq 1 &&
	store_sql "SELECT upstream_run FROM run_inputs WHERE task_id = (SELECT id FROM tasks WHERE name = '\''alert'\'')" >actual &&
	echo "$first" >expect && test_cmp expect actual &&
	task-ls | grep "	failing	" | cut -f3,4 >actual &&
	printf "pending\t2026-11-23T08:01:00Z\n" >expect && test_cmp expect actual
'

test_expect_success 'the retries that follow fire them again only at their own last attempt, and once' '
	tick 2026-11-23T08:01:00Z && tick 2026-11-23T08:03:00Z && tick 2026-11-23T08:13:00Z &&
	tick 2026-11-23T08:14:00Z &&
	grep -c "^alert " log >actual && echo 2 >expect && test_cmp expect actual &&
	grep -c "^every " log >actual && test_cmp expect actual &&
	test_expect_code 1 grep "^never " log
'

test_expect_success 'a retry given up that pauses the task fires them too' '
	reset_store && rm -f log &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --pause-after 1 --name failing \
		--exec "$PWD/ex" up >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --after failing:failure --name alert --exec "$PWD/ex" tell >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	tick 2026-11-23T09:30:00Z &&
	cat >expect.log <<-\EOF &&
	failing schedule 2026-11-23T07:00:00Z <up>
	alert after 2026-11-23T07:00:00Z <tell||exited with status 1|it broke at 2026-11-23T07:00:00Z|>
	EOF
	test_cmp expect.log log &&
	task-ls | grep "	failing	" | cut -f3 >actual &&
	echo paused >expect && test_cmp expect actual &&
	tick 2026-11-23T09:31:00Z && test_cmp expect.log log
'

test_expect_success 'a follower on a schedule of its own at the same instant: both its runs' '
	reset_store && rm -f log &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --name failing --exec "$PWD/ex" up >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --after failing:failure --name alert \
		--exec "$PWD/ex" tell >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	tick 2026-11-23T08:00:00Z &&
	tick 2026-11-23T08:00:30Z &&
	sort log >actual &&
	cat >expect <<-\EOF &&
	alert after 2026-11-23T07:00:00Z <tell||exited with status 1|it broke at 2026-11-23T07:00:00Z|>
	alert schedule 2026-11-23T07:00:00Z <tell>
	alert schedule 2026-11-23T08:00:00Z <tell>
	failing schedule 2026-11-23T07:00:00Z <up>
	failing schedule 2026-11-23T08:00:00Z <up>
	EOF
	test_cmp expect actual &&
	store_sql "SELECT count(*) FROM run_inputs WHERE run_id IS NULL" >actual &&
	echo 0 >expect && test_cmp expect actual
'

test_expect_success 'a follower run by hand before the pass: the input still runs, at the pass' '
	reset_store && rm -f log &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --manual --name fetch --exec "$PWD/ex" up >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --after fetch --name digest --exec "$PWD/ex" sum >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-run fetch >/dev/null &&
	TASK_NOW=2026-11-23T07:00:10Z task-run digest >/dev/null &&
	tick 2026-11-23T07:01:00Z && tick 2026-11-23T07:02:00Z &&
	cat >expect <<-\EOF &&
	fetch manual 2026-11-23T07:00:00Z <up>
	digest manual 2026-11-23T07:00:10Z <sum>
	digest after 2026-11-23T07:01:00Z <sum||answer of fetch|>
	EOF
	test_cmp expect log
'

test_expect_success 'an event queued, the task run by hand: the event still runs, once' '
	rm -f log &&
	TASK_NOW=2026-11-23T07:10:00Z task-run --queue --payload "{\"n\":1}" --key one digest >/dev/null &&
	TASK_NOW=2026-11-23T07:10:10Z task-run digest >/dev/null &&
	tick 2026-11-23T07:11:00Z && tick 2026-11-23T07:12:00Z &&
	cat >expect <<-\EOF &&
	digest manual 2026-11-23T07:10:10Z <sum>
	digest event 2026-11-23T07:11:00Z <sum||{"n":1}>
	EOF
	test_cmp expect log
'

test_done
