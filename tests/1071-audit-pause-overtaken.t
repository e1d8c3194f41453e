#!/bin/sh
# The scheduler's pause of a recurring task whose retry the next occurrence
# overtook (no pass came at the retry's minute) is made when that occurrence
# is claimed, not at a run's end: it is on the audit trail once, by
# task-tick, with the fields before and after, the chain intact, and later
# passes add nothing.
. "$AC_TOP/tests/lib.sh"
TASK_HOST_ID=here
export TASK_HOST_ID
me="uid $(id -u) on here"
tick="task-tick (uid $(id -u) on here)"
why="paused after 2 failures in a row: exited with status 1"
# trail: seq, who, action and change of every entry, oldest first.
trail() {
	task-log --audit "$@" | cut -f1,3,4,6 | sort -n
}
# trail_created_paused NAME: the trail is NAME's creation by this user,
# then its pause by task-tick, and nothing else.
trail_created_paused() {
	trail >actual &&
	printf "1\t%s\tcreate\tname \"%s\"\n2\t%s\tpause\tenabled: true -> false; paused: null -> \"%s\"\n" \
		"$me" "$1" "$tick" "$why" >expect &&
	test_cmp expect actual
}
entries() {
	store_sql "SELECT count(*) FROM audit"
}
# tick HH:MM: one pass of the scheduler at that minute of 2026-11-23.
tick() {
	TASK_NOW=2026-11-23T$1:00Z task-tick >/dev/null 2>>tick.err
}

# Passes only on the hour: 07:00 fails and its retry (07:01) is never
# reached; at 08:00 it is overtaken and counts (1), 08:00 fails the same way
# and at 09:00 the second overtaken retry pauses the task before the 09:00
# occurrence starts, so no run ends there to make the entry.
test_expect_success 'a retry overtaken pauses at the claim: one entry, by task-tick' '
	id=$(TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --retries 1 \
		--pause-after 2 --name gappy --exec false x) &&
	tick 07:00 && tick 08:00 &&
	task-ls --json | grep -q "\"consecutive_failures\":1," &&
	test "$(entries)" = 1 &&
	tick 09:00 &&
	task-log --limit 0 | cut -f5-7 | sort >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tfailed\nschedule\t2026-11-23T08:00:00Z\tfailed\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T09:00:10Z task-show gappy >show &&
	grep "^status: *pending (paused)$" show && grep "^failures: *2$" show &&
	grep -c "is paused after 2 failures in a row" tick.err >n && echo 1 >expect && test_cmp expect n &&
	trail_created_paused gappy &&
	task-log --audit --task gappy | cut -f2,4,5 >actual &&
	printf "2026-11-23T09:00:00Z\tpause\t%s\n2026-11-23T06:30:00Z\tcreate\t%s\n" \
		"$(echo "$id" | cut -c1-8)" "$(echo "$id" | cut -c1-8)" >expect &&
	test_cmp expect actual &&
	task-log --audit --json --limit 1 | test_json_norm >actual &&
	cat >expect <<-EOF &&
	{"seq":2,"at":"2026-11-23T09:00:00Z","actor":{"uid":$(id -u),"host":"here","scheduler":"task-tick"},"action":"pause","task":"<id1>","before":{"enabled":true,"paused":null},"after":{"enabled":false,"paused":"$why"},"prev":"$(store_sql "SELECT hash FROM audit WHERE seq = 1")","hash":"$(store_sql "SELECT hash FROM audit WHERE seq = 2")"}
	EOF
	test_cmp expect actual &&
	task-log --audit --verify >out &&
	echo "audit trail intact: 2 entries, the last 2 with hash $(store_sql "SELECT hash FROM audit WHERE seq = 2")" >expect &&
	test_cmp expect out
'

test_expect_success 'later passes, at the old retry minute and on, add no entry and no run' '
	for t in 09:01 09:30 10:00 11:00 12:00; do
		tick $t || return 1
	done &&
	test "$(entries)" = 2 &&
	test "$(store_sql "SELECT count(*) FROM audit WHERE action = '\''pause'\''")" = 1 &&
	test "$(task-log --limit 0 | wc -l)" -eq 2 &&
	grep -c "is paused after 2 failures in a row" tick.err >n && echo 1 >expect && test_cmp expect n &&
	task-log --audit --verify >/dev/null
'

# Resumed by the user (the count back to 0, the next run the next hour), it
# fails the same way again: the user's enable and a second pause by the
# scheduler, each once, still chained.
test_expect_success 'resumed, then overtaken again: a second pause, once' '
	TASK_NOW=2026-11-23T12:30:00Z task-edit --enable gappy >/dev/null &&
	tick 13:00 && tick 14:00 &&
	test "$(entries)" = 3 &&
	tick 15:00 && tick 15:01 && tick 16:00 &&
	trail >actual &&
	cat >expect <<-EOF &&
	1	$me	create	name "gappy"
	2	$tick	pause	enabled: true -> false; paused: null -> "$why"
	3	$me	enable	enabled: false -> true; next_run_at: "2026-11-23T09:00:00Z" -> "2026-11-23T13:00:00Z"; due_at: "2026-11-23T09:00:00Z" -> "2026-11-23T13:00:00Z"; consecutive_failures: 2 -> 0; paused: "$why" -> null
	4	$tick	pause	enabled: true -> false; paused: null -> "$why"
	EOF
	test_cmp expect actual &&
	task-log --audit --limit 1 | cut -f2 >actual && echo 2026-11-23T15:00:00Z >expect &&
	test_cmp expect actual &&
	task-log --limit 0 | cut -f6 | sort >actual &&
	printf "2026-11-23T%s:00:00Z\n" 07 08 13 14 >expect && test_cmp expect actual &&
	task-log --audit --verify >out &&
	grep -q "^audit trail intact: 4 entries, the last 4 with hash [0-9a-f]\{64\}$" out
'

# For contrast, issue 35's every-minute task under one pass a minute: its
# retry would fall on the next occurrence, so the failure is counted at the
# run's end, and the pause (after the 09:02 run) is on the trail once too.
test_expect_success 'every minute, one pass a minute: paused at a run end, one entry' '
	reset_store && : >tick.err &&
	TASK_NOW=2026-11-30T09:00:30Z task-add --cron "* * * * *" --pause-after 2 --retries 1 \
		--name fail1m --exec false x >/dev/null &&
	for m in 01 02 03 04 05 06; do
		TASK_NOW=2026-11-30T09:$m:00Z task-tick >/dev/null 2>>tick.err || return 1
	done &&
	trail_created_paused fail1m &&
	task-log --audit --limit 1 | cut -f2 >actual && echo 2026-11-30T09:02:00Z >expect &&
	test_cmp expect actual &&
	test "$(task-log --limit 0 | wc -l)" -eq 2 &&
	task-log --audit --verify >/dev/null
'

test_done
