#!/bin/sh
# An event's key, from task-run --payload --key or from task-web's POST
# /hooks/TASK: an event with a body and task-run's of the same key are one
# event, also once their runs are pruned; a bodiless event is another kind,
# whatever its key ("key:K" without a body is not K with one).  Keys of
# bodiless events kept as sent, before the kinds had forms of their own,
# are still found until hook_keep forgets them, and taken for no other.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

keep_a_day_from 2026-11-23T07:00:00Z || exit 1

hooked_task || exit 1
keys() {
	store_sql "SELECT key FROM web_hook_events" | LC_ALL=C sort
}
dup() {
	echo "{\"task\":\"$id\",\"duplicate\":true}" >expect && test_cmp expect body
}
# The body_sha256 every bodiless event's key was kept with, as sent.
raw=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855

web_start

test_expect_success 'task-run --key K, then K with a body over HTTP: one event; and the other way' '
	task-run --queue --payload "{\"n\":1}" --key a "$id" >/dev/null &&
	test "$(hook -H "Idempotency-Key: a" --data-binary "{\"n\":1}")" = 200 && dup &&
	test "$(hook -H "X-GitHub-Delivery: b" --data-binary "{\"n\":2}")" = 202 &&
	task-run --queue --payload "{\"n\":2}" --key b "$id" >/dev/null 2>err &&
	grep -q "event .b. was delivered before and waits in the queue" err &&
	task-tick >/dev/null &&
	test "$(rows_in runs)" = 2 && test "$(queued)" = 0 &&
	keys >actual && printf "key:a\nkey:b\n" >expect && test_cmp expect actual
'

test_expect_success 'bodiless "key:c" and "key:d", then c with a body and d by task-run: four events' '
	test "$(hook -H "Idempotency-Key: key:c")" = 202 &&
	task-tick >/dev/null &&
	test "$(hook -H "Idempotency-Key: c" --data-binary "{\"n\":3}")" = 202 &&
	task-tick >/dev/null &&
	test "$(hook -H "Idempotency-Key: key:d")" = 202 &&
	task-tick >/dev/null &&
	task-run --payload "{\"n\":4}" --key d "$id" >/dev/null &&
	test "$(rows_in runs)" = 6 &&
	keys >actual &&
	printf "bare:key:c\nbare:key:d\nkey:a\nkey:b\nkey:c\nkey:d\n" >expect && test_cmp expect actual
'

test_expect_success 'runs pruned two days on; the same keys by the other door: duplicates' '
	filler_runs "$id" 25 $((now + 3600)) &&
	export TASK_NOW=$(rfc3339 $((now + 2 * 86400))) &&
	task-log --prune >/dev/null &&
	test "$(rows_in runs)" = 20 && test "$(rows_in run_inputs)" = 0 &&
	test "$(hook -H "Idempotency-Key: a" --data-binary "{\"n\":1}")" = 200 && dup &&
	task-run --queue --payload "{\"n\":2}" --key b "$id" >/dev/null 2>err &&
	grep -q "event .b. was delivered before (its run is no longer kept" err &&
	task-run --queue --payload "{\"n\":3}" --key c "$id" >/dev/null 2>err &&
	grep -q "event .c. was delivered before (its run is no longer kept" err &&
	test "$(hook -H "Idempotency-Key: key:d")" = 200 && dup &&
	test "$(queued)" = 0 && test "$(rows_in run_inputs)" = 0
'

test_expect_success 'keys kept as sent: a bodiless redelivery is a duplicate, a body event of the like key is not' '
	store_sql "INSERT INTO web_hook_events (task_id, key, at, body_sha256)
		VALUES ('\''$id'\'', '\''old'\'', $now, '\''$raw'\''),
		('\''$id'\'', '\''key:e'\'', $now, '\''$raw'\'')" &&
	test "$(hook -H "Idempotency-Key: old")" = 200 && dup &&
	test "$(hook -H "Idempotency-Key: key:e")" = 200 && dup &&
	test "$(queued)" = 0 &&
	test "$(hook -H "Idempotency-Key: e" --data-binary "{\"n\":5}")" = 202 &&
	task-tick >/dev/null &&
	run=$(store_sql "SELECT run_id FROM run_inputs WHERE key = '\''key:e'\''") &&
	test "$(hook -H "Idempotency-Key: e" --data-binary "{\"n\":5}")" = 200 &&
	echo "{\"task\":\"$id\",\"duplicate\":true,\"run\":\"$run\"}" >expect &&
	test_cmp expect body &&
	store_sql "SELECT key, CASE WHEN body_sha256 IS NULL THEN '\''none'\'' ELSE '\''hash'\'' END
		FROM web_hook_events WHERE key LIKE '\''%e'\'' OR key LIKE '\''%old'\''" | LC_ALL=C sort >actual &&
	printf "bare:key:e|none\nbare:old|none\nkey:e|hash\nold|hash\n" >expect &&
	test_cmp expect actual'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
