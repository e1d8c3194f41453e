#!/bin/sh
# The tasks by state (task-status, task-web's overview), counted from
# indexes alone on both stores: all the tasks, the disabled and those not
# pending, the rest derived.  The counts are the same as before; on
# PostgreSQL the disabled tasks' index is schema step 22, and a store
# from before it is brought up to date in place.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-12-01T00:00:00Z

# The schema version this agentcron gives a new store: its numbered steps
# and the columns of its fields (task_fields.h).
schema=$(d=$(new_store schema) && TASK_DB=$d task-add --manual --name v x >/dev/null &&
	case $AC_STORE in
	sqlite) TASK_DB=$d store_sql "PRAGMA user_version" ;;
	postgres) TASK_DB=$d store_sql "SELECT max(version) FROM agentcron_schema" ;;
	esac) || exit 1

tally() {
	task-status --json >status.json
	test $? -le 2 && sed -n 's/.*"tasks":{\("total":[^}]*\)}.*/\1/p' status.json |
		tr ',' '\n' | grep -E '^"(total|enabled|disabled|pending|running|completed|failed|cancelled)":'
}

test_expect_success 'tasks in every state, one in the trash' '
	for n in 1 2 3 4 5 6 7; do
		task-add --cron "0 9 * * *" --name "t$n" p >/dev/null || return 1
	done &&
	task-edit t1 --disable >/dev/null &&
	task-edit t2 --disable >/dev/null &&
	store_sql "UPDATE tasks SET status = '\''completed'\'' WHERE name IN ('\''t2'\'', '\''t3'\'')" &&
	store_sql "UPDATE tasks SET status = '\''failed'\'' WHERE name = '\''t4'\''" &&
	store_sql "UPDATE tasks SET status = '\''cancelled'\'' WHERE name = '\''t5'\''" &&
	task-rm t7 >/dev/null 2>&1 &&
	tally >actual &&
	printf "%s\n" "\"total\":6" "\"enabled\":4" "\"disabled\":2" "\"pending\":2" "\"running\":0" \
		"\"completed\":2" "\"failed\":1" "\"cancelled\":1" >expect &&
	test_cmp expect actual
'

test_expect_success 'PostgreSQL: a store from before the disabled tasks index gets it' '
	if test "$AC_STORE" = postgres; then
		store_sql "DROP INDEX tasks_disabled; UPDATE agentcron_schema SET version = 21" &&
		task-ls >/dev/null &&
		store_sql "SELECT (SELECT count(*) FROM pg_indexes WHERE indexname = '\''tasks_disabled'\''),
		    (SELECT max(version) FROM agentcron_schema)" >actual &&
		echo "1|$schema" >expect && test_cmp expect actual &&
		tally >actual &&
		printf "%s\n" "\"total\":6" "\"enabled\":4" "\"disabled\":2" "\"pending\":2" "\"running\":0" \
			"\"completed\":2" "\"failed\":1" "\"cancelled\":1" >expect &&
		test_cmp expect actual
	fi
'

test_done
