#!/bin/sh
# The gate step of the schema: a store from before it (schema 16 in a
# file, 12 on PostgreSQL; the later chains step undone too) is upgraded
# in place, its tasks kept, and its tasks can be given a gate.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'a store from before gates is upgraded and keeps its tasks' '
	task-add --daily 07:00 --name kept x >/dev/null &&
	case $AC_STORE in
	sqlite) sqlite3 "$TASK_DB" "DROP TABLE spend; DROP TABLE reserves; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; DROP TABLE run_inputs; DROP INDEX tasks_after;
		ALTER TABLE tasks DROP COLUMN after_tasks; ALTER TABLE tasks DROP COLUMN gate;
		ALTER TABLE tasks DROP COLUMN gate_timeout; ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 16;" ;;
	postgres) store_sql "DROP TABLE spend, reserves; DROP TABLE run_inputs; DROP INDEX tasks_after;
		ALTER TABLE tasks DROP COLUMN after_tasks, DROP COLUMN gate, DROP COLUMN gate_timeout;
		ALTER TABLE llm_calls DROP COLUMN request; UPDATE agentcron_schema SET version = 12" ;;
	esac &&
	task-ls | cut -f2 >actual && echo kept >expect && test_cmp expect actual &&
	task-edit kept --gate "test -e mail" --gate-timeout 5 >/dev/null &&
	store_sql "SELECT name, gate, gate_timeout FROM tasks" >actual &&
	echo "kept|test -e mail|5" >expect && test_cmp expect actual
'

test_done
