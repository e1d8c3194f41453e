#!/bin/sh
# The log --print-cron sets up (task-tick's output appended to tick.log)
# keeps under the config's tick_log_max: a pass that finds it that large
# moves it to tick.log.1 (one old file kept) and starts a new one, mode
# 0600.  Output not appended to a file is never moved.
. "$AC_TOP/tests/lib.sh"
mkdir -p config/agentcron && echo "tick_log_max = 300" >config/agentcron/config &&
TASK_NOW=2026-11-23T06:00:00Z task-add --cron "* * * * *" --exec true x >/dev/null || exit 1

test_expect_success 'passes appending to the log: it stays under the cap, one old file kept' '
	for m in 01 02 03 04 05 06; do
		TASK_NOW=2026-11-23T06:$m:00Z task-tick >>tick.log || return 1
	done &&
	test -s tick.log && test -s tick.log.1 && test ! -e tick.log.2 &&
	test "$(wc -c <tick.log)" -lt 600 && test "$(wc -c <tick.log.1)" -lt 600 &&
	cat tick.log.1 tick.log | grep -c "\"status\":\"success\"" >n &&
	test "$(cat n)" -ge 3 &&
	test "$(stat -c %a tick.log)" = 600 &&
	tail -n 1 tick.log | grep -q "\"slot\":\"2026-11-23T06:06:00Z\""
'

test_expect_success 'output written with > (not appended) is left alone' '
	TASK_NOW=2026-11-23T06:07:00Z task-tick >big.log && cat tick.log tick.log >>big.log &&
	TASK_NOW=2026-11-23T06:08:00Z task-tick >big.log &&
	test ! -e big.log.1
'

test_expect_success 'tick_log_max = 0: no cap; a bad value is refused, nothing run' '
	echo "tick_log_max = 0" >config/agentcron/config &&
	cat tick.log.1 >>tick.log && cat tick.log.1 >>tick.log && before=$(wc -c <tick.log) &&
	TASK_NOW=2026-11-23T06:09:00Z task-tick >>tick.log &&
	test "$(wc -c <tick.log)" -gt "$before" &&
	for bad in lots nan -1k 2e15; do
		echo "tick_log_max = $bad" >config/agentcron/config &&
		test_expect_code 2 env TASK_NOW=2026-11-23T06:10:00Z task-tick >out 2>err &&
		test_one_line err && grep -q "tick_log_max .$bad." err && test ! -s out || return 1
	done
'

test_done
