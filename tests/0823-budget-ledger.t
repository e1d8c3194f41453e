#!/bin/sh
# Budgets count from a spend ledger that history's pruning never touches
# (task-log --prune, keep, keep_runs, a task's own keep), and a run a pass
# starts reserves what its task's last runs cost against its own and the
# global budget, so runs started together do not each get the whole of
# what is left.  A store from before the ledger is filled from its calls.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY" 600 900) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# "hello" is 1 token in, 2 out: $5 a run.
price() {
	printf "price.gpt-4o-mini = 1000000 2000000\n%s" "$1" >"$CONF" && chmod 600 "$CONF"
}
price "" || exit 1

tick() {
	at=$1 && shift && TASK_NOW=$at task-tick "$@" >/dev/null
}
# statuses: slot and status of every run, oldest first.
statuses() {
	task-log --limit 0 | cut -f6,7 | tac
}

# minutes FROM TO: a pass at each minute of 07:FROM..07:TO on 2026-11-23.
minutes() {
	m=$1
	while [ "$m" -le "$2" ]; do
		tick "2026-11-23T07:$(printf %02d "$m"):00Z" || return 1
		m=$((m + 1))
	done
}
# spent_then_skipped: 3 runs spent the $12 a day (at $5 each), 23 were
# skipped: more than the 20 runs a task always keeps.
spent_then_skipped() {
	minutes 0 25 &&
	statuses | cut -f2 | sort | uniq -c | sed "s/^ *//" >actual &&
	printf "23 skipped\n3 success\n" >expect && test_cmp expect actual
}
# still_over: the calls are gone, the budget still holds at 07:26.
still_over() {
	test "$(store_sql "SELECT count(*) FROM llm_calls")" = 0 &&
	tick 2026-11-23T07:26:00Z &&
	task-log --limit 1 | cut -f6,7 >actual &&
	printf "2026-11-23T07:26:00Z\tskipped\n" >expect && test_cmp expect actual &&
	task-log --limit 1 --json | grep -q "\"error\":\"budget: \$15.00 of \$12.00 this day\"" &&
	TASK_NOW=2026-11-23T07:27:00Z task-show minutely | grep "^budget:" >actual &&
	echo "budget:       \$12/day, \$15.00 spent this day (over: its runs are skipped until the next)" >expect &&
	test_cmp expect actual
}

test_expect_success 'a budget over its amount stays over once task-log --prune removed the calls' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "* * * * *" --tz UTC --budget \$12/day \
		--name minutely hello >/dev/null &&
	spent_then_skipped &&
	price "keep_runs = 20" &&
	TASK_NOW=2026-11-23T07:25:30Z task-log --prune >out &&
	grep -q "^removed 6 runs (with 3 model calls)" out &&
	still_over &&
	tick 2026-11-24T00:00:00Z && task-log --limit 1 | cut -f6,7 >actual &&
	printf "2026-11-24T00:00:00Z\tsuccess\n" >expect && test_cmp expect actual &&
	price ""
'

test_expect_success 'an agent giving its own task a short keep does not reset its budget' '
	reset_store &&
	echo "{\"name\":\"task_create\",\"arguments\":{\"name\":\"minutely\",\"prompt\":\"hello\",\"cron\":\"* * * * *\",\"tz\":\"UTC\",\"budget\":\"\$12/day\"}}" |
		TASK_NOW=2026-11-23T06:00:00Z task-mcp --call >out &&
	grep -q "^Created" out &&
	spent_then_skipped &&
	echo "{\"name\":\"task_update\",\"arguments\":{\"id\":\"minutely\",\"keep\":\"20\"}}" |
		TASK_NOW=2026-11-23T07:25:10Z task-mcp --call >out &&
	grep -q "^Task .minutely. updated" out &&
	TASK_NOW=2026-11-23T07:25:30Z task-log --prune >out &&
	grep -q "^removed 6 runs (with 3 model calls)" out &&
	still_over
