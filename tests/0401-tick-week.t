#!/bin/sh
# Every schedule kind fires at the right instants over simulated weeks, one
# with the autumn and one with the spring DST change in Europe/London:
# task-tick is run at each next due instant (read from task-ls) with
# TASK_NOW, and the runs on record are compared with the instants worked
# out by hand.
. "$AC_TOP/tests/lib.sh"

# simulate END: tick at every next due instant before END.
simulate() {
	n=0
	while :; do
		next=$(task-ls | cut -f4 | grep -v "^-\$" | sort | head -n 1)
		[ -n "$next" ] && [ "$next" \< "$1" ] || break
		TASK_NOW=$next task-tick >>ticks 2>>tick-errors || return 1
		n=$((n + 1))
		[ "$n" -lt 500 ] || { echo "too many passes" >&2; return 1; }
	done
	test ! -s tick-errors
}

# The runs as "slot name trigger status on-time|late", oldest first.
runs() {
	task-log --limit 0 | awk -F "\t" "{ print \$6, \$4, \$5, \$7, (\$2 == \$6 ? \"on-time\" : \"late\") }" | sort
}

test_expect_success 'a week with the autumn change: cron fixed and wildcard, weekly, at, plan' '
	export TASK_NOW=2026-10-21T23:59:00Z &&
	task-add --cron "30 1 * * *" --tz Europe/London --name fixed --exec true a >/dev/null &&
	task-add --cron "*/20 1 * * *" --tz Europe/London --name wild --exec true b >/dev/null &&
	task-add --weekly "mon 09:00" --tz America/New_York --name weekly --exec true c >/dev/null &&
	task-add --at 2026-10-24T12:00:00Z --name at --exec true d >/dev/null &&
	task-add --plan 2026-10-23T06:00:00Z --plan 2026-10-25T01:30:00Z --plan 2026-10-27T18:45:00Z \
		--name plan --exec true e >/dev/null &&
	task-add --manual --name manual --exec true f >/dev/null &&
	task-add --heartbeat --name addition --exec true g >/dev/null &&
	simulate 2026-10-29T00:00:00Z &&
	runs >actual &&
	cat >expect <<-\EOF &&
	2026-10-22T00:00:00Z wild schedule success on-time
	2026-10-22T00:20:00Z wild schedule success on-time
	2026-10-22T00:30:00Z fixed schedule success on-time
	2026-10-22T00:40:00Z wild schedule success on-time
	2026-10-23T00:00:00Z wild schedule success on-time
	2026-10-23T00:20:00Z wild schedule success on-time
	2026-10-23T00:30:00Z fixed schedule success on-time
	2026-10-23T00:40:00Z wild schedule success on-time
	2026-10-23T06:00:00Z plan schedule success on-time
	2026-10-24T00:00:00Z wild schedule success on-time
	2026-10-24T00:20:00Z wild schedule success on-time
	2026-10-24T00:30:00Z fixed schedule success on-time
	2026-10-24T00:40:00Z wild schedule success on-time
	2026-10-24T12:00:00Z at schedule success on-time
	2026-10-25T00:00:00Z wild schedule success on-time
	2026-10-25T00:20:00Z wild schedule success on-time
	2026-10-25T00:30:00Z fixed schedule success on-time
	2026-10-25T00:40:00Z wild schedule success on-time
	2026-10-25T01:00:00Z wild schedule success on-time
	2026-10-25T01:20:00Z wild schedule success on-time
	2026-10-25T01:30:00Z plan schedule success on-time
	2026-10-25T01:40:00Z wild schedule success on-time
	2026-10-26T01:00:00Z wild schedule success on-time
	2026-10-26T01:20:00Z wild schedule success on-time
	2026-10-26T01:30:00Z fixed schedule success on-time
	2026-10-26T01:40:00Z wild schedule success on-time
	2026-10-26T13:00:00Z weekly schedule success on-time
	2026-10-27T01:00:00Z wild schedule success on-time
	2026-10-27T01:20:00Z wild schedule success on-time
	2026-10-27T01:30:00Z fixed schedule success on-time
	2026-10-27T01:40:00Z wild schedule success on-time
	2026-10-27T18:45:00Z plan schedule success on-time
	2026-10-28T01:00:00Z wild schedule success on-time
	2026-10-28T01:20:00Z wild schedule success on-time
	2026-10-28T01:30:00Z fixed schedule success on-time
	2026-10-28T01:40:00Z wild schedule success on-time
	EOF
	test_cmp expect actual &&
	task-ls | cut -f2-4 | sort >actual &&
	cat >expect <<-\EOF &&
	addition	pending	-
	at	completed	-
	fixed	pending	2026-10-29T01:30:00Z
	manual	pending	-
	plan	completed	-
	weekly	pending	2026-11-02T14:00:00Z
	wild	pending	2026-10-29T01:00:00Z
	EOF
	test_cmp expect actual
'

test_expect_success 'a week with the spring change: a fixed time in the gap fires once, after it' '
	reset_store && rm -f ticks &&
	export TASK_NOW=2027-03-24T23:59:00Z &&
	task-add --cron "30 1 * * *" --tz Europe/London --name fixed --exec true a >/dev/null &&
	task-add --cron "*/30 1 * * *" --tz Europe/London --name wild --exec true b >/dev/null &&
	task-add --cron "0 12 * * *" --tz Europe/London --name noon --exec true c >/dev/null &&
	simulate 2027-03-31T00:00:00Z &&
	runs | grep -v noon >actual &&
	cat >expect <<-\EOF &&
	2027-03-25T01:00:00Z wild schedule success on-time
	2027-03-25T01:30:00Z fixed schedule success on-time
	2027-03-25T01:30:00Z wild schedule success on-time
	2027-03-26T01:00:00Z wild schedule success on-time
	2027-03-26T01:30:00Z fixed schedule success on-time
	2027-03-26T01:30:00Z wild schedule success on-time
	2027-03-27T01:00:00Z wild schedule success on-time
	2027-03-27T01:30:00Z fixed schedule success on-time
	2027-03-27T01:30:00Z wild schedule success on-time
	2027-03-28T01:00:00Z fixed schedule success on-time
	2027-03-29T00:00:00Z wild schedule success on-time
	2027-03-29T00:30:00Z fixed schedule success on-time
	2027-03-29T00:30:00Z wild schedule success on-time
	2027-03-30T00:00:00Z wild schedule success on-time
	2027-03-30T00:30:00Z fixed schedule success on-time
	2027-03-30T00:30:00Z wild schedule success on-time
	EOF
	test_cmp expect actual &&
	runs | grep noon | cut -d" " -f1 >actual &&
	printf "2027-03-%sT%s:00:00Z\n" 25 12 26 12 27 12 28 11 29 11 30 11 >expect &&
	test_cmp expect actual
'

test_done
