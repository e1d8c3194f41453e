#!/bin/sh
# What a run reserves against a budget as it starts (its expectation) is,
# in this order: what its task's last reserved run spent; else the most
# one of its task's last runs whose calls are on record cost; else the
# mean of what the last runs of any task cost; else nothing.  The store
# works it out in the statement that writes the reservation, and keeps
# one reservation a task, found through its task.
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

test_expect_success 'a task that ran, with no calls and no reservation, expects the mean of any task' '
	conf "" &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --daily 11:00 --tz UTC --exec true --name f f >/dev/null &&
	TASK_NOW=2026-11-28T10:00:00Z task-run f >/dev/null &&
	test -z "$(reserved f)" &&
	conf "budget = \$1000/day" &&
	tick 2026-11-28T11:00:00Z &&
	# On record: 5, 11, 5 and 5 dollars; 3, 7, 3 and 3 tokens.
	echo "6.5|4|0|0" >expect && reserved f >actual && test_cmp expect actual
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

test_expect_success 'a call made with a run but no task adds to that run'"'"'s reservation' '
	run=$(store_sql "SELECT run_id FROM reserves") &&
	TASK_ID= TASK_RUN_ID=$run llm-call "a b c" >out && grep -q "echo: a b c" out &&
	echo "11|7|22|14" >expect && reserved e >actual && test_cmp expect actual &&
	TASK_ID= TASK_RUN_ID=00000000-0000-4000-8000-000000000000 llm-call "a b c" >out &&
	reserved e >actual && test_cmp expect actual
'

# version: the store's schema version; set_version N: set it.
version() {
	case $AC_STORE in
	sqlite) store_sql "PRAGMA user_version" ;;
	postgres) store_sql "SELECT max(version) FROM agentcron_schema" ;;
	esac
}

test_expect_success 'a store from before, whose reservations had an index by run, keeps them' '
	v=$(version) && id=$(store_sql "SELECT id FROM tasks") &&
	case $AC_STORE in
	sqlite) store_sql "DROP TABLE reserves; CREATE TABLE reserves (task_id TEXT PRIMARY KEY,
		run_id TEXT NOT NULL UNIQUE, dollars REAL NOT NULL, tokens INTEGER NOT NULL,
		spent REAL NOT NULL DEFAULT 0, spent_tokens INTEGER NOT NULL DEFAULT 0);
		INSERT INTO reserves VALUES ('"'"'$id'"'"', '"'"'r-old'"'"', 4, 3, 2, 1);
		PRAGMA user_version = $((v - 1))" ;;
	postgres) store_sql "UPDATE reserves SET run_id = '"'"'r-old'"'"', dollars = 4, tokens = 3,
		spent = 2, spent_tokens = 1;
		ALTER TABLE reserves ADD CONSTRAINT reserves_run_id_key UNIQUE (run_id);
		UPDATE agentcron_schema SET version = $((v - 1))" ;;
	esac &&
	task-ls >/dev/null &&
	test "$(version)" = "$v" &&
	store_sql "SELECT task_id, run_id, dollars, tokens, spent, spent_tokens FROM reserves" |
		sed "s/\.0|/|/g" >actual &&
	echo "$id|r-old|4|3|2|1" >expect && test_cmp expect actual &&
	case $AC_STORE in
	sqlite) store_sql "SELECT sql FROM sqlite_master WHERE tbl_name = '"'"'reserves'"'"'" >actual &&
		test "$(wc -l <actual)" = 1 && grep -q "WITHOUT ROWID$" actual ;;
	postgres) test "$(store_sql "SELECT indexname FROM pg_indexes WHERE tablename = '"'"'reserves'"'"'")" = reserves_pkey ;;
	esac &&
	tick 2026-11-30T10:00:00Z &&
	echo "2|1|11|7" >expect && reserved e >actual && test_cmp expect actual
'

test_done
