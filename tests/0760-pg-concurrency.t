#!/bin/sh
# max_concurrent across hosts on PostgreSQL: three hosts (namespaces where
# unshare can make them), two tickers each, 20 due llm-call runs and a
# limit of 2: never more than 2 in flight at once, counted from the
# executors' own log, and each run once; a limit per model likewise.
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB
mkdir -p config/agentcron
cfg=config/agentcron/config
# llm-call as the tickers find it first in PATH, logging its runs.
fake_llm_call fake || exit 1
PATH=$PWD/fake:$PATH GATE_LOG=$PWD/log
export PATH GATE_LOG

# import N [MODEL]: N one-shots due at 09:00.
import() {
	i=0
	while [ "$i" -lt "$1" ]; do
		printf '{"name":"t%d%s","prompt":"p%d %s","kind":"at","at":"2026-11-25T09:00:00Z"%s}\n' \
			"$i" "${2:-}" "$i" "${2:-}" "${2:+,\"model\":\"$2\"}"
		i=$((i + 1))
	done | TASK_NOW=2026-11-25T08:00:00Z task-add --json - >/dev/null
}

# hosts: two tickers on each of three hosts, at once.
hosts() {
	for h in a b c; do
		for k in 1 2; do
			TASK_NOW=2026-11-25T09:00:05Z on_host $h task-tick -j 4 >tick.$h$k 2>err.$h$k &
		done
	done
	wait
}

test_expect_success 'a limit of 2 across 3 hosts and 20 due runs: at most 2 in flight, each run once' '
	printf "max_concurrent = 2\n" >$cfg && chmod 600 $cfg &&
	import 20 &&
	hosts &&
	cat err.* >errs && test_cmp /dev/null errs &&
	test "$(cat tick.* | grep -c "\"status\":\"success\"")" -eq 20 &&
	test "$(grep -c "^start" log)" -eq 20 &&
	cut -d" " -f2 log | sort | uniq -c | awk "\$1 != 2" >twice && test_cmp /dev/null twice &&
	echo 2 >expect && in_flight_max >actual && test_cmp expect actual &&
	pg_sql "SELECT status, count(*) FROM runs GROUP BY status" >actual &&
	echo "success|20" >expect && test_cmp expect actual
'

test_expect_success 'the runs were claimed across the hosts, and waited for each other' '
	for h in a b c; do cat tick.${h}1 tick.${h}2 | wc -l; done >shares &&
	test "$(awk "\$1 > 0" shares | wc -l)" -ge 2
'

test_expect_success 'concurrency.MODEL across hosts: that model one at a time' '
	pg_reset_db "$TASK_DB" && rm -f log tick.* err.* &&
	printf "concurrency.small = 1\n" >$cfg &&
	import 6 small && import 6 big &&
	hosts &&
	cat err.* >errs && test_cmp /dev/null errs &&
	test "$(grep -c "^start" log)" -eq 12 &&
	echo 1 >expect && in_flight_max small >actual && test_cmp expect actual &&
	test "$(in_flight_max big)" -ge 2
'

test_done
