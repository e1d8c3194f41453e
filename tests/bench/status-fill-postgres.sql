-- tests/bench/status.sh: a store of :mult times the first 10,000 tasks,
-- with :runs runs a task (maybe none) and the states task-status reports.
BEGIN;
INSERT INTO tasks (id, name, prompt, kind, cron, plan, tz, enabled, status, next_run_at,
 created_at, updated_at, exec, due_at, dedup, origin)
SELECT lpad(to_hex(g), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(t.seq), 12, '0'),
 t.name || ' ' || g, t.prompt, t.kind, t.cron, t.plan, t.tz, t.enabled, t.status, t.next_run_at,
 t.created_at, t.updated_at, t.exec, t.due_at, t.dedup, t.origin
FROM generate_series(1, :mult - 1) g, tasks t WHERE t.seq <= 10000 ORDER BY g, t.seq;
UPDATE tasks SET last_run_at = :now - seq % 86400, last_status = 'success',
 last_success_at = :now - seq % 86400 + 3;
UPDATE tasks SET last_status = 'failed', consecutive_failures = 2, last_error = 'exit status 1'
 WHERE seq % 997 = 0;
UPDATE tasks SET paused = 'paused after 5 failures in a row', enabled = 0,
 consecutive_failures = 5, last_status = 'failed' WHERE seq % 4999 = 0;
UPDATE tasks SET budget = '1/day' WHERE seq % 9973 = 0;
INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at, exit_code, output,
 duration_ms, attempt)
SELECT id || '-' || k, id, s, 'schedule', CASE WHEN (r + k) % 50 = 0 THEN 'timeout'
 WHEN (r + k) % 10 = 0 THEN 'failed' ELSE 'success' END, s, s + 3, 0, 'done', 3000, 1
FROM (SELECT t.id, t.seq AS r, k, :now - (:runs - 1 - k) * 259200 - t.seq * 37 % 86400 AS s
 FROM tasks t, generate_series(0, :runs - 1) k ORDER BY t.seq, k) x;
INSERT INTO llm_calls (run_id, task_id, model, input_tokens, output_tokens, created_at, cost)
SELECT id, task_id, 'm', 1000, 200, ended_at, 0.001 FROM runs WHERE seq % 100 = 0;
COMMIT;
VACUUM ANALYZE;
