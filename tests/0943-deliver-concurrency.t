#!/bin/sh
# One sender at a time per receipt: two tickers deliver at once and the
# receiver sees each idempotency key once; a sender killed (-9) in the
# middle of a send leaves its lease, which no other pass takes until it
# expires, and then the same key is sent again and the receipt delivered.
# Meant for PostgreSQL (several hosts); it holds on SQLite too.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "answer of $TASK_NAME"\n' >job && chmod +x job || exit 1

test_expect_success 'two tickers at once: every receipt delivered, each key received once' '
	reset_store && rm -f rcv/requests &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --name "t$i" \
			--deliver @hook "x$i" >/dev/null || return 1
		echo "slow 0.2"
	done >rcv/plan &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick -j 2 >tick1.out 2>tick1.err & p1=$!; } &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick -j 2 >tick2.out 2>tick2.err & p2=$!; } &&
	wait $p1 && wait $p2 &&
	TASK_NOW=2026-11-23T07:00:00Z task-deliver >/dev/null &&
	store_sql "SELECT status, attempts, count(*) FROM receipts GROUP BY status, attempts" >actual &&
	echo "delivered|1|12" >expect && test_cmp expect actual &&
	check keys /hook >keys && test "$(wc -l <keys)" = 12 && test "$(sort -u keys | wc -l)" = 12 &&
	store_sql "SELECT id FROM receipts ORDER BY id" >ids && sort keys >sorted && test_cmp ids sorted
'

test_expect_success 'kill -9 mid-send: the lease holds others off, then the same key is sent again' '
	reset_store && rm -f rcv/requests rcv/release && echo hold >rcv/plan &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --name held \
		--deliver @hook x >/dev/null &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >tick.out 2>tick.err & tp=$!; } &&
	test_until 30 test -s rcv/requests &&
	dp=$(ps -o pid= --ppid $tp | tr -d " ") && test -n "$dp" &&
	test "$(cat /proc/$dp/comm)" = task-deliver &&
	kill -9 "$dp" && wait $tp &&
	store_sql "SELECT status, attempts FROM receipts" >actual && echo "pending|1" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:00:30Z task-deliver >out && test ! -s out &&
	test "$(wc -l <rcv/requests)" = 1 &&
	touch rcv/release &&
	TASK_NOW=2026-11-23T07:01:20Z task-deliver >out &&
	store_sql "SELECT status, attempts, answer FROM receipts" >actual &&
	echo "delivered|2|HTTP 200" >expect && test_cmp expect actual &&
	check keys /hook >keys && test "$(wc -l <keys)" = 2 && test "$(sort -u keys | wc -l)" = 1
'

test_done
