#!/bin/sh
# A pass under cron whose run waits for a concurrency slot held by the run
# of a host that died (SIGKILL: its process row stays, silent) looks for
# such runs while it waits, as a watcher does: once the dead host has been
# silent past owner_timeout it recovers that run, takes the slot, runs
# its own and ends.  Without another pass it waited for ever.
. "$AC_TOP/tests/lib.sh"
test_config 'max_concurrent = 1' 'owner_timeout = 4' || exit 1
# llm-call as the tickers find it first in PATH: logs its start, then
# holds on until the file HOLD names exists, if it names one.
mkdir -p fake && cat >fake/llm-call <<\END && chmod +x fake/llm-call || exit 1
#!/bin/sh
echo "start $TASK_ID" >>"$GATE_LOG"
if [ -n "${HOLD:-}" ]; then
	while [ ! -e "$HOLD" ]; do sleep 0.1; done
fi
echo ok
END
PATH=$PWD/fake:$PATH GATE_LOG=$PWD/log
export PATH GATE_LOG

test_expect_success 'a pass waiting for a slot a dead host holds recovers it, runs its own and ends' '
	TASK_NOW=2026-11-25T08:00:00Z task-add --at 2026-11-25T09:00:00Z --name held p >/dev/null &&
	TASK_NOW=2026-11-25T08:00:00Z task-add --at 2026-11-25T09:01:00Z --name waits q >/dev/null &&
	test_when_finished "touch release" &&
	{ HOLD=$PWD/release TASK_HOST_ID=a TASK_NOW=2026-11-25T09:00:05Z task-tick >a.out 2>a.err & } &&
	a=$! && test_when_finished "test_end \$a" &&
	test_until 60 grep -q "^start" log &&
	kill -KILL "$a" &&
	start=$(date +%s) &&
	TASK_HOST_ID=b TASK_NOW=2026-11-25T09:01:05Z timeout 60 task-tick >b.out 2>b.err &&
	took=$(($(date +%s) - start)) &&
	test "$took" -ge 3 &&
	test "$(wc -l <b.err)" -eq 1 &&
	grep -q "^task-tick: task .held. ([0-9a-f]*) interrupted: the process running it (pid $a on [^ ]*) stopped showing signs of life [0-9]* s ago\$" b.err &&
	grep -q "\"name\":\"held\".*\"status\":\"interrupted\".*stopped showing signs of life" b.out &&
	grep -q "\"name\":\"waits\".*\"status\":\"success\"" b.out &&
	test "$(wc -l <b.out)" -eq 2 &&
	test "$(grep -c "^start" log)" -eq 2 &&
	task-ls --status completed,pending | cut -f2,3,6 | sort >actual &&
	printf "held\tpending\tinterrupted\nwaits\tcompleted\tsuccess\n" >expect &&
	test_cmp expect actual
'

test_done
