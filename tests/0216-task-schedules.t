#!/bin/sh
# Intervals, several cron expressions and --not-before in the store:
# task-add, task-edit, task-show, task-ls and JSON both ways (a task of one
# expression keeps its JSON as before), the native tools, and the
# refusals, which change nothing.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-25T09:17:42Z

test_expect_success 'task-add --every: kind every, the anchor to the minute, next run one interval on' '
	id=$(task-add --every 90m --exec true ev) &&
	task-show --json "$id" >j &&
	sed "s/.*\"kind\":\"\([^\"]*\)\",\"cron\":null,\"every\":\([0-9]*\),\"anchor\":\"\([^\"]*\)\".*\"description\":\"\([^\"]*\)\".*\"next_run_at\":\"\([^\"]*\)\".*/\1 \2 \3 \4 \5/" j >actual &&
	echo "every 5400 2026-11-25T09:17:00Z Every 90 minutes from 2026-11-25 09:17 2026-11-25T10:47:00Z" >expect &&
	test_cmp expect actual &&
	task-show "$id" | sed -n "/^schedule:/p; /^next run:/p" >actual &&
	cat >expect <<-\EOF &&
	schedule:     Every 90 minutes from 2026-11-25 09:17 (UTC)
	next run:     2026-11-25 10:47 UTC (2026-11-25T10:47:00Z)
	EOF
	test_cmp expect actual
'

test_expect_success 'task-add --every --from in the future: the anchor is the first run; in the past, its phase' '
	a=$(task-add --every 2h --from "2026-11-25 12:00" --exec true later) &&
	b=$(task-add --every 2h --from "2026-11-20 08:30" --exec true earlier) &&
	task-ls --kind every | cut -f2,4,5 >actual &&
	cat >expect <<-\EOF &&
	earlier	2026-11-25T10:30:00Z	Every 2 hours from 2026-11-20 08:30
	ev	2026-11-25T10:47:00Z	Every 90 minutes from 2026-11-25 09:17
	later	2026-11-25T12:00:00Z	Every 2 hours from 2026-11-25 12:00
	EOF
	test_cmp expect actual
'

test_expect_success 'several --cron: stored as one text, shown whole; JSON has cron (the first) and crons' '
	id=$(task-add --cron "0 7 * * 1-5" --cron "0 10 * * 6,0" --daily 07:00 --exec true multi) &&
	task-show "$id" | sed -n "/^schedule:/p" >actual &&
	echo "schedule:     Weekdays at 07:00, weekends at 10:00 and daily at 07:00 (cron '\''0 7 * * 1-5; 0 10 * * 6,0; 0 7 * * *'\'', UTC)" >expect &&
	test_cmp expect actual &&
	task-show --json "$id" | sed "s/.*\(\"cron\":.*\"at\":null\).*/\1/" >actual &&
	echo "\"cron\":\"0 7 * * 1-5\",\"crons\":[\"0 7 * * 1-5\",\"0 10 * * 6,0\",\"0 7 * * *\"],\"at\":null" >expect &&
	test_cmp expect actual &&
	one=$(task-add --cron "0 8 * * *" --exec true one) &&
	task-show --json "$one" | sed "s/.*\(\"cron\":.*\"at\":null\).*/\1/" >actual &&
	echo "\"cron\":\"0 8 * * *\",\"at\":null" >expect &&
	test_cmp expect actual &&
	store_sql "SELECT cron FROM tasks WHERE id = '\''$id'\''" >actual &&
	echo "0 7 * * 1-5; 0 10 * * 6,0; 0 7 * * *" >expect &&
	test_cmp expect actual
'

test_expect_success '--not-before: the first run at or after it; --count counts from there' '
	id=$(task-add --daily 09:00 --not-before "2026-12-01 09:00" --count 3 --exec true nb) &&
	task-show "$id" | sed -n "/^schedule:/p; /^next run:/p; /^ends:/p" >actual &&
	cat >expect <<-\EOF &&
	schedule:     Daily at 09:00, not before 2026-12-01 09:00, 3 times (cron '\''0 9 * * *'\'', UTC)
	next run:     2026-12-01 09:00 UTC (2026-12-01T09:00:00Z)
	ends:         2026-12-03 09:00 UTC (after 3 occurrences); 3 occurrences left
	EOF
	test_cmp expect actual
'

test_expect_success 'JSON round trip into another store: every field as it was' '
	task-ls --json >all &&
	other=$(new_store other) &&
	TASK_DB=$other task-add --json - <all >/dev/null &&
	TASK_DB=$other task-ls --json >copy &&
	test_cmp all copy
'

test_expect_success 'JSON import: crons alone, cron and crons that agree, every with an anchor in words' '
	reset_store &&
	echo "{\"name\":\"a\",\"prompt\":\"p\",\"crons\":[\"0 8 * * *\",\"0 20 * * *\"]}" | task-add --json - >/dev/null &&
	echo "{\"name\":\"b\",\"prompt\":\"q\",\"cron\":\"0 6 * * *\",\"crons\":[\"0 6 * * *\",\"0 18 * * *\"]}" | task-add --json - >/dev/null &&
	echo "{\"name\":\"c\",\"prompt\":\"r\",\"every\":3600,\"anchor\":\"tomorrow 9am\",\"not_before\":\"dec 1\"}" | task-add --json - >/dev/null &&
	task-ls | cut -f2,4,5 >actual &&
	cat >expect <<-\EOF &&
	b	2026-11-25T18:00:00Z	Daily at 06:00 and daily at 18:00
	a	2026-11-25T20:00:00Z	Daily at 08:00 and daily at 20:00
	c	2026-12-01T00:00:00Z	Every hour from 2026-11-26 09:00, not before 2026-12-01 00:00
	EOF
	test_cmp expect actual
