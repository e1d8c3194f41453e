#!/bin/sh
# The crontab line of task-tick --print-cron makes its log directory 0700
# and tick.log 0600 whatever cron's umask: the log holds every run's
# result; the runs themselves keep cron's umask.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'the line run under umask 000: directory 0700, log 0600, executors under 000' '
	printf "#!/bin/sh\numask\n" >show-umask && chmod +x show-umask &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/show-umask" u >/dev/null &&
	task-tick --print-cron | grep -v "^#" >line &&
	cmd=$(cut -d" " -f6- line) &&
	(umask 000 && TASK_NOW=2026-11-23T07:00:00Z sh -c "$cmd") &&
	echo "700 600" >expect &&
	echo "$(stat -c %a .local/state/agentcron) $(stat -c %a .local/state/agentcron/tick.log)" >actual &&
	test_cmp expect actual &&
	grep -q "\"status\":\"success\"" .local/state/agentcron/tick.log &&
	task-log "$(task-log | cut -f1)" | sed -n "/^output:/{n;p}" >actual &&
	echo "  0000" >expect && test_cmp expect actual
'

test_done
