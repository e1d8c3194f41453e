#!/bin/sh
# An overlap skip and a missed deadline are told as a budget skip is: a
# line in task-tick's output (tick.log) and one on standard error (cron's
# mail), once per streak: an overlap skip once for the run it gave way to,
# misses in a row once until the task runs again.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'a missed deadline: told once for misses in a row, again after a run' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "* * * * *" --deadline 30s --name dl \
		--exec true x >id &&
	for t in 06:01:45 06:02:45 06:03:50 06:04:10 06:05:40 06:06:40; do
		TASK_NOW=2026-11-23T${t}Z task-tick >>tick.log 2>>mail || return 1
	done &&
	sed -n "s/.*\"slot\":\"\([^\"]*\)\",\"status\":\"\([a-z]*\)\".*/\1 \2/p" tick.log >actual &&
	cat >expect <<-\EOF &&
	2026-11-23T06:01:00Z missed
	2026-11-23T06:04:00Z success
	2026-11-23T06:05:00Z missed
	EOF
	test_cmp expect actual &&
	id=$(cut -c1-8 id) &&
	cat >expect <<-EOF &&
	task-tick: task '\''dl'\'' ($id) missed: could not start within its deadline (30.0s) of 2026-11-23T06:01:00Z: 45.0s late; not run
	task-tick: task '\''dl'\'' ($id) missed: could not start within its deadline (30.0s) of 2026-11-23T06:05:00Z: 40.0s late; not run
	EOF
	test_cmp expect mail &&
	task-log --limit 0 --status missed | wc -l | tr -d " " >n && echo 5 >expect && test_cmp expect n
'

test_expect_success '--overlap skip: told once for the run it gave way to' '
	reset_store && rm -f tick.log mail &&
	cat >slow <<-\EOF &&
	#!/bin/sh
	echo start >>"$0.log"
	i=0; while [ $i -lt 600 ] && [ ! -e "$0.go" ]; do sleep 0.1; i=$((i + 1)); done
	EOF
	chmod +x slow &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "* * * * *" --overlap skip --name ov \
		--exec "$PWD/slow" p >id &&
	{ TASK_NOW=2026-11-23T07:00:05Z task-tick >first.log 2>first.mail & } &&
	test_until 60 lines slow.log 1 &&
	for m in 01 02 03; do
		TASK_NOW=2026-11-23T07:$m:05Z task-tick >>tick.log 2>>mail || return 1
	done &&
	touch slow.go &&
	test_until 30 lines first.log 1 &&
	grep -c "\"status\":\"skipped\"" tick.log >n && echo 1 >expect && test_cmp expect n &&
	run=$(sed -n "s/.*\"run_id\":\"\(........\).*/\1/p" first.log) &&
	id=$(cut -c1-8 id) &&
	echo "task-tick: task '\''ov'\'' ($id) skipped: still running since 2026-11-23T07:00:05Z (run $run); skipped (--overlap skip)" >expect &&
	test_cmp expect mail &&
	task-log --limit 0 --status skipped | wc -l | tr -d " " >n && echo 3 >expect && test_cmp expect n &&
	test ! -s first.mail
'

test_done
