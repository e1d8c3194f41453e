#!/bin/sh
# task-when --simulate: the days ahead of every enabled task, nothing
# fired.  Fires per minute are checked against two references: the
# instants task-when --id lists for each task (stagger and jitter
# applied), and the runs real task-tick passes make, one a minute; then
# the whole text for a small store, clock changes, the spend expected
# from recorded model calls against the budgets, and bad input.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-30T00:00:00Z TZ=UTC
mkdir -p "$XDG_CONFIG_HOME/agentcron"
config() {
	printf '%s\n' "$@" >"$XDG_CONFIG_HOME/agentcron/config"
}

test_expect_success 'an empty store: nothing fires' '
	task-when --simulate 1d >out &&
	cat >expect <<-\EOF &&
	from 2026-11-30 00:00 to 2026-12-01 00:00 (UTC): 0 tasks fire 0 times
	busiest minutes: none
	fires per task: none
	clock changes: none
	expected spend per day:
	  2026-11-30       0 fires  $0.00
	EOF
	test_cmp expect out
'

test_expect_success 'the whole report for a small store, the busiest first' '
	config "stagger = 0" &&
	task-add --cron "0 9 * * *" --name daily --exec true a >daily.id &&
	task-add --cron "*/30 * * * *" --name halfhourly --exec true b >half.id &&
	task-add --at "2026-11-30T09:00:00Z" --name once --exec true c >once.id &&
	task-add --manual --name byhand --exec true d >/dev/null &&
	task-add --cron "0 8 * * *" --name paused --exec true e >paused.id &&
	task-edit "$(cat paused.id)" --disable >/dev/null &&
	task-when --simulate 1d >out &&
	d=$(cut -c1-8 daily.id) h=$(cut -c1-8 half.id) o=$(cut -c1-8 once.id) &&
	cat >expect <<-EOF &&
	from 2026-11-30 00:00 to 2026-12-01 00:00 (UTC): 3 tasks fire 49 times
	busiest minutes:
	  2026-11-30 09:00  3
	  2026-11-30 00:30  1
	  2026-11-30 01:00  1
	  2026-11-30 01:30  1
	  2026-11-30 02:00  1
	fires per task:
	      47  $h  halfhourly  (no priced call in 30 days)
	       1  $(sort -u daily.id once.id | head -n 1 | cut -c1-8)  $(test "$d" \< "$o" && echo daily || echo once)  (no priced call in 30 days)
	       1  $(sort -u daily.id once.id | tail -n 1 | cut -c1-8)  $(test "$d" \< "$o" && echo once || echo daily)  (no priced call in 30 days)
	clock changes: none
	expected spend per day:
	  2026-11-30      49 fires  \$0.00
	EOF
	test_cmp expect out
'

# minutes: "MINUTE COUNT" lines from --simulate --json.
minutes() {
	tr "{" "\n" | sed -n "s/^\"at\":\"\([^\"]*\)\",\"fires\":\([0-9]*\)}.*/\1 \2/p"
}

test_expect_success 'fires per minute are the instants task-when --id lists, stagger and jitter applied' '
	config "stagger = 5m" &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		task-add --cron "0 9 * * *" --name herd$i --exec true x >/dev/null || return 1
	done &&
	task-add --cron "*/20 * * * *" --jitter 7m --name jittery --exec true y >/dev/null &&
	task-add --every 90m --name interval --exec true z >/dev/null &&
	task-when --simulate --json 2d >sim.json &&
	sed -n "1s/^{\"from\".*\"busiest\".*/ok/p" sim.json | grep -q ok &&
	minutes <sim.json | awk "NF == 2" >actual.all &&
	# The listing by minute, from the per-minute part only (the busiest repeat it).
	sed "s/,\"busiest\".*//" sim.json | minutes >actual &&
	: >instants &&
	for id in $(task-ls --json | sed -n "s/.*\"id\":\"\([^\"]*\)\".*\"enabled\":true.*/\1/p"); do
		task-when --utc --id "$id" -n 400 >>instants 2>/dev/null || : # manual: none
	done &&
	awk "\$0 < \"2026-12-02T00:00:00Z\" && \$0 >= \"2026-11-30T00:00:00Z\"" instants |
		cut -c1-16 | sort | uniq -c | awk "{ print \$2 \":00Z\", \$1 }" >expect &&
	test_cmp expect actual &&
	test "$(awk "{ s += \$2 } END { print s }" actual)" = \
		"$(sed -n "s/.*\"tasks\":[0-9]*,\"fires\":\([0-9]*\),.*/\1/p" sim.json)" &&
	herd=$(grep "^2026-11-30T09:0" actual | awk "{ s += \$2 } END { print s }") &&
	test "$herd" -ge 12
