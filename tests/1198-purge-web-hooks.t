#!/bin/sh
# Emptying the trash takes a task's HTTP trigger (its token's hash) and
# the keys of its events with it: they stayed behind for good.  Another
# task's trigger and keys stay.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

kept=$(task-add --manual --name kept --exec cat "kept {{input}}")
gone=$(task-add --manual --name gone --exec cat "gone {{input}}")
task-web --trigger-token "$kept" >tkept 2>/dev/null
task-web --trigger-token "$gone" >tgone 2>/dev/null

hook() {
	hook_tok_=$(cat "t$1") hook_key_=$2
	if test "$1" = kept; then hook_id_=$kept; else hook_id_=$gone; fi
	shift 2
	req body -X POST -H "Authorization: Bearer $hook_tok_" -H "Idempotency-Key: $hook_key_" "$@" \
		"$url/hooks/$hook_id_"
}
rows() {
	store_sql "SELECT (SELECT count(*) FROM web_hooks WHERE task_id = '$1') || ' ' ||
		(SELECT count(*) FROM web_hook_events WHERE task_id = '$1') || ' ' ||
		(SELECT count(*) FROM run_inputs WHERE task_id = '$1')"
}

web_start

test_expect_success 'each task fired by an event with a body and one without' '
	test "$(hook kept a --data-binary "{}")" = 202 &&
	test "$(hook kept b)" = 202 &&
	test "$(hook gone a --data-binary "{}")" = 202 &&
	test "$(hook gone b)" = 202 &&
	test "$(rows "$kept")" = "1 2 1" && test "$(rows "$gone")" = "1 2 1"
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_expect_success 'task-rm, then --purge: the trashed task leaves no trigger and no key' '
	task-rm "$gone" 2>/dev/null &&
	test "$(rows "$gone")" = "1 2 1" &&
	task-rm --purge 2>/dev/null &&
	test "$(rows "$gone")" = "0 0 0" &&
	test "$(rows "$kept")" = "1 2 1"
'

test_done