'

test_expect_success 'six tasks due at once under a global budget: it is reserved, not handed to each' '
	reset_store &&
	for i in 1 2 3 4 5 6; do
		TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --tz UTC --name t$i hello >/dev/null ||
		return 1
	done &&
	tick 2026-11-23T07:00:00Z -j 6 &&
	test "$(task-log --limit 0 --status success | wc -l)" = 6 &&
	price "budget = \$12/day" &&
	tick 2026-11-24T07:00:00Z -j 6 &&
	task-log --limit 0 --since 2026-11-24T00:00:00Z | cut -f7 | sort | uniq -c |
		sed "s/^ *//" >actual &&
	printf "3 skipped\n3 success\n" >expect && test_cmp expect actual &&
	task-log --usage --since 2026-11-24T00:00:00Z --json | grep -q "\"cost\":15" &&
	test "$(store_sql "SELECT count(*) FROM reserves WHERE dollars = 5")" = 3 &&
	price ""
'

test_expect_success 'a run in flight counts what it reserved; its end settles it' '
	reset_store &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --tz UTC --budget \$8/day --name r hello >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	run=00000000-0000-4000-8000-0000000000ab &&
	id=$(store_sql "SELECT id FROM tasks") &&
	store_sql "INSERT INTO runs (id, task_id, trigger, status, started_at, lease_until, owner_id)
		VALUES ('\''$run'\'', '\''$id'\'', '\''manual'\'', '\''running'\'', 1795500000, 1895500000, '\''x'\'')" &&
	store_sql "UPDATE tasks SET run_in_flight = '\''$run'\''" &&
	store_sql "DELETE FROM reserves" &&
	store_sql "INSERT INTO reserves (run_id, task_id, dollars, tokens) VALUES
		('\''$run'\'', '\''$id'\'', 4, 3)" &&
	TASK_NOW=2026-11-23T08:00:00Z task-show r | grep "^budget:" >actual &&
	echo "budget:       \$8/day, \$9.00 spent this day (over: its runs are skipped until the next)" >expect &&
	test_cmp expect actual &&
	store_sql "UPDATE reserves SET spent = 3" &&
	TASK_NOW=2026-11-23T08:00:00Z task-show r | grep "^budget:" >actual &&
	echo "budget:       \$8/day, \$6.00 spent this day" >expect &&
	test_cmp expect actual &&
	store_sql "UPDATE tasks SET run_in_flight = NULL" &&
	TASK_NOW=2026-11-23T08:00:00Z task-show r | grep "^budget:" >actual &&
	echo "budget:       \$8/day, \$5.00 spent this day" >expect &&
	test_cmp expect actual
'

# What the store looked like before the ledger.
rewind() {
	case $AC_STORE in
	sqlite) store_sql "DROP TABLE spend; DROP TABLE reserves; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 18" ;;
	postgres) store_sql "DROP TABLE spend, reserves; UPDATE agentcron_schema SET version = 14" ;;
	esac
}

test_expect_success 'a store from before the ledger: what its calls spent is counted' '
	reset_store &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 * * * *" --tz UTC --budget \$12/day \
		--name old hello >/dev/null &&
	for h in 07 08 09; do tick 2026-11-23T$h:00:00Z || return 1; done &&
	rewind &&
	tick 2026-11-23T10:00:00Z &&
	statuses | tail -n 1 >actual &&
	printf "2026-11-23T10:00:00Z\tskipped\n" >expect && test_cmp expect actual &&
	store_sql "SELECT task_id = '\'''\'', sum(dollars), sum(tokens) FROM spend GROUP BY 1 ORDER BY 1" >actual &&
	case $AC_STORE in
	sqlite) printf "0|15.0|9\n1|15.0|9\n" ;;
	postgres) printf "f|15|9\nt|15|9\n" ;;
	esac >expect && test_cmp expect actual
'

test_done