'

test_expect_success 'fires per minute are the runs one task-tick pass a minute makes' '
	reset_store && config "stagger = 0" &&
	task-add --cron "*/7 * * * *" --name seven --exec true a >/dev/null &&
	task-add --cron "5,6,50 * * * *" --name few --exec true b >/dev/null &&
	task-add --cron "0 * * * *" --name hourly --exec true c >/dev/null &&
	task-add --every 25m --name every --exec true d >/dev/null &&
	TASK_NOW=2026-11-30T00:00:00Z task-when --simulate --json 2h | sed "s/,\"busiest\".*//" |
		minutes >expect &&
	m=0 &&
	while [ $m -lt 120 ]; do
		TASK_NOW=$(date -u -d "@$((1795996800 + m * 60))" +%Y-%m-%dT%H:%M:%SZ) task-tick >/dev/null ||
			return 1
		m=$((m + 1))
	done &&
	task-log --json --limit 1000 | sed -n "s/.*\"slot\":\"\([^\"]*\)\".*/\1/p" |
		cut -c1-16 | sort | uniq -c | awk "{ print \$2 \":00Z\", \$1 }" >actual &&
	test_cmp expect actual
'

test_expect_success 'clock changes met, in each task zone once' '
	reset_store && config "stagger = 0" &&
	export TASK_NOW=2027-03-10T00:00:00Z &&
	task-add --cron "30 2 * * *" --tz Europe/Berlin --name berlin --exec true a >/dev/null &&
	task-add --cron "0 3 * * *" --tz America/New_York --name ny --exec true b >/dev/null &&
	task-when --simulate 21d >out &&
	sed -n "/^clock changes:/,/^expected/p" out >actual &&
	cat >expect <<-\EOF &&
	clock changes:
	  Europe/Berlin  2027-03-28T01:00:00Z  +01:00 -> +02:00
	  America/New_York  2027-03-14T07:00:00Z  -05:00 -> -04:00
	expected spend per day:
	EOF
	sort expect >e && sort actual >a && test_cmp e a &&
	grep -q "2 tasks fire 42 times" out &&
	grep -q "^  2027-03-28       2 fires" out
'

test_expect_success 'spend expected from recent model calls, against the budgets' '
	export TASK_NOW=2026-11-30T00:00:00Z &&
	reset_store && config "stagger = 0" "budget = \$1/day" &&
	id=$(task-add --cron "0 * * * *" --budget "\$0.50/day" --name pricey --exec true a) &&
	task-add --cron "0 12 * * *" --name cheap --exec true b >/dev/null &&
	store_sql "INSERT INTO llm_calls (task_id, input_tokens, output_tokens, cost, created_at)
		VALUES ('\''$id'\'', 10, 5, 0.02, 1796000000), ('\''$id'\'', 10, 5, 0.06, 1796000100),
		('\''$id'\'', 10, 5, 9.99, 1700000000)" &&
	task-when --simulate 2d >out &&
	short=$(echo "$id" | cut -c1-8) &&
	grep -q "^      47  $short  pricey  (\$0.04 a fire)$" out &&
	grep -q "^  2026-11-30      24 fires  \$0.92$" out &&
	grep -q "^  2026-12-01      25 fires  \$0.96$" out &&
	grep -q "^  all tasks: \$1.00 a day; at most \$0.96 expected in the day from 2026-12-01 00:00$" out &&
	grep -q "^  task $short: \$0.50 a day; at most \$0.96 expected in the day from 2026-12-01 00:00: OVER$" out &&
	task-when --simulate --json 2d >out.json &&
	grep -q "\"global_budget\":{\"budget\":\"\$1/day\",\"worst\":0.96,\"worst_from\":\"2026-12-01T00:00:00Z\",\"over\":false}" out.json &&
	config "stagger = 0" "budget = \$0.90/day" &&
	task-when --simulate 2d >out &&
	grep -q "^  all tasks: \$0.90 a day; at most \$0.96 expected in the day from 2026-12-01 00:00: OVER$" out
