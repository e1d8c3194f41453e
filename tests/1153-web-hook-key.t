#!/bin/sh
# task-web's POST /hooks/TASK takes an event's key (Idempotency-Key, else
# X-GitHub-Delivery) on the same terms with a body or without one: 1 to
# 200 bytes of UTF-8 text, else 400 with the reason, nothing queued and
# nothing kept.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

task-add --manual --name deploy --exec cat "deploy {{input}}" >id
id=$(cat id)
task-web --trigger-token "$id" >ttok 2>/dev/null
ttok=$(cat ttok)

queued() {
	store_sql "SELECT queued FROM tasks WHERE id = '$id'"
}
kept() {
	store_sql "SELECT (SELECT count(*) FROM web_hook_events) + (SELECT count(*) FROM run_inputs)"
}

web_start

test_expect_success 'a key that is not UTF-8, without a body or with one: 400, nothing queued' '
	bad=$(printf "k\377\376") &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" -H "Idempotency-Key: $bad" \
		"$url/hooks/$id")" = 400 &&
	echo "{\"error\":\"key: 1 to 200 bytes of UTF-8 text\"}" >expect && test_cmp expect body &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" -H "X-GitHub-Delivery: $bad" \
		--data-binary "{}" "$url/hooks/$id")" = 400 &&
	test_cmp expect body &&
	test "$(queued)" = 0 && test "$(kept)" = 0
'

test_expect_success 'a key over 200 bytes, without a body or with one: 400, nothing queued' '
	long=$(printf "%0201d" 0) &&
	echo "{\"error\":\"key: 1 to 200 bytes of UTF-8 text\"}" >expect &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" -H "Idempotency-Key: $long" \
		"$url/hooks/$id")" = 400 &&
	test_cmp expect body &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" -H "Idempotency-Key: $long" \
		--data-binary "{}" "$url/hooks/$id")" = 400 &&
	test_cmp expect body &&
	test "$(queued)" = 0 && test "$(kept)" = 0
'

test_expect_success 'a good key still fires once' '
	test "$(req body -X POST -H "Authorization: Bearer $ttok" -H "Idempotency-Key: é-1" \
		"$url/hooks/$id")" = 202 &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" -H "Idempotency-Key: é-1" \
		"$url/hooks/$id")" = 200 &&
	test "$(queued)" = 1 && test "$(kept)" = 1
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