'

test_expect_success 'JSON import refusals add nothing' '
	reset_store &&
	while IFS="|" read -r json msg; do
		echo "$json" >in &&
		test_expect_code 2 task-add --json - <in >out 2>err &&
		echo "task-add: stdin:1: $msg" >expect &&
		test_cmp expect err || { echo "$json"; return 1; }
	done <<-\EOF &&
	{"name":"x","prompt":"p","cron":"0 9 * * *","crons":["0 8 * * *"]}|field '\''cron'\'' must be the first of '\''crons'\'' (or give '\''crons'\'' alone)
	{"name":"x","prompt":"p","crons":[]}|field '\''crons'\'' must be a non-empty array of cron expressions
	{"name":"x","prompt":"p","crons":["0 8 * * *; 0 9 * * *"]}|field '\''crons'\'' must hold cron expressions, one a string
	{"name":"x","prompt":"p","every":30}|an interval (--every) must be from 1 minute to 366 days
	{"name":"x","prompt":"p","every":3600,"cron":"0 9 * * *"}|kind '\''cron'\'' does not match the schedule fields given
	{"name":"x","prompt":"p","at":"tomorrow","not_before":"dec 1"}|--not-before holds back recurring tasks (--cron, --daily, --weekly, --every); a one-shot task (--at) has its own times
	EOF
	task-ls >actual && test_cmp /dev/null actual
'

test_expect_success 'task-edit: --every keeps the anchor, --from moves it, a new schedule drops both' '
	reset_store &&
	id=$(task-add --every 90m --exec true ev) &&
	task-edit "$id" --every 2h >actual &&
	printf "every: 5400 -> 7200\nnext run: 2026-11-25 11:17 UTC\n" >expect &&
	test_cmp expect actual &&
	task-edit "$id" --from "2026-11-25 09:00" >actual &&
	printf "anchor: 2026-11-25T09:17:00Z -> 2026-11-25T09:00:00Z\nnext run: 2026-11-25 11:00 UTC\n" >expect &&
	test_cmp expect actual &&
	task-edit "$id" --cron "0 9 * * *" --cron "0 10 * * *" >actual &&
	cat >expect <<-\EOF &&
	kind: every -> cron
	cron: none -> 0 9 * * *
	crons: none -> ["0 9 * * *","0 10 * * *"]
	every: 7200 -> none
	anchor: 2026-11-25T09:00:00Z -> none
	next run: 2026-11-25 10:00 UTC
	EOF
	test_cmp expect actual &&
	task-edit "$id" --not-before "dec 1" >actual &&
	printf "not_before: none -> 2026-12-01T00:00:00Z\nnext run: 2026-12-01 09:00 UTC\n" >expect &&
	test_cmp expect actual &&
	task-edit "$id" --not-before none >actual &&
	printf "not_before: 2026-12-01T00:00:00Z -> none\nnext run: 2026-11-25 10:00 UTC\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-edit refusals change nothing' '
	id=$(task-add --daily 08:00 --exec true d) &&
	task-show --json "$id" >before &&
	test_expect_code 2 task-edit "$id" --from 10am 2>err &&
	echo "task-edit: --from anchors an interval: give it with --every" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-edit "$id" --every 10s 2>err &&
	echo "task-edit: bad --every '\''10s'\'': expected an interval from 1 minute to 366 days" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-edit "$id" --cron "0 8 * * *" --cron "61 * * * *" 2>err &&
	echo "task-edit: cron expression 2 of 2 ('\''61 * * * *'\''): bad minute field '\''61'\'': 61 is out of range 0-59" >expect &&
	test_cmp expect err &&
	task-show --json "$id" >after &&
	test_cmp before after
'

test_expect_success 'the native tools: every, from, not_before, several expressions in cron' '
	reset_store &&
	cat >calls <<-\EOF &&
	{"name":"task_create","arguments":{"name":"iv","prompt":"p","every":"2h30m","from":"2026-11-25 10:00"}}
	{"name":"task_create","arguments":{"name":"two","prompt":"q","cron":"0 7 * * 1-5; 0 10 * * 6,0","not_before":"dec 1"}}
	{"name":"task_create","arguments":{"name":"bad","prompt":"r","cron":"0 7 * * *; 0 99 * * *"}}
	{"name":"task_create","arguments":{"name":"bad2","prompt":"r","every":"1 month"}}
	EOF
	test_expect_code 2 task-mcp --call <calls >actual 2>&1 &&
	sed -n "/^Schedule:/p; /^Next run:/p; /Invalid\|interval/p" actual >got &&
	cat >expect <<-\EOF &&
	Schedule: Every 2 hours 30 minutes from 2026-11-25 10:00 (UTC)
	Next run: 2026-11-25 10:00 UTC
	Schedule: Weekdays at 07:00 and weekends at 10:00, not before 2026-12-01 00:00 (UTC)
	Next run: 2026-12-01 07:00 UTC
	Invalid cron expressions: Cron expression 2 of 2 ('\''0 99 * * *'\''): bad hour field '\''99'\'': 99 is out of range 0-23.
	every: bad interval '\''1 month'\'': write one such as 90m, 2h30m, 1d or '\''90 minutes'\''.
	EOF
	test_cmp expect got
'

test_done
