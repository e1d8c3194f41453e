#!/bin/sh
# --overlap: what an occurrence due while its task still runs does.  skip
# records it skipped with the run it gave way to; queue (the default) runs
# the latest such occurrence as soon as the run ends; replace ends the run
# (SIGTERM to its process group), records it cancelled with the reason and
# starts the new occurrence.  Each (task, instant) still runs at most once.
. "$AC_TOP/tests/lib.sh"

# The executor: logs "start SLOT" and, unless the file fast exists, waits
# for the file go (or for SIGTERM, which it logs), then logs "end SLOT".
cat >slow <<\EOF
#!/bin/sh
echo "start $TASK_SLOT" >>"$HOME/log"
trap 'echo "term $TASK_SLOT" >>"$HOME/log"; exit 143' TERM
if [ ! -e "$HOME/fast" ]; then
	while [ ! -e "$HOME/go" ]; do sleep 0.1; done
fi
echo "end $TASK_SLOT" >>"$HOME/log"
EOF
chmod +x slow

# runs: trigger, status and error of every run, by slot.
runs() {
	store_sql "SELECT trigger, status, coalesce(error, '') FROM runs ORDER BY slot, started_at"
}

test_expect_success 'skip: the occurrence due while it runs is recorded skipped, not run' '
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "* * * * *" --overlap skip --name s \
		--exec "$PWD/slow" p >id &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >a.out 2>a.err & } &&
	test_until 60 lines log 1 &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick >b.out 2>b.err &&
	test "$(wc -l <b.out)" -eq 1 && grep -q "\"status\":\"skipped\"" b.out &&
	test "$(wc -l <b.err)" -eq 1 && grep -q "^task-tick: task .s. (.*) skipped: still running since" b.err &&
	touch go && wait && rm go &&
	store_sql "SELECT trigger, status, error FROM runs ORDER BY slot" |
		sed "s/(run [0-9a-f]\{8\})/(run R)/" >actual &&
	cat >expect <<-\EOF &&
	schedule|success|
	schedule|skipped|still running since 2026-11-23T07:00:00Z (run R); skipped (--overlap skip)
	EOF
	test_cmp expect actual &&
	task-ls | cut -f3,4 >actual &&
	printf "pending\t2026-11-23T07:02:00Z\n" >expect && test_cmp expect actual &&
	task-show "$(cat id)" | grep "^overlap: *skip$" &&
	task-ls --json | grep -q "\"overlap\":\"skip\","
'

test_expect_success 'queue (the default): the occurrence waits and runs once the run ends' '
	reset_store && rm -f log &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "* * * * *" --name q --exec "$PWD/slow" p >/dev/null &&
	TASK_NOW=2026-11-23T07:00:57Z tick_watch &&
	test_until 60 lines log 1 &&
	TASK_NOW=2026-11-23T07:01:05Z task-tick >b.out 2>b.err && test ! -s b.out &&
	touch fast go &&
	test_until 30 lines wout 2 && tick_stop && rm fast go &&
	cat >expect <<-\EOF &&
	start 2026-11-23T07:00:00Z
	end 2026-11-23T07:00:00Z
	start 2026-11-23T07:01:00Z
	end 2026-11-23T07:01:00Z
	EOF
	test_cmp expect log &&
	store_sql "SELECT trigger, status FROM runs ORDER BY slot" >actual &&
	printf "schedule|success\nschedule|success\n" >expect && test_cmp expect actual
'

test_expect_success 'replace: the run is ended, recorded cancelled, and the new occurrence runs' '
	reset_store && rm -f log &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "* * * * *" --overlap replace --name r \
		--exec "$PWD/slow" p >id &&
	TASK_NOW=2026-11-23T07:00:58Z tick_watch &&
	test_until 60 lines log 1 && touch fast &&
	test_until 60 lines wout 2 && tick_stop && rm fast &&
	cat >expect <<-\EOF &&
	start 2026-11-23T07:00:00Z
	term 2026-11-23T07:00:00Z
	start 2026-11-23T07:01:00Z
	end 2026-11-23T07:01:00Z
	EOF
	test_cmp expect log &&
	runs | grep "^schedule|" >actual &&
	cat >expect <<-\EOF &&
	schedule|cancelled|replaced by its occurrence of 2026-11-23T07:01:00Z (--overlap replace); ended by SIGTERM: exited with status 143; stopped before the run finished
	schedule|success|
	EOF
	test_cmp expect actual &&
	test "$(task-ls --json | sed "s/.*\"consecutive_failures\":\([0-9]*\).*/\1/")" = 0
'

test_expect_success 'bad --overlap values change nothing' '
	test_expect_code 2 task-edit --overlap sometimes "$(cat id)" 2>err &&
	echo "task-edit: bad --overlap '\''sometimes'\'': use queue, skip or replace" >expect &&
	test_cmp expect err &&
	task-ls --json | grep -q "\"overlap\":\"replace\","
'

test_done
