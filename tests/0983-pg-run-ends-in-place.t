#!/bin/sh
# PostgreSQL: a run's end changes no indexed column of runs, and the
# table leaves room on each page for its rows' ends (schema 20, fillfactor
# 70), so the server writes every end in place (a HOT update) instead of
# adding an entry to each index of runs: a burst's WAL per job.  With full
# pages, 16 ends of a pass over 300 due tasks found no room (at 80, 2
# to 5).  A store of schema 19 is brought up to date.
. "$AC_TOP/tests/lib.sh"

export TASK_EXEC=true TASK_NOW=2026-11-23T07:00:00Z

# The schema version this agentcron gives a new store: its numbered steps
# and the columns of its fields (task_fields.h).
schema=$(d=$(new_store schema) && TASK_DB=$d task-add --manual --name v x >/dev/null &&
	TASK_DB=$d store_sql "SELECT max(version) FROM agentcron_schema") || exit 1

# hot_ends N: once the server's counters have the N ends of runs, "updates
# hot-updates" of runs.
hot_ends() {
	test_until 30 test "$(store_sql "SELECT n_tup_upd >= $1 FROM pg_stat_user_tables
	    WHERE relname = 'runs'")" = t &&
	store_sql "SELECT n_tup_upd || ' ' || n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'runs'"
}

test_expect_success 'a new store leaves room on the pages of runs' '
	task-add --manual --name first x >/dev/null &&
	store_sql "SELECT reloptions FROM pg_class WHERE relname = '\''runs'\''" >actual &&
	echo "{fillfactor=70}" >expect && test_cmp expect actual
'

test_expect_success 'every end of 300 runs of one pass is written in place' '
	awk "BEGIN { for (i = 0; i < 300; i++)
		printf(\"{\\\"name\\\":\\\"b%03d\\\",\\\"prompt\\\":\\\"burst job %d\\\",\\\"at\\\":\\\"2026-11-23T06:59:00Z\\\"}\\n\", i, i) }" |
		task-add --json - >/dev/null &&
	task-tick -j 8 >out &&
	test "$(grep -c "\"status\":\"success\"" out)" = 300 &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 300 &&
	hot_ends 300 >actual &&
	echo "300 300" >expect && test_cmp expect actual
'

test_expect_success 'a store of schema 19 is brought up to date' '
	store_sql "ALTER TABLE runs RESET (fillfactor)" &&
	store_sql "UPDATE agentcron_schema SET version = 19" &&
	task-add --manual --name second y >/dev/null &&
	store_sql "SELECT (SELECT reloptions FROM pg_class WHERE relname = '\''runs'\'')::text || '\'' '\'' ||
	    (SELECT max(version) FROM agentcron_schema)" >actual &&
	echo "{fillfactor=70} $schema" >expect && test_cmp expect actual
'

test_done
