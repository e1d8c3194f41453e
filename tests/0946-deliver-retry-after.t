#!/bin/sh
# Retry-After in both of its forms (RFC 9110): delay-seconds, and an
# HTTP-date, which is read against the pass's clock (TASK_NOW here); a
# date already past means at once, and a value that is neither leaves
# the usual backoff.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "the answer"\n' >job && chmod +x job || exit 1
receipt() { store_sql "SELECT status, attempts, next_at, error FROM receipts"; }
T0=1795417200 # 2026-11-23T07:00:00Z, a Monday

test_expect_success '429 with an HTTP-date: the next attempt waits until that instant' '
	fresh --deliver @hook &&
	echo "429 Mon, 23 Nov 2026 07:05:00 GMT" >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	receipt >actual && echo "pending|1|$((T0 + 300))|HTTP 429: refused by the stand-in" >expect &&
	test_cmp expect actual &&
	tick 2026-11-23T07:04:59Z && receipt | cut -d"|" -f1,2 >actual && echo "pending|1" >expect &&
	test_cmp expect actual &&
	tick 2026-11-23T07:05:00Z &&
	receipt >actual && echo "delivered|2||" >expect && test_cmp expect actual &&
	check keys /hook | sort -u | wc -l >actual && echo 1 >expect && test_cmp expect actual
'

test_expect_success 'the other date forms (RFC 850, asctime) and delay-seconds on 503' '
	fresh --deliver @push &&
	printf "%s\n" "503 Monday, 23-Nov-26 07:10:00 GMT" "429 Mon Nov 23 07:30:00 2026" "503 120" >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	receipt | cut -d"|" -f1-3 >actual && echo "pending|1|$((T0 + 600))" >expect && test_cmp expect actual &&
	tick 2026-11-23T07:10:00Z &&
	receipt | cut -d"|" -f1-3 >actual && echo "pending|2|$((T0 + 1800))" >expect && test_cmp expect actual &&
	tick 2026-11-23T07:30:00Z &&
	receipt | cut -d"|" -f1-3 >actual && echo "pending|3|$((T0 + 1920))" >expect && test_cmp expect actual
'

test_expect_success 'a date already past: at once (a second); neither form: the usual backoff' '
	fresh --deliver @chat &&
	printf "%s\n" "429 Sun, 22 Nov 2026 07:00:00 GMT" "429 soon" >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	receipt | cut -d"|" -f1-3 >actual && echo "pending|1|$((T0 + 1))" >expect && test_cmp expect actual &&
	tick 2026-11-23T07:00:01Z &&
	receipt | cut -d"|" -f1-3 >actual && echo "pending|2|$((T0 + 1 + 120))" >expect && test_cmp expect actual &&
	tick 2026-11-23T07:02:01Z &&
	receipt | cut -d"|" -f1,2 >actual && echo "delivered|3" >expect && test_cmp expect actual
'

test_expect_success 'Telegram: parameters.retry_after waits as Retry-After does; one past any bound gives up' '
	fresh --deliver @tg &&
	printf "%s\n" "429 90" "429 1e300" >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	receipt | cut -d"|" -f1-3 >actual && echo "pending|1|$((T0 + 90))" >expect && test_cmp expect actual &&
	tick 2026-11-23T07:01:30Z &&
	receipt | cut -d"|" -f1,2,4 >actual &&
	echo "failed|2|gave up after 2 attempts: the receiver asked to wait 2147483647 s (Retry-After), past the 24 hours a delivery is tried for: HTTP 429: stand-in refusal" >expect &&
	test_cmp expect actual
'

test_done
