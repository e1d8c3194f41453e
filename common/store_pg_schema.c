/* The PostgreSQL backend's schema: created and upgraded by the first
 * program that opens the database, one step at a time under an advisory
 * lock, each step in the same transaction as its version (table
 * agentcron_schema), so hosts starting together migrate once and a failed
 * step leaves the old schema whole.  Also the server's settings that
 * would make a commit less than durable. */
#include <stdio.h>

#include "store_pg_conn.h"
#include "store_pg_schema.h"
#include "task_fields.h"

#define SCHEMA_LOCK 7306115113L   /* pg_advisory_xact_lock key of migrations */

/* Step i takes the database from schema version i to i + 1.  A new
 * field's column is no step: the store adds it from the field's row
 * (add_field_columns), and the version counts it (task_fields.h). */
static const char *const migrations[] = {
	/* 1 */
	"CREATE TABLE tasks ("
	" seq bigserial UNIQUE,"
	" id text COLLATE \"C\" PRIMARY KEY,"
	" name text NOT NULL,"
	" prompt text NOT NULL,"
	" system_prompt text,"
	" kind text NOT NULL,"
	" cron text,"
	" plan text,"
	" tz text NOT NULL,"
	" enabled integer NOT NULL DEFAULT 1,"
	" status text NOT NULL DEFAULT 'pending',"
	" next_run_at bigint,"
	" due_at bigint,"
	" last_run_at bigint,"
	" last_status text,"
	" last_error text,"
	" last_result text,"
	" consecutive_failures integer NOT NULL DEFAULT 0,"
	" context text,"
	" attachments text,"
	" model text,"
	" exec text,"
	" notify text,"
	" timeout integer NOT NULL DEFAULT 0,"
	" retries integer NOT NULL DEFAULT -1,"
	" intent text,"
	" channel text,"
	" payload text,"
	" idem_key text,"
	" missed text NOT NULL DEFAULT 'once',"
	" jitter integer NOT NULL DEFAULT 0,"
	" queued integer NOT NULL DEFAULT 0,"
	" created_at bigint NOT NULL,"
	" updated_at bigint NOT NULL,"
	" deleted_at bigint,"
	" until_at bigint,"
	" count integer NOT NULL DEFAULT 0,"
	" ends_at bigint,"
	" mcp text,"
	" mcp_allow text,"
	" arming integer NOT NULL DEFAULT 0,"
	" dedup text);"
	"CREATE INDEX tasks_order ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE deleted_at IS NULL;"
	"CREATE INDEX tasks_due ON tasks (due_at, id)"
	" WHERE status = 'pending' AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL;"
	"CREATE INDEX tasks_queued ON tasks (queued) WHERE queued <> 0 AND deleted_at IS NULL;"
	"CREATE INDEX tasks_trash ON tasks (deleted_at) WHERE deleted_at IS NOT NULL;"
	"CREATE UNIQUE INDEX tasks_key ON tasks (idem_key)"
	" WHERE idem_key IS NOT NULL AND deleted_at IS NULL;"
	"CREATE INDEX tasks_dedup ON tasks (dedup) WHERE status = 'pending' AND deleted_at IS NULL;"
	"CREATE INDEX tasks_status ON tasks (status, (coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE deleted_at IS NULL AND status <> 'pending';"
	"CREATE INDEX tasks_channel ON tasks (channel, (coalesce(next_run_at, 9223372036854775807)),"
	" seq) WHERE deleted_at IS NULL AND channel IS NOT NULL;"
	"CREATE INDEX tasks_heartbeat ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE kind = 'heartbeat' AND status = 'pending' AND enabled = 1 AND deleted_at IS NULL;"
	"CREATE TABLE runs ("
	" seq bigserial UNIQUE,"
	" id text COLLATE \"C\" PRIMARY KEY,"
	" task_id text COLLATE \"C\" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,"
	" slot bigint,"
	" trigger text NOT NULL,"
	" status text NOT NULL,"
	" started_at bigint NOT NULL,"
	" ended_at bigint,"
	" exit_code integer,"
	" output text,"
	" error text,"
	" duration_ms bigint,"
	" attempt integer NOT NULL DEFAULT 0,"
	" arming integer NOT NULL DEFAULT 0,"
	" lease_until bigint,"
	" prev_status text,"
	" owner_id text,"
	" owner_host text,"
	" owner_node text,"
	" owner_pid bigint,"
	" owner_start bigint,"
	" note text,"
	" UNIQUE (task_id, slot, arming));"
	"CREATE INDEX runs_task ON runs (task_id, started_at, seq);"
	"CREATE INDEX runs_started ON runs (started_at, seq);"
	"CREATE UNIQUE INDEX runs_in_flight ON runs (task_id) WHERE status = 'running';"
	"CREATE TABLE settings (key text PRIMARY KEY, value text);"
	"CREATE TABLE messages ("
	" id bigserial PRIMARY KEY,"
	" context text NOT NULL,"
	" role text NOT NULL,"
	" content text NOT NULL,"
	" run_id text,"
	" created_at bigint NOT NULL);"
	"CREATE INDEX messages_context ON messages (context, id);"
	"CREATE TABLE llm_calls ("
	" id bigserial PRIMARY KEY,"
	" run_id text,"
	" task_id text,"
	" context text,"
	" provider text,"
	" model text,"
	" system_prompt text,"
	" prompt text,"
	" answer text,"
	" input_tokens bigint,"
	" output_tokens bigint,"
	" finish_reason text,"
	" duration_ms bigint,"
	" error text,"
	" created_at bigint NOT NULL,"
	" tool_calls text);"
	"CREATE INDEX llm_calls_run ON llm_calls (run_id);"
	"CREATE INDEX llm_calls_task ON llm_calls (task_id, id);"
	/* Every process that claims: its heartbeat on the server's clock. */
	"CREATE TABLE processes ("
	" id text PRIMARY KEY,"
	" host text,"
	" node text,"
	" pid bigint,"
	" start bigint,"
	" started_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
	" beat_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
	" dead boolean NOT NULL DEFAULT false);",
	/* 2: who made a task (the user, or an agent with its run or session:
	 * those before were the user's) and the scope agents see it in. */
	"ALTER TABLE tasks ADD COLUMN scope text;"
	"ALTER TABLE tasks ADD COLUMN origin text DEFAULT 'user';"
	"CREATE INDEX tasks_origin ON tasks (origin);",
	/* 3: what an occurrence due during a run does, how late it may start,
	 * the failures in a row that pause a task and why one was paused. */
	"ALTER TABLE tasks ADD COLUMN overlap text NOT NULL DEFAULT 'queue';"
	"ALTER TABLE tasks ADD COLUMN deadline integer NOT NULL DEFAULT 0;"
	"ALTER TABLE tasks ADD COLUMN pause_after integer NOT NULL DEFAULT -1;"
	"ALTER TABLE tasks ADD COLUMN paused text;",
	/* 4: what each model call cost, budgets and notify policies of tasks,
	 * with what they need to notify once per window and on change; spend
	 * summed per window of a task or of all. */
	"ALTER TABLE llm_calls ADD COLUMN cost double precision;"
	"ALTER TABLE tasks ADD COLUMN budget text;"
	"ALTER TABLE tasks ADD COLUMN notify_on text;"
	"ALTER TABLE tasks ADD COLUMN budget_noticed bigint;"
	"ALTER TABLE tasks ADD COLUMN output_hash text;"
	"CREATE INDEX llm_calls_task_time ON llm_calls (task_id, created_at);"
	"CREATE INDEX llm_calls_time ON llm_calls (created_at);",
	/* 5: intervals (--every) from an anchor, --not-before, the opt-out of
	 * the config's stagger (--jitter 0), and the slot a run holds under
	 * max_concurrent (the model it counts for). */
	"ALTER TABLE tasks ADD COLUMN every integer;"
	"ALTER TABLE tasks ADD COLUMN anchor bigint;"
	"ALTER TABLE tasks ADD COLUMN not_before bigint;"
	"ALTER TABLE tasks ADD COLUMN stagger integer;"
	"ALTER TABLE runs ADD COLUMN gate text;",
	/* 6: history bounded: each host's last pass, how much of its history a
	 * task keeps, what pruning removed (so totals only grow), and indexes
	 * that let pruning and task-status read indexes, not rows. */
	"CREATE TABLE passes (host text PRIMARY KEY, at bigint NOT NULL, mode text NOT NULL,"
	" pid bigint, version text);"
	"ALTER TABLE tasks ADD COLUMN keep text;"
	"CREATE TABLE pruned (key text PRIMARY KEY, n bigint NOT NULL);"
	"CREATE INDEX runs_status ON runs (status, task_id, ended_at);"
	"CREATE INDEX llm_calls_created ON llm_calls (created_at, input_tokens, output_tokens);"
	"CREATE INDEX llm_calls_loose ON llm_calls (created_at) WHERE run_id IS NULL;",
	/* 7: indexes that only cost every write: seq orders, nothing looks a
	 * row up by it; tasks by origin only where an agent made them. */
	"ALTER TABLE tasks DROP CONSTRAINT IF EXISTS tasks_seq_key;"
	"ALTER TABLE runs DROP CONSTRAINT IF EXISTS runs_seq_key;"
	"DROP INDEX tasks_origin;"
	"CREATE INDEX tasks_origin ON tasks (origin) WHERE origin <> 'user';",
	/* 8: the one run in flight of a task, and its last success, on the
	 * task's row: a run's end then changes no indexed column of runs, and
	 * the server updates it in place (HOT) instead of adding an entry to
	 * each of its indexes. */
	"ALTER TABLE tasks ADD COLUMN last_success_at bigint;"
	"ALTER TABLE tasks ADD COLUMN run_in_flight text COLLATE \"C\";"
	"UPDATE tasks SET run_in_flight = r.id FROM runs r WHERE r.task_id = tasks.id"
	" AND r.status = 'running';"
	"UPDATE tasks SET last_success_at = s.at FROM (SELECT task_id, max(ended_at) AS at FROM runs"
	" WHERE status = 'success' GROUP BY task_id) AS s WHERE s.task_id = tasks.id;"
	"CREATE INDEX tasks_in_flight ON tasks (run_in_flight) WHERE run_in_flight IS NOT NULL;"
	"DROP INDEX runs_in_flight;"
	"DROP INDEX runs_status;",
	/* 9: the few tasks task-status lists (paused, failing, with a budget
	 * of their own), each from an index of them alone in the order they
	 * are listed: through a cursor, the server would rather walk every
	 * task in that order than sort.  A task enters one only in that state. */
	"CREATE INDEX tasks_paused ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE paused IS NOT NULL AND deleted_at IS NULL;"
	"CREATE INDEX tasks_failing ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE last_status IN ('failed', 'timeout', 'interrupted') AND deleted_at IS NULL;"
	"CREATE INDEX tasks_budget ON tasks (id) WHERE budget IS NOT NULL AND deleted_at IS NULL;",
	/* 10: task-web's access tokens (only their SHA-256), each task's HTTP
	 * trigger, and the events' keys that fired; shared by every host. */
	"CREATE TABLE IF NOT EXISTS web_tokens (name text COLLATE \"C\" PRIMARY KEY, hash text NOT NULL UNIQUE,"
	" read_only integer NOT NULL DEFAULT 0, created_at bigint NOT NULL);"
	"CREATE TABLE IF NOT EXISTS web_hooks (task_id text COLLATE \"C\" PRIMARY KEY, token_hash text, secret text,"
	" created_at bigint NOT NULL);"
	"CREATE TABLE IF NOT EXISTS web_hook_events (task_id text COLLATE \"C\" NOT NULL, key text NOT NULL,"
	" at bigint NOT NULL, body_sha256 text, PRIMARY KEY (task_id, key));",
	/* 11: delivery: a task's targets and which runs go to them, and a
	 * receipt per (run, target) whose id is the idempotency key every
	 * attempt carries; a lease (owner, until) makes one sender at a time. */
	"ALTER TABLE tasks ADD COLUMN deliver text;"
	"ALTER TABLE tasks ADD COLUMN deliver_on text;"
	"CREATE TABLE receipts (id text COLLATE \"C\" PRIMARY KEY,"
	" run_id text COLLATE \"C\" NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" task_id text COLLATE \"C\" NOT NULL, target text NOT NULL, kind text NOT NULL,"
	" status text NOT NULL, attempts integer NOT NULL DEFAULT 0, created_at bigint NOT NULL,"
	" next_at bigint, last_at bigint, answer text, error text,"
	" parts_done integer NOT NULL DEFAULT 0, lease_owner text,"
	" lease_until bigint, UNIQUE (run_id, target));"
	"CREATE INDEX receipts_due ON receipts (next_at) WHERE status = 'pending';"
	"CREATE INDEX receipts_task ON receipts (task_id, created_at);"
	"CREATE INDEX tasks_deliver ON tasks (id) WHERE deliver IS NOT NULL;",
	/* 12: task-web's timeline: the tasks due in a window with what decides
	 * their fires, read from an index of them alone (store_web_herd). */
	"CREATE INDEX tasks_herd ON tasks (next_run_at, kind, cron, tz, every, anchor, not_before,"
	" ends_at) WHERE status = 'pending' AND enabled = 1 AND deleted_at IS NULL"
	" AND next_run_at IS NOT NULL;",
	/* 13: a task's gate, the command that says whether its run is needed. */
	"ALTER TABLE tasks ADD COLUMN gate text;"
	"ALTER TABLE tasks ADD COLUMN gate_timeout integer;",
	/* 14: chains and events: the tasks a task follows (--after), and
	 * the input of each run an upstream's end or an event starts, unique
	 * per (task, key), pending until the claim that starts its run binds
	 * it (store_chain.h). */
	"ALTER TABLE tasks ADD COLUMN after_tasks text;"
	"CREATE INDEX tasks_after ON tasks (id) WHERE after_tasks IS NOT NULL;"
	"CREATE TABLE run_inputs (seq bigserial, id text COLLATE \"C\" PRIMARY KEY,"
	" task_id text COLLATE \"C\" NOT NULL, kind text NOT NULL, key text NOT NULL,"
	" upstream_run text COLLATE \"C\", slot bigint, input text, created_at bigint NOT NULL,"
	" run_id text COLLATE \"C\", UNIQUE (task_id, key));"
	"CREATE INDEX run_inputs_pending ON run_inputs (task_id, created_at) WHERE run_id IS NULL;"
	"CREATE INDEX run_inputs_run ON run_inputs (run_id) WHERE run_id IS NOT NULL;",
	/* 15: spend that pruning does not touch: a ledger of what each task
	 * and all calls together spent by quarter-hour (the grain of every
	 * zone's midnight), filled from the calls on record; and what each
	 * task's last run reserved against its budgets, and has spent. */
	"CREATE TABLE spend (task_id text COLLATE \"C\" NOT NULL, at bigint NOT NULL,"
	" dollars double precision NOT NULL DEFAULT 0, tokens bigint NOT NULL DEFAULT 0,"
	" PRIMARY KEY (task_id, at));"
	"INSERT INTO spend SELECT task_id, created_at - created_at % 900, coalesce(sum(cost), 0),"
	" coalesce(sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)), 0) FROM llm_calls"
	" WHERE task_id IS NOT NULL AND task_id <> '' GROUP BY 1, 2;"
	"INSERT INTO spend SELECT '', created_at - created_at % 900, coalesce(sum(cost), 0),"
	" coalesce(sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)), 0) FROM llm_calls"
	" GROUP BY 2;"
	"CREATE TABLE reserves (task_id text COLLATE \"C\" PRIMARY KEY,"
	" run_id text COLLATE \"C\" NOT NULL UNIQUE,"
	" dollars double precision NOT NULL, tokens bigint NOT NULL,"
	" spent double precision NOT NULL DEFAULT 0, spent_tokens bigint NOT NULL DEFAULT 0);",
	/* 16: the audit trail (store_audit.h): append-only, each entry
	 * holding the hash of the one before; an update is refused. */
	"CREATE TABLE IF NOT EXISTS audit (seq bigint PRIMARY KEY, at bigint NOT NULL,"
	" actor text NOT NULL, action text NOT NULL, task_id text COLLATE \"C\", before text,"
	" after text, prev text NOT NULL, hash text NOT NULL);"
	"CREATE INDEX IF NOT EXISTS audit_task ON audit (task_id, seq) WHERE task_id IS NOT NULL;"
	"CREATE OR REPLACE FUNCTION agentcron_audit_append_only() RETURNS trigger LANGUAGE plpgsql"
	" AS $$BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END$$;"
	"CREATE OR REPLACE TRIGGER audit_append_only BEFORE UPDATE ON audit"
	" FOR EACH ROW EXECUTE FUNCTION agentcron_audit_append_only();",
	/* 17: model drift: the model the provider says answered each call,
	 * beside the one asked for (model), and the model a fallback
	 * replaced because the provider said it was gone; a task's fallbacks. */
	"ALTER TABLE llm_calls ADD COLUMN IF NOT EXISTS answered_model text;"
	"ALTER TABLE llm_calls ADD COLUMN IF NOT EXISTS fallback_from text;"
	"ALTER TABLE tasks ADD COLUMN IF NOT EXISTS fallback_models text;",
	/* 18: the request a conversation began with, in a form any provider
	 * can be sent again (task-run --replay). */
	"ALTER TABLE llm_calls ADD COLUMN IF NOT EXISTS request text;",
	/* 19: a blocked task (waiting for a person) is listed from the
	 * failing tasks' index, in the same walk. */
	"DROP INDEX IF EXISTS tasks_failing;"
	"CREATE INDEX tasks_failing ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE last_status IN ('failed', 'timeout', 'interrupted', 'blocked') AND deleted_at IS NULL;",
	/* 20: room on each page of runs for its rows' ends: a run's end
	 * changes no indexed column, and with room the server writes it in
	 * place (HOT) instead of adding an entry to each of its four indexes
	 * (full pages left one end in twenty to one in ten doing so in a
	 * burst; at 80 still one in a hundred). */
	"ALTER TABLE runs SET (fillfactor = 70);",
	/* 21: a trigram index of names and prompts, so a text filter (ILIKE)
	 * finds the few tasks that hold a text without reading them all.
	 * pg_trgm ships with Debian's server and is trusted (a role that may
	 * create in the database may install it); a role that may not keeps
	 * the same filter, with the same answers, read without the index.
	 * Not a partial index: the planner does not prove one for the two
	 * arms of the filter's OR. */
	"DO $$BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm;"
	" EXCEPTION WHEN insufficient_privilege OR undefined_file OR feature_not_supported THEN NULL;"
	" END$$;"
	"DO $$BEGIN IF EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm') THEN"
	" CREATE INDEX IF NOT EXISTS tasks_text ON tasks USING gin (name gin_trgm_ops,"
	" prompt gin_trgm_ops); END IF;"
	" EXCEPTION WHEN undefined_object THEN NULL; END$$;",
	/* 22: the disabled tasks, so that task-status and task-web's overview
	 * count the tasks by state from indexes alone (as on SQLite). */
	"CREATE INDEX IF NOT EXISTS tasks_disabled ON tasks (enabled)"
	" WHERE enabled = 0 AND deleted_at IS NULL;",
	/* 23: names and prompts in a table of their own, with the trigram
	 * index: on tasks, every claim and every end wrote a new version of
	 * a task's row, and each version added its trigrams to the index
	 * (a quarter of a job's WAL).  Kept by triggers, written only when a
	 * task is added, renamed, given a new prompt or deleted. */
	"CREATE TABLE IF NOT EXISTS task_text (id text PRIMARY KEY, name text, prompt text);"
	"INSERT INTO task_text (id, name, prompt) SELECT id, name, prompt FROM tasks"
	" ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, prompt = EXCLUDED.prompt;"
	"CREATE OR REPLACE FUNCTION agentcron_task_text() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN"
	" IF TG_OP = 'DELETE' OR OLD.id IS DISTINCT FROM NEW.id THEN"
	" DELETE FROM task_text WHERE id = OLD.id; END IF;"
	" IF TG_OP <> 'DELETE' THEN INSERT INTO task_text (id, name, prompt)"
	" VALUES (NEW.id, NEW.name, NEW.prompt) ON CONFLICT (id) DO UPDATE"
	" SET name = EXCLUDED.name, prompt = EXCLUDED.prompt; END IF;"
	" RETURN NULL; END$$;"
	"CREATE OR REPLACE TRIGGER task_text_add AFTER INSERT ON tasks"
	" FOR EACH ROW EXECUTE FUNCTION agentcron_task_text();"
	"CREATE OR REPLACE TRIGGER task_text_edit AFTER UPDATE OF id, name, prompt ON tasks"
	" FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.name IS DISTINCT FROM NEW.name"
	" OR OLD.prompt IS DISTINCT FROM NEW.prompt) EXECUTE FUNCTION agentcron_task_text();"
	"CREATE OR REPLACE TRIGGER task_text_drop AFTER DELETE ON tasks"
	" FOR EACH ROW EXECUTE FUNCTION agentcron_task_text();"
	"DROP INDEX IF EXISTS tasks_text;"
	"DO $$BEGIN IF EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm') THEN"
	" CREATE INDEX IF NOT EXISTS task_text_trgm ON task_text USING gin (name gin_trgm_ops,"
	" prompt gin_trgm_ops); END IF;"
	" EXCEPTION WHEN undefined_object THEN NULL; END$$;",
	/* 24: the tasks with a run in flight, from an index whose key is one
	 * byte, not the run's id: every claim adds an entry (a third of the
	 * bytes as the id's, and equal keys kept as one list), and no reader
	 * looks a task up by its run in flight; it reads the few rows. */
	"DROP INDEX IF EXISTS tasks_in_flight;"
	"CREATE INDEX tasks_in_flight ON tasks ((run_in_flight IS NOT NULL))"
	" WHERE run_in_flight IS NOT NULL;",
	/* 25: the events' keys are kept for a time of their own (hook_keep),
	 * not as long as the runs they started: pruned by age from an index. */
	"CREATE INDEX IF NOT EXISTS web_hook_events_at ON web_hook_events (at);",
	/* 26: a run's reservation is found through its task: its id needs
	 * no index of its own, one entry fewer written a claim. */
	"ALTER TABLE reserves DROP CONSTRAINT IF EXISTS reserves_run_id_key;",
};
#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

