#!/bin/sh
# A global budget (the config's `budget`) is checked at every claim, but
# what all tasks spent (the spend ledger) is read again only when another
# program may have recorded a model call since (SQLite's data_version), or
# runs of this pass reserved since (their ends settle what they reserved):
# a claim round of many runs that call no model reads it once, and a pass
# of many rounds once a round at most.  A call another
# program records between two claims is seen by the second.  The reads
# are counted by tests/tools/tick-reads, task-tick with its statements
# traced.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron" || exit 1
now=$(date -u -d "$TASK_NOW" +%s)
spent="FROM spend WHERE task_id = ifnull"
# A model call as llm-call records it: its record and the spend ledger's
# quarter-hour (all tasks: task_id '').
call_sql() {
	echo "INSERT INTO llm_calls (task_id, model, input_tokens, output_tokens, created_at, cost)
		VALUES (NULL, 'm', 10, 10, $1, $2);
		INSERT INTO spend (task_id, at, dollars, tokens) VALUES ('', $(($1 - $1 % 900)), $2, 20)
		ON CONFLICT (task_id, at) DO UPDATE SET dollars = dollars + excluded.dollars,
		tokens = tokens + excluded.tokens;"
}

test_expect_success 'a pass of 30 runs claimed in one round reads what all tasks spent once; two at a time, once a round at most' '
	printf "budget = \$1000/day\n" >"$CONF" && chmod 600 "$CONF" &&
	for i in $(seq 1 30); do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T06:59:00Z --exec true --name "t$i" "p$i" >/dev/null || return 1
	done &&
	sqlite3 "$TASK_DB" "$(call_sql $((now - 60)) 2)" &&
	"$AC_BUILD/tools/tick-reads" "$spent" -j 30 >out 2>err &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 30 &&
	grep "^tick-reads: " err >reads &&
	echo "tick-reads: 1" >expect &&
	test_cmp expect reads &&
	store_sql "DELETE FROM runs" &&
	for i in $(seq 1 30); do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T06:59:30Z --exec true --name "u$i" "q$i" >/dev/null || return 1
	done &&
	"$AC_BUILD/tools/tick-reads" "$spent" -j 2 >out 2>err &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 30 &&
	# 2 claimed, then 1 as each ends: 29 rounds.  No run on record made a
	# call, so each reserved nothing, and its end settles nothing: one read.
	grep "^tick-reads: 1$" err
'

test_expect_success 'runs that reserved something are settled by their ends: a round after them reads again' '
	store_sql "DELETE FROM runs" &&
	store_sql "INSERT INTO llm_calls (task_id, run_id, model, input_tokens, output_tokens, created_at, cost)
		VALUES (NULL, '\''r1'\'', '\''m'\'', 10, 10, $((now - 60)), 0.5)" &&
	for i in $(seq 1 30); do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T06:59:40Z --exec true --name "v$i" "r$i" >/dev/null || return 1
	done &&
	"$AC_BUILD/tools/tick-reads" "$spent" -j 2 >out 2>err &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 30 &&
	test "$(store_sql "SELECT count(*) FROM reserves WHERE dollars = 0.5 AND tokens = 20")" = 30 &&
	n=$(sed -n "s/^tick-reads: //p" err) && test "$n" -ge 2 && test "$n" -le 29
'

test_expect_success 'a run reserves in one statement: what it expects is read by the write' '
	store_sql "DELETE FROM runs" &&
	for i in $(seq 1 30); do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T06:59:50Z --exec true --name "w$i" "s$i" >/dev/null || return 1
	done &&
	"$AC_BUILD/tools/tick-reads" reserves -j 30 >out 2>err &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 30 &&
	# 30 reservations and the one read of what all tasks spent (with
	# what the runs in flight reserved).
	grep "^tick-reads: 31$" err
'

test_expect_success 'a call recorded by another program between two claims is seen by the second' '
	printf "budget = \$1/day\n" >"$CONF" &&
	store_sql "DELETE FROM llm_calls" && store_sql "DELETE FROM spend" &&
	call_sql $now 5 >record.sql &&
	printf "#!/bin/sh\nsqlite3 \"\$TASK_DB\" <\"%s\"\n" "$PWD/record.sql" >record &&
	chmod +x record &&
	a=$(TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T06:58:00Z --exec "$PWD/record" --name a a) &&
	b=$(TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T06:59:00Z --exec true --name b b) &&
	"$AC_BUILD/tools/tick-reads" "$spent" -j 1 >out 2>err &&
	test "$(store_sql "SELECT status FROM runs WHERE task_id = '\''$a'\''")" = success &&
	store_sql "SELECT status, error FROM runs WHERE task_id = '\''$b'\''" >actual &&
	echo "skipped|budget: \$5.00 of \$1.00 this day (all tasks)" >expect &&
	test_cmp expect actual &&
	grep "^tick-reads: 2$" err
'

test_done
