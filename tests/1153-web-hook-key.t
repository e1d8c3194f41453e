#!/bin/sh
# task-web's POST /hooks/TASK takes an event's key (Idempotency-Key, else
# X-GitHub-Delivery) on the same terms with a body or without one: 1 to
# 200 bytes of UTF-8 text, else 400 with the reason, nothing queued and
# nothing kept.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

hooked_task || exit 1

kept() {
	store_sql "SELECT (SELECT count(*) FROM web_hook_events) + (SELECT count(*) FROM run_inputs)"
}

web_start

test_expect_success 'a key that is not UTF-8, without a body or with one: 400, nothing queued' '
	bad=$(printf "k\377\376") &&
	test "$(hook -H "Idempotency-Key: $bad")" = 400 &&
	echo "{\"error\":\"key: 1 to 200 bytes of UTF-8 text\"}" >expect && test_cmp expect body &&
	test "$(hook -H "X-GitHub-Delivery: $bad" --data-binary "{}")" = 400 &&
	test_cmp expect body &&
	test "$(queued)" = 0 && test "$(kept)" = 0
'

test_expect_success 'a key over 200 bytes, without a body or with one: 400, nothing queued' '
	long=$(printf "%0201d" 0) &&
	echo "{\"error\":\"key: 1 to 200 bytes of UTF-8 text\"}" >expect &&
	test "$(hook -H "Idempotency-Key: $long")" = 400 &&
	test_cmp expect body &&
	test "$(hook -H "Idempotency-Key: $long" --data-binary "{}")" = 400 &&
	test_cmp expect body &&
	test "$(queued)" = 0 && test "$(kept)" = 0
'

test_expect_success 'a good key still fires once' '
	test "$(hook -H "Idempotency-Key: é-1")" = 202 &&
	test "$(hook -H "Idempotency-Key: é-1")" = 200 &&
	test "$(queued)" = 1 && test "$(kept)" = 1
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
