#!/bin/sh
# task-status --prometheus: agentcron_deliveries_total counts deliveries
# that ended, and only grows: those of runs pruned since stay counted, as
# agentcron_runs_total's do.  Deliveries not ended yet are a gauge,
# agentcron_deliveries_pending, which goes down as they end.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "the answer"\n' >job && chmod +x job || exit 1

# metrics TIME: the delivery lines of task-status --prometheus at TIME.
metrics() {
	TASK_NOW=$1 task-status --prometheus >metrics &&
	if command -v promtool >/dev/null; then promtool check metrics <metrics; fi &&
	grep "^agentcron_deliveries" metrics
}

# hour H: 2026-11-23T0H:00:00Z (H two digits).
hour() { echo "2026-11-23T$1:00:00Z"; }

test_expect_success '21 delivered, one waiting for its retry: a counter and a gauge' '
	reset_store && rm -f rcv/requests rcv/plan &&
	TASK_NOW=2026-11-23T00:30:00Z task-add --cron "0 * * * *" --exec "$PWD/job" --retries 0 \
		--deliver @hook --name hourly x >/dev/null &&
	for i in $(seq 21); do echo 200; done >rcv/plan && echo 500 >>rcv/plan &&
	for h in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22; do
		tick "$(hour $h)" || return 1
	done &&

	metrics 2026-11-23T22:00:10Z >actual &&
	cat >expect <<-\EOT &&
	agentcron_deliveries_total{kind="webhook",status="delivered"} 21
	agentcron_deliveries_pending{kind="webhook"} 1
	EOT
	test_cmp expect actual &&
	cp expect before-pruning
'

test_expect_success 'the oldest two runs pruned with their receipts: the counter stays' '
	echo "keep = 1d" >>config/agentcron/config &&
	TASK_NOW=2026-11-25T00:00:00Z task-log --prune >/dev/null &&
	store_sql "SELECT count(*) FROM receipts" >actual && echo 20 >expect && test_cmp expect actual &&
	metrics 2026-11-25T00:00:10Z >actual &&
	test_cmp before-pruning actual
'

test_expect_success 'the retry delivers: pending goes, the counter goes up' '
	TASK_NOW=2026-11-25T00:01:00Z task-edit --disable hourly >/dev/null &&
	printf "200\n" >rcv/plan &&
	tick 2026-11-25T00:05:00Z &&
	metrics 2026-11-25T00:05:10Z >actual &&
	echo "agentcron_deliveries_total{kind=\"webhook\",status=\"delivered\"} 22" >expect &&
	test_cmp expect actual
'

store_sql "SELECT status, attempts, error FROM receipts" >test_done2
test_done
