#!/bin/sh
# Receipts and retries: a failed delivery is retried by later passes with
# backoff (30 s, 2 min, ...) or when Retry-After says, every attempt with
# the same idempotency key; a refusal (4xx but 408 and 429) is failed at
# once; a dropped connection and a slow answer are retried; after 24 hours
# it is failed for good.  Delivery never changes the run or re-runs it.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "the answer"\n' >job && chmod +x job || exit 1
receipt() { store_sql "SELECT status, attempts, next_at, answer, error FROM receipts"; }
T0=1795417200 # 2026-11-23T07:00:00Z

test_expect_success '5xx, then 429 with Retry-After, then a dropped connection, then a slow answer: retried until delivered' '
	fresh --deliver @hook &&
	printf "500\n429 45\ndrop\nslow 5\n" >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	receipt >actual && echo "pending|1|$((T0 + 30))||HTTP 500: refused by the stand-in" >expect &&
	test_cmp expect actual &&
	tick 2026-11-23T07:00:29Z && receipt | cut -d"|" -f2 >actual && echo 1 >expect && test_cmp expect actual &&
	tick 2026-11-23T07:00:30Z &&
	receipt >actual && echo "pending|2|$((T0 + 30 + 45))||HTTP 429: refused by the stand-in" >expect &&
	test_cmp expect actual &&
	tick 2026-11-23T07:01:15Z &&
	receipt | cut -d"|" -f1-3 >actual && echo "pending|3|$((T0 + 75 + 600))" >expect && test_cmp expect actual &&
	tick 2026-11-23T07:11:15Z &&
	receipt | cut -d"|" -f1-3,5 >actual && echo "pending|4|$((T0 + 675 + 1800))|no answer in time" >expect &&
	test_cmp expect actual &&
	tick 2026-11-23T07:41:15Z &&
	receipt >actual && echo "delivered|5||HTTP 200|" >expect && test_cmp expect actual &&
	check keys /hook | sort -u | wc -l >actual && echo 1 >expect && test_cmp expect actual &&
	check keys /hook | wc -l >actual && echo 5 >expect && test_cmp expect actual &&
	store_sql "SELECT status, attempt FROM runs" >actual && echo "success|1" >expect && test_cmp expect actual
'

test_expect_success 'a refusal (400) is failed at once and not tried again' '
	fresh --deliver @hook --deliver @tg &&
	printf "400\n400\n" >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT kind, status, attempts, error FROM receipts ORDER BY kind" >actual &&
	cat >expect <<-\EOT &&
	telegram|failed|1|HTTP 400: stand-in refusal
	webhook|failed|1|HTTP 400: refused by the stand-in
	EOT
	test_cmp expect actual &&
	tick 2026-11-23T09:00:00Z &&
	test "$(wc -l <rcv/requests)" = 2 &&
	task-log --deliveries --status failed >out && test "$(wc -l <out)" = 2 &&
	task-log --deliveries --status delivered >out && test ! -s out
'

test_expect_success 'task-status: a delivery failed for good is a WARNING; --prometheus counts them' '
	TASK_NOW=2026-11-23T09:00:00Z test_expect_code 1 task-status --check >out &&
	grep "^AGENTCRON WARNING - 2 deliveries failed for good" out &&
	TASK_NOW=2026-11-23T09:00:00Z task-status >out &&
	grep "^  Delivery:  24 h: 2 undelivered (0 pending, 2 failed), 0 delivered$" out &&
	TASK_NOW=2026-11-23T09:00:00Z task-status --prometheus >metrics &&
	if command -v promtool >/dev/null; then promtool check metrics <metrics; fi &&
	grep "^agentcron_deliveries_total" metrics >actual &&
	cat >expect <<-\EOT &&
	agentcron_deliveries_total{kind="telegram",status="failed"} 1
	agentcron_deliveries_total{kind="webhook",status="failed"} 1
	EOT
	test_cmp expect actual
'

test_expect_success 'past 24 hours of failures it is failed for good, with why' '
	fresh --deliver @hook &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
		echo 503; done >rcv/plan &&
	t=$T0 && while [ $t -le $((T0 + 90000)) ]; do
		tick "$(rfc3339 $t)" || return 1
		t=$((t + 10800))
	done &&
	store_sql "SELECT status, error FROM receipts" >actual &&
	grep "^failed|gave up after [0-9]* attempts in 24 hours: HTTP 503" actual
'

test_expect_success 'a Telegram 429 with retry_after, and parts: a retry sends only the parts not yet taken' '
	$PY "$AC_TOP/tests/tools/deliver-check" long 9000 >answer &&
	printf "#!/bin/sh\ncat \"\$(dirname \"\$0\")/answer\"\n" >job &&
	fresh --deliver @tg &&
	printf "ok\n429 20\n" >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT status, attempts, next_at, parts_done FROM receipts" >actual &&
	echo "pending|1|$((T0 + 20))|1" >expect && test_cmp expect actual &&
	tick 2026-11-23T07:00:20Z &&
	store_sql "SELECT status, attempts, parts_done FROM receipts" >actual &&
	echo "delivered|2|3" >expect && test_cmp expect actual &&
	check keys /bot >keys && test "$(wc -l <keys)" = 4 && test "$(sort -u keys | wc -l)" = 3 &&
	check text telegram >got && test_cmp answer got
'

test_expect_success 'the default targets of the config, and --deliver-on failure' '
	echo "deliver = @hook" >>config/agentcron/config &&
	printf "#!/bin/sh\necho ok\n" >job &&
	fresh --deliver-on failure &&
	tick 2026-11-23T07:00:00Z &&
	test "$(store_sql "SELECT count(*) FROM receipts")" = 0 &&
	printf "#!/bin/sh\necho broke >&2; exit 1\n" >job &&
	tick 2026-11-24T07:00:00Z &&
	store_sql "SELECT kind, status FROM receipts" >actual && echo "webhook|delivered" >expect &&
	test_cmp expect actual &&
	$PY -c "import json; r=[json.loads(l) for l in open(\"rcv/requests\")][-1]; d=json.loads(r[\"body\"])[\"data\"]; print(d[\"status\"], d[\"error\"].strip())" >actual &&
	echo "failed exited with status 1
broke" >expect && test_cmp expect actual
'

test_done
