-- tests/bench/status.sh: what task-status --prometheus reads,
-- as psql would read it.
SELECT value FROM settings WHERE key = 'paused';
SELECT host, at, mode, pid, version FROM passes ORDER BY at DESC, host;
SELECT status, enabled, count(*) FROM tasks WHERE deleted_at IS NULL GROUP BY status, enabled;
SELECT * FROM tasks WHERE deleted_at IS NULL AND status = 'pending' AND enabled = 1
 AND coalesce(next_run_at, 9223372036854775807) <= :now
 ORDER BY coalesce(next_run_at, 9223372036854775807), seq;
SELECT * FROM tasks WHERE deleted_at IS NULL AND paused IS NOT NULL
 ORDER BY coalesce(next_run_at, 9223372036854775807), seq;
SELECT * FROM tasks WHERE deleted_at IS NULL AND last_status IN ('failed', 'timeout', 'interrupted')
 ORDER BY coalesce(next_run_at, 9223372036854775807), seq;
SELECT status, count(*) FROM runs WHERE started_at >= :day GROUP BY status;
SELECT sum(input_tokens), sum(output_tokens) FROM llm_calls WHERE created_at >= :today;
SELECT sum(cost), sum(input_tokens + output_tokens) FROM llm_calls WHERE created_at >= :today;
SELECT * FROM tasks WHERE deleted_at IS NULL AND budget IS NOT NULL;
SELECT sum(cost) FROM llm_calls WHERE task_id IN (SELECT id FROM tasks WHERE deleted_at IS NULL
 AND budget IS NOT NULL) AND created_at >= :today GROUP BY task_id;
SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c WHERE c.oid IN (to_regclass('tasks'),
 to_regclass('runs'), to_regclass('messages'), to_regclass('llm_calls'), to_regclass('settings'),
 to_regclass('processes'), to_regclass('passes'), to_regclass('pruned'),
 to_regclass('agentcron_schema'));
SELECT status, count(*) FROM runs GROUP BY status;
SELECT key, n FROM pruned;
SELECT sum(input_tokens), sum(output_tokens) FROM llm_calls;
SELECT sum(cost), sum(input_tokens + output_tokens) FROM llm_calls;
SELECT id, CASE WHEN deleted_at IS NULL THEN name END, last_success_at FROM tasks
 WHERE last_success_at IS NOT NULL ORDER BY id;
