-- tests/bench/status.sh: what task-status --prometheus reads,
-- as the sqlite3 shell would read it.
SELECT value FROM settings WHERE key = 'paused';
SELECT host, at, mode, pid, version FROM passes ORDER BY at DESC, host;
SELECT count(*) FROM tasks WHERE deleted_at IS NULL;
SELECT count(*) FROM tasks WHERE deleted_at IS NULL AND enabled = 0;
SELECT status, count(*) FROM tasks WHERE deleted_at IS NULL AND status <> 'pending' GROUP BY status;
SELECT * FROM tasks WHERE deleted_at IS NULL AND status = 'pending' AND enabled = 1
 AND ifnull(next_run_at, 9223372036854775807) <= :now ORDER BY ifnull(next_run_at, 9223372036854775807);
SELECT * FROM tasks WHERE deleted_at IS NULL AND paused IS NOT NULL
 ORDER BY ifnull(next_run_at, 9223372036854775807);
SELECT * FROM tasks WHERE deleted_at IS NULL AND last_status IN ('failed', 'timeout', 'interrupted')
 ORDER BY ifnull(next_run_at, 9223372036854775807);
WITH RECURSIVE s(v) AS (SELECT min(status) FROM runs
 UNION ALL SELECT (SELECT min(status) FROM runs WHERE status > s.v) FROM s WHERE s.v IS NOT NULL)
SELECT v, (SELECT count(*) FROM runs WHERE status = s.v AND started_at >= :day) FROM s
 WHERE v IS NOT NULL;
SELECT sum(input_tokens), sum(output_tokens) FROM llm_calls WHERE created_at >= :today;
SELECT total(cost), total(input_tokens + output_tokens) FROM llm_calls WHERE created_at >= :today;
SELECT * FROM tasks WHERE id IN (SELECT id FROM tasks WHERE budget IS NOT NULL
 AND deleted_at IS NULL ORDER BY id);
SELECT total(cost) FROM llm_calls WHERE task_id IN (SELECT id FROM tasks WHERE budget IS NOT NULL
 AND deleted_at IS NULL ORDER BY id) AND created_at >= :today GROUP BY task_id;
PRAGMA page_count;
PRAGMA freelist_count;
WITH RECURSIVE s(v) AS (SELECT min(status) FROM runs
 UNION ALL SELECT (SELECT min(status) FROM runs WHERE status > s.v) FROM s WHERE s.v IS NOT NULL)
SELECT v, (SELECT count(*) FROM runs WHERE status = s.v) FROM s WHERE v IS NOT NULL;
SELECT key, n FROM pruned;
SELECT sum(input_tokens), sum(output_tokens) FROM llm_calls;
SELECT total(cost), total(input_tokens + output_tokens) FROM llm_calls;
SELECT id, CASE WHEN deleted_at IS NULL THEN name END, last_success_at FROM tasks
 WHERE last_success_at IS NOT NULL ORDER BY id;