/* The type of a field's column: what its cells are (task_fields.h). */
static const char *
column_type(const struct field *f)
{
	switch (f->type) {
	case FT_INT:
	case FT_BOOL: return "integer NOT NULL DEFAULT 0";
	case FT_OPT_INT: return "integer";
	default: return field_is_int(f) ? "bigint" : "text";
	}
}

/* The columns of the fields tables that the store lacks, added from their
 * rows (after the numbered steps: a step cannot use them); one statement
 * a table, the columns there already skipped. */
static int
add_field_columns(struct store *st, struct err *e)
{
	int rc = ST_OK;
	for (int t = 0; t < FIELD_TABLES && !rc; t++) {
		const struct fields *fs = field_tables[t].fs;
		struct buf b = {0};
		buf_printf(&b, "ALTER TABLE %s", field_tables[t].table);
		for (size_t i = 0, n = 0; i < fs->n; i++)
			if (fs->f[i].column)
				buf_printf(&b, "%s ADD COLUMN IF NOT EXISTS %s %s", n++ ? "," : "",
				    fs->f[i].column, column_type(&fs->f[i]));
		rc = pq_simple(st, b.data, "creating the schema", e);
		buf_free(&b);
	}
	return rc;
}

int
pg_migrate(struct store *st, struct err *e)
{
	int version, steps, gen, rc, ours = fields_schema_version(SCHEMA_VERSION);
	if ((rc = pg_schema_version(st, &version, e)))
		return rc;
	if (version == ours)
		return ST_OK;
	if ((rc = fields_schema_ahead(st->name, version, SCHEMA_VERSION, e)))
		return rc;
	if (st->flags & STORE_READ && version == 0)
		return ST_NOTFOUND;
	char lock[96];
	snprintf(lock, sizeof lock, "SELECT pg_advisory_xact_lock(%ld)", SCHEMA_LOCK);
	if ((rc = pq_simple(st, "BEGIN", "creating the schema", e)))
		return rc;
	/* One host migrates; the others wait here, then find it done. */
	if ((rc = pq_simple(st, lock, "waiting to create the schema", e)) ||
	    (rc = pq_simple(st, "CREATE TABLE IF NOT EXISTS agentcron_schema (version integer NOT NULL)",
	    "creating the schema", e)) || (rc = pg_schema_version(st, &version, e)))
		goto fail;
	if (version == ours)
		return pq_simple(st, "COMMIT", "creating the schema", e);
	if ((rc = fields_schema_ahead(st->name, version, SCHEMA_VERSION, e)))
		goto fail;
	fields_schema_split(version, &steps, &gen);
	for (; steps < SCHEMA_VERSION; steps++)
		if ((rc = pq_simple(st, migrations[steps], "creating the schema", e)))
			goto fail;
	char bump[96];
	snprintf(bump, sizeof bump, "DELETE FROM agentcron_schema; INSERT INTO agentcron_schema"
	    " VALUES (%d)", ours);
	/* Columns are only added: a store of this generation has them all. */
	if ((gen < fields_generation() && (rc = add_field_columns(st, e))) ||
	    (rc = pq_simple(st, bump, "creating the schema", e)))
		goto fail;
	return pq_simple(st, "COMMIT", "creating the schema", e);
fail:
	pq_abort(st);
	return rc;
}
