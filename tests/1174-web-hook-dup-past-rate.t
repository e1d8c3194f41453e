#!/bin/sh
# task-web's POST /hooks/TASK: a redelivery (an event key already had)
# gets its 200 "duplicate" even past hook_rate, with a body or without
# one; a new event past the rate still gets 429.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

mkdir -p config/agentcron && echo "hook_rate = 2" >config/agentcron/config
export XDG_CONFIG_HOME="$PWD/config"

hooked_task || exit 1

web_start

test_expect_success 'two events fill the rate' '
	test "$(hook -H "Idempotency-Key: a")" = 202 &&
	test "$(hook -H "Idempotency-Key: b" --data-binary "{\"ev\":1}")" = 202
'

test_expect_success 'past the rate, a redelivery without a body: 200 duplicate' '
	test "$(hook -H "Idempotency-Key: a")" = 200 &&
	echo "{\"task\":\"$id\",\"duplicate\":true}" >expect && test_cmp expect body
'

test_expect_success 'past the rate, a redelivery with a body: 200 duplicate' '
	test "$(hook -H "X-GitHub-Delivery: b" --data-binary "{\"ev\":1}")" = 200 &&
	test_cmp expect body
'

test_expect_success 'past the rate, a new event: 429, nothing kept' '
	test "$(hook -H "Idempotency-Key: c")" = 429 &&
	test "$(hook -H "Idempotency-Key: d" --data-binary "{}")" = 429 &&
	test "$(store_sql "SELECT count(*) FROM web_hook_events")" = 2 &&
	test "$(store_sql "SELECT count(*) FROM run_inputs")" = 1
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
