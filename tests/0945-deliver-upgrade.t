#!/bin/sh
# The delivery step of the schema: a store from before it (schema 14 in a
# file, 10 on PostgreSQL) is upgraded in place, its tasks kept, and gains
# the tasks' delivery fields and the receipts.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'a store from before delivery is upgraded and keeps its tasks' '
	task-add --daily 07:00 --name kept x >/dev/null &&
	case $AC_STORE in
	sqlite) sqlite3 "$TASK_DB" "DROP TABLE spend; DROP TABLE reserves; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; ALTER TABLE tasks DROP COLUMN gate; ALTER TABLE tasks DROP COLUMN gate_timeout;
		DROP INDEX tasks_herd; DROP TABLE run_inputs; DROP INDEX tasks_after; ALTER TABLE tasks DROP COLUMN after_tasks; DROP INDEX tasks_deliver; DROP TABLE receipts;
		ALTER TABLE tasks DROP COLUMN deliver; ALTER TABLE tasks DROP COLUMN deliver_on;
		ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 14;" ;;
	postgres) store_sql "DROP TABLE spend, reserves; ALTER TABLE tasks DROP COLUMN gate, DROP COLUMN gate_timeout;
		DROP INDEX tasks_herd; DROP TABLE run_inputs; DROP INDEX tasks_after; ALTER TABLE tasks DROP COLUMN after_tasks; DROP INDEX tasks_deliver; DROP TABLE receipts;
		ALTER TABLE tasks DROP COLUMN deliver; ALTER TABLE tasks DROP COLUMN deliver_on;
		ALTER TABLE llm_calls DROP COLUMN request; UPDATE agentcron_schema SET version = 10" ;;
	esac &&
	task-ls | cut -f2 >actual && echo kept >expect && test_cmp expect actual &&
	task-edit kept --deliver mailto:me@example.org >/dev/null &&
	store_sql "SELECT name, deliver FROM tasks" >actual &&
	echo "kept|[\"mailto:me@example.org\"]" >expect && test_cmp expect actual &&
	store_sql "SELECT count(*) FROM receipts" >actual && echo 0 >expect && test_cmp expect actual
'

test_done
