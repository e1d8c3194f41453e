#!/bin/sh
# A global budget (the config's `budget`) is checked at every claim, but
# what all tasks spent is read again only when another program may have
# recorded a model call since (SQLite's data_version): a pass of many
# claims of runs that call no model reads it once.  A call another
# program records between two claims is seen by the second.  The reads
# are counted by tests/tools/tick-reads, task-tick with its statements
# traced.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron" || exit 1
now=$(date -u -d "$TASK_NOW" +%s)
spent="FROM llm_calls WHERE created_at"

test_expect_success 'a pass of 30 runs in claims of two reads what all tasks spent once' '
	printf "budget = \$1000/day\n" >"$CONF" && chmod 600 "$CONF" &&
	for i in $(seq 1 30); do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T06:59:00Z --exec true --name "t$i" "p$i" >/dev/null || return 1
	done &&
	store_sql "INSERT INTO llm_calls (task_id, model, input_tokens, output_tokens, created_at, cost)
		VALUES (NULL, '\''m'\'', 10, 10, $now - 60, 2)" &&
	"$AC_BUILD/tools/tick-reads" "$spent" -j 2 >out 2>err &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 30 &&
	grep "^tick-reads: " err >reads &&
	echo "tick-reads: 1" >expect &&
	test_cmp expect reads
'

test_expect_success 'a call recorded by another program between two claims is seen by the second' '
	printf "budget = \$1/day\n" >"$CONF" &&
	store_sql "DELETE FROM llm_calls" &&
	cat >record <<-EOF &&
	#!/bin/sh
	sqlite3 "$TASK_DB" "INSERT INTO llm_calls (task_id, model, input_tokens, output_tokens, created_at, cost)
		VALUES (NULL, '\''m'\'', 10, 10, $now, 5)"
	EOF
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
