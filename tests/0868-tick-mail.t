#!/bin/sh
# What task-tick tells cron's mail (standard error) and its log (standard
# output): a budget skip once per task and window, in both; a run ended by
# --overlap replace in the log only, since the user asked for it.
. "$AC_TOP/tests/lib.sh"
mkdir -p config/agentcron && echo "provider = echo" >config/agentcron/config || exit 1

test_expect_success 'a budget skip: a log line and one mail line per window, not per occurrence' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "* * * * *" --name minute --budget 12tok/day \
		"Say hello in five words" >/dev/null &&
	for m in 01 02 03 04 05; do
		TASK_NOW=2026-11-23T06:$m:00Z task-tick >>tick.log 2>>mail || return 1
	done &&
	grep -c "\"status\":\"skipped\"" tick.log >n && echo 1 >expect && test_cmp expect n &&
	grep -q "\"error\":\"budget: 22 of 12 tokens this day\"" tick.log &&
	echo "task-tick: task '\''minute'\'' ($(task-ls | cut -c1-8)) skipped: budget: 22 of 12 tokens this day" >expect &&
	test_cmp expect mail &&
	TASK_NOW=2026-11-24T00:00:30Z task-tick >>tick.log 2>mail2 &&
	test ! -s mail2
'

test_expect_success '--overlap replace: the replaced run is in the log, not in the mail' '
	reset_store && rm -f log &&
	cat >slow <<-\EOF &&
	#!/bin/sh
	trap "exit 143" TERM
	echo start >>"$0.log"
	i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	EOF
	chmod +x slow &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "* * * * *" --overlap replace --name r \
		--exec "$PWD/slow" p >/dev/null &&
	{ TASK_NOW=2026-11-23T07:00:05Z task-tick >first.log 2>first.mail & } &&
	test_until 60 lines slow.log 1 &&
	TASK_NOW=2026-11-23T07:01:05Z task-tick >second.log 2>second.mail &&
	test_until 30 lines first.log 1 &&
	grep -q "\"status\":\"cancelled\"" first.log &&
	test ! -s first.mail
'

test_done
