#!/bin/sh
# Edges of budgets that a change of one comparison in common/budget.c
# would move, found by mutating it and seeing which changes no other test
# noticed: a budget spent to the cent is spent, and a month's window
# starts on its first day.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# $1 a token in, $2 a token out: "hello" (1 in, 2 out) costs $5 a run.
printf "price.gpt-4o-mini = 1000000 2000000\n" >"$CONF" && chmod 600 "$CONF" || exit 1

# runs: slot and status of every run, oldest first.
runs() {
	task-log --limit 0 | cut -f6,7 | sort
}

test_expect_success 'a budget spent exactly is spent: the next occurrence is skipped' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 * * * *" --tz UTC --budget \$10/day \
		--exec llm-call hello >/dev/null &&
	for h in 07 08 09; do TASK_NOW=2026-11-23T$h:00:00Z task-tick >/dev/null 2>&1 || return 1; done &&
	runs >actual &&
	cat >expect <<-\EOF &&
	2026-11-23T07:00:00Z	success
	2026-11-23T08:00:00Z	success
	2026-11-23T09:00:00Z	skipped
	EOF
	test_cmp expect actual &&
	task-log --limit 1 --json | grep -q "\"error\":\"budget: \$10.00 of \$10.00 this day\""
'

test_expect_success 'a month is from its first day: what the last day of the month before spent is not counted' '
	reset_store &&
	TASK_NOW=2026-11-29T06:00:00Z task-add --cron "0 7 * * *" --tz UTC --budget \$5/month \
		--exec llm-call hello >/dev/null &&
	for d in 2026-11-30 2026-12-01; do TASK_NOW=${d}T07:00:00Z task-tick >/dev/null 2>&1 || return 1; done &&
	runs >actual &&
	cat >expect <<-\EOF &&
	2026-11-30T07:00:00Z	success
	2026-12-01T07:00:00Z	success
	EOF
	test_cmp expect actual
'

test_expect_success 'a budget of nothing is refused, in dollars as in tokens' '
	for bad in \$0/day 0usd/week \$0.0/month; do
		test_expect_code 2 task-add --manual --budget "$bad" x >out 2>err &&
		test_one_line err && test ! -s out || return 1
	done
'

test_done