'

# By hand: up fires at 09:00 and 15:00; first (manual, after up) and
# second (manual, after first:any, two down the chain) run after each of
# those; noon (its own 12:00, after up:any) fires 3 times; onfail (after
# up:failure) expects no failure; off (after up) is disabled.  A chained
# run counts in its upstream's minute, and at its own task's cost.
test_expect_success 'runs started by chains count at their upstream'"'"'s minute' '
	reset_store && config "stagger = 0" &&
	task-add --cron "0 9,15 * * *" --name up --exec true a >/dev/null &&
	first=$(task-add --manual --after up --name first --exec true b) &&
	task-add --manual --after first:any --name second --exec true c >/dev/null &&
	task-add --cron "0 12 * * *" --after up:any --name noon --exec true d >/dev/null &&
	task-add --manual --after up:failure --name onfail --exec true e >/dev/null &&
	off=$(task-add --manual --after up --name off --exec true f) &&
	task-edit "$off" --disable >/dev/null &&
	store_sql "INSERT INTO llm_calls (task_id, input_tokens, output_tokens, cost, created_at)
		VALUES ('\''$first'\'', 10, 5, 0.03, 1796000000)" &&
	task-when --simulate 1d >out &&
	sed -n "1,/^fires per task:/p" out >actual &&
	cat >expect <<-\EOF &&
	from 2026-11-30 00:00 to 2026-12-01 00:00 (UTC): 5 tasks fire 9 times
	busiest minutes:
	  2026-11-30 09:00  4
	  2026-11-30 15:00  4
	  2026-11-30 12:00  1
	fires per task:
	EOF
	test_cmp expect actual &&
	grep -q "^       2  [0-9a-f]\{8\}  up  (no priced call in 30 days)$" out &&
	grep -q "^       2  $(echo "$first" | cut -c1-8)  first  (\$0.03 a fire)$" out &&
	grep -q "^       2  [0-9a-f]\{8\}  second  (no priced call in 30 days)$" out &&
	grep -q "^       3  [0-9a-f]\{8\}  noon  (no priced call in 30 days)$" out &&
	grep -q "^       0  [0-9a-f]\{8\}  onfail  (no priced call in 30 days)$" out &&
	! grep -q "  off  " out &&
	grep -q "^  2026-11-30       9 fires  \$0.06$" out &&
	task-when --simulate --json 1d >out.json &&
	sed "s/,\"busiest\".*//" out.json | minutes >actual &&
	printf "%s\n" "2026-11-30T09:00:00Z 4" "2026-11-30T12:00:00Z 1" \
		"2026-11-30T15:00:00Z 4" >expect &&
	test_cmp expect actual &&
	grep -q "\"per_day\":\[{\"date\":\"2026-11-30\",\"fires\":9,\"dollars\":0.06}\]" out.json
'

test_expect_success 'bad input: one line, exit 2, nothing changed' '
	task-ls --json >before &&
	for d in 0 30s 367d soon 1x; do
		test_expect_code 2 task-when --simulate "$d" >out 2>err &&
		test_cmp /dev/null out && test_one_line err &&
		grep -q "^task-when: --simulate: bad duration" err || return 1
	done &&
	test_expect_code 2 task-when --simulate --cron "0 9 * * *" 2>err && test_one_line err &&
	test_expect_code 2 task-when --simulate 1d 2d 2>err && test_one_line err &&
	grep -q "^task-when: --simulate takes every enabled task" err &&
	task-ls --json >after && test_cmp before after
'

test_done
