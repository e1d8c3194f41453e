#!/bin/sh
# max_concurrent and concurrency.MODEL: llm-call runs in flight at once,
# counted from the executors' own log, across tickers started together;
# runs of other executors are not counted; a run that waits for a slot
# past its deadline is missed, not run; each occurrence runs once.
. "$AC_TOP/tests/lib.sh"
mkdir -p config/agentcron
cfg=config/agentcron/config
# llm-call as the tickers find it first in PATH, logging its runs.
fake_llm_call fake || exit 1
PATH=$PWD/fake:$PATH GATE_LOG=$PWD/log
export PATH GATE_LOG

# add N [FLAGS...]: N one-shots due at 09:00.
add() {
	n=$1 && shift && i=0 &&
	while [ $i -lt "$n" ]; do
		TASK_NOW=2026-11-25T08:00:00Z task-add --at 09:00 "$@" "prompt $i $*" >/dev/null || return 1
		i=$((i + 1))
	done
}

test_expect_success 'max_concurrent = 2: three tickers, 12 due runs, never more than 2 at once' '
	printf "max_concurrent = 2\n" >$cfg && chmod 600 $cfg &&
	add 12 &&
	for k in 1 2 3; do TASK_NOW=2026-11-25T09:00:05Z task-tick -j 6 >tick.$k 2>err.$k & done &&
	wait &&
	cat err.1 err.2 err.3 >errs && test_cmp /dev/null errs &&
	test "$(cat tick.1 tick.2 tick.3 | grep -c "\"status\":\"success\"")" -eq 12 &&
	test "$(grep -c "^start" log)" -eq 12 &&
	cut -d" " -f2 log | sort | uniq -c | awk "\$1 != 2" >twice && test_cmp /dev/null twice &&
	echo 2 >expect && in_flight_max >actual && test_cmp expect actual
'

test_expect_success 'concurrency.MODEL: that model one at a time, the others as many as max_concurrent' '
	reset_store && rm -f log &&
	printf "max_concurrent = 4\nconcurrency.small = 1\n" >$cfg &&
	add 4 --model small && add 4 --model big &&
	TASK_NOW=2026-11-25T09:00:05Z task-tick -j 8 >out &&
	test "$(grep -c "\"status\":\"success\"" out)" -eq 8 &&
	echo 1 >expect && in_flight_max small >actual && test_cmp expect actual &&
	test "$(in_flight_max)" -le 4 && test "$(in_flight_max big)" -ge 2
'

test_expect_success 'an executor other than llm-call is not counted' '
	reset_store && rm -f log &&
	printf "max_concurrent = 1\n" >$cfg &&
	add 3 --exec "$PWD/fake/llm-call --other" &&
	cp fake/llm-call fake/other-agent && add 3 --exec other-agent &&
	TASK_NOW=2026-11-25T09:00:05Z task-tick -j 6 >out &&
	test "$(grep -c "\"status\":\"success\"" out)" -eq 6 &&
	test "$(in_flight_max)" -ge 3
'

# On the real clock: the wait is real time.  The first is due a second
# earlier, so it is claimed, and takes the one slot, first; the second is
# claimed within its 3 s deadline and waits 6 s for the slot.
test_expect_success 'a run that waits past its deadline is missed, with the reason, and not run' '
	reset_store && rm -f log &&
	printf "max_concurrent = 1\n" >$cfg &&
	task-add --at now --exec llm-call first >/dev/null &&
	sleep 1 &&
	task-add --at now --deadline 3s --exec llm-call second >/dev/null &&
	GATE_SLEEP=6 task-tick -j 2 >out 2>err &&
	test "$(grep -c "^start" log)" -eq 1 &&
	grep -o "\"status\":\"[a-z]*\"" out | sort >actual &&
	printf "\"status\":\"missed\"\n\"status\":\"success\"\n" >expect &&
	test_cmp expect actual &&
	grep "\"name\":\"second\"" out | grep -o "\"error\":\"waited for a concurrency slot (max_concurrent, concurrency.MODEL) past its deadline, [-0-9T:]*Z; not run\"" &&
	test_one_line err
'

test_expect_success 'a bad limit: one line, exit 2, nothing run' '
	reset_store && rm -f log &&
	printf "concurrency.small = none\n" >$cfg &&
	add 1 &&
	test_expect_code 2 env TASK_NOW=2026-11-25T09:00:05Z task-tick 2>err &&
	echo "task-tick: $PWD/$cfg: bad concurrency.small '\''none'\'': a number of runs from 1 to 100000" >expect &&
	test_cmp expect err && test ! -e log
'

test_done
