#!/bin/sh
# What a run reserves against a budget as it starts (its expectation) is,
# in this order: what its task's last reserved run spent; else the most
# one of its task's last runs whose calls are on record cost; else the
# mean of what the last runs of any task cost; else nothing.  The store
# works it out in the statement that writes the reservation.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY" 600 900) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# $1 a token in, $2 a token out; the answer is "echo: " and the prompt:
# "hello" costs $5 (3 tokens), "a b c" $11 (7), "w x y z" $14 (9).
conf() {
	printf "price.gpt-4o-mini = 1000000 2000000\n%s" "$1" >"$CONF" && chmod 600 "$CONF"
}
conf "" || exit 1

tick() {
	at=$1 && shift && TASK_NOW=$at task-tick "$@" >/dev/null
}
# reserved TASK: what its last run reserved and spent, "dollars|tokens|spent|spent_tokens".
reserved() {
	store_sql "SELECT r.dollars, r.tokens, r.spent, r.spent_tokens FROM reserves r
		JOIN tasks t ON t.id = r.task_id WHERE t.name = '$1'" | sed 's/\.0|/|/g; s/\.0$//'
}
add() {
	TASK_NOW=2026-11-23T06:00:00Z task-add --daily "$1" --tz UTC --name "$2" "$3" >/dev/null
}

test_expect_success 'nothing on record: the first runs reserve nothing, and keep what they spent' '
	conf "budget = \$1000/day" &&
	add 07:00 a hello && add 07:00 b "a b c" &&
	tick 2026-11-23T07:00:00Z -j 2 &&
	test "$(task-log --limit 0 --status success | wc -l)" = 2 &&
	echo "0|0|5|3" >expect && reserved a >actual && test_cmp expect actual &&
	echo "0|0|11|7" >expect && reserved b >actual && test_cmp expect actual
'

test_expect_success 'a task with a reservation on record expects what its last run spent' '
	task-edit b --prompt hello >/dev/null &&
	tick 2026-11-24T07:00:00Z -j 2 &&
	echo "5|3|5|3" >expect && reserved a >actual && test_cmp expect actual &&
	echo "11|7|5|3" >expect && reserved b >actual && test_cmp expect actual
'

test_expect_success 'a first run expects the mean of the last runs of any task' '
	# On record: 5, 11, 5 and 5 dollars; 3, 7, 3 and 3 tokens.
	add 08:00 c "w x y z" &&
	tick 2026-11-24T08:00:00Z &&
	echo "6.5|4|14|9" >expect && reserved c >actual && test_cmp expect actual &&
	tick 2026-11-25T07:00:00Z -j 2 &&
	echo "5|3|5|3" >expect && reserved b >actual && test_cmp expect actual
'

test_expect_success 'a task with calls but no reservation expects the most its last runs cost' '
	reset_store && conf "" &&
	add 09:00 d hello &&
	tick 2026-11-25T09:00:00Z &&
	task-edit d --prompt "a b c" >/dev/null &&
	tick 2026-11-26T09:00:00Z &&
	task-edit d --prompt hello >/dev/null &&
	test "$(task-log --limit 0 --status success | wc -l)" = 2 &&
	test -z "$(reserved d)" &&
	conf "budget = \$1000/day" &&
	tick 2026-11-27T09:00:00Z &&
	echo "11|7|5|3" >expect && reserved d >actual && test_cmp expect actual &&
	tick 2026-11-28T09:00:00Z &&
	echo "5|3|5|3" >expect && reserved d >actual && test_cmp expect actual
'

test_expect_success 'a task budget alone reserves the same way' '
	reset_store && conf "" &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --daily 10:00 --tz UTC --budget \$100/day \
		--name e "a b c" >/dev/null &&
	tick 2026-11-28T10:00:00Z &&
	echo "0|0|11|7" >expect && reserved e >actual && test_cmp expect actual &&
	tick 2026-11-29T10:00:00Z &&
	echo "11|7|11|7" >expect && reserved e >actual && test_cmp expect actual
'

test_done
