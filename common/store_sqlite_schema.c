/* The SQLite backend's schema, moving forward one numbered step at a time
 * (PRAGMA user_version), each step in the same transaction as its version
 * bump so an interrupted upgrade leaves the old schema intact. */
#include <stdio.h>
#include <stdlib.h>

#include "store_sqlite_conn.h"
#include "store_sqlite_schema.h"
#include "task_fields.h"

/* Schema steps; migrations[i] takes a store from user_version i to i + 1.
 * Step 1 is the first released schema (tests/fixtures/store-v1.db).  A
 * new field's column is no step: the store adds it from the field's row
 * (add_field_columns), and user_version counts it (task_fields.h). */
static const char *const migrations[] = {
	/* 1 */
	"CREATE TABLE tasks ("
	" id TEXT PRIMARY KEY,"
	" name TEXT NOT NULL,"
	" prompt TEXT NOT NULL,"
	" system_prompt TEXT,"
	" kind TEXT NOT NULL,"
	" cron TEXT,"
	" plan TEXT,"
	" tz TEXT NOT NULL,"
	" enabled INTEGER NOT NULL DEFAULT 1,"
	" status TEXT NOT NULL DEFAULT 'pending',"
	" next_run_at INTEGER,"
	" last_run_at INTEGER,"
	" last_status TEXT,"
	" last_error TEXT,"
	" last_result TEXT,"
	" consecutive_failures INTEGER NOT NULL DEFAULT 0,"
	" created_at INTEGER NOT NULL,"
	" updated_at INTEGER NOT NULL);"
	"CREATE INDEX tasks_next ON tasks(next_run_at);"
	"CREATE TABLE runs ("
	" id TEXT PRIMARY KEY,"
	" task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,"
	" slot INTEGER,"
	" trigger TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" started_at INTEGER NOT NULL,"
	" ended_at INTEGER,"
	" exit_code INTEGER,"
	" output TEXT,"
	" error TEXT,"
	" duration_ms INTEGER,"
	" UNIQUE(task_id, slot));"
	"CREATE INDEX runs_task ON runs(task_id, started_at);"
	"CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);",
	/* 2: routing data, per-task overrides, trash, dedup, jitter, claims,
	 * conversations and model calls. */
	"ALTER TABLE tasks ADD COLUMN context TEXT;"
	"ALTER TABLE tasks ADD COLUMN attachments TEXT;"
	"ALTER TABLE tasks ADD COLUMN model TEXT;"
	"ALTER TABLE tasks ADD COLUMN exec TEXT;"
	"ALTER TABLE tasks ADD COLUMN notify TEXT;"
	"ALTER TABLE tasks ADD COLUMN timeout INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE tasks ADD COLUMN retries INTEGER NOT NULL DEFAULT -1;"
	"ALTER TABLE tasks ADD COLUMN intent TEXT;"
	"ALTER TABLE tasks ADD COLUMN channel TEXT;"
	"ALTER TABLE tasks ADD COLUMN payload TEXT;"
	"ALTER TABLE tasks ADD COLUMN idem_key TEXT;"
	"ALTER TABLE tasks ADD COLUMN missed TEXT NOT NULL DEFAULT 'once';"
	"ALTER TABLE tasks ADD COLUMN jitter INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE tasks ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE tasks ADD COLUMN due_at INTEGER;"
	"ALTER TABLE tasks ADD COLUMN deleted_at INTEGER;"
	"ALTER TABLE tasks ADD COLUMN dedup TEXT;"
	"UPDATE tasks SET due_at = next_run_at;"
	"DROP INDEX tasks_next;"
	"CREATE INDEX tasks_order ON tasks(ifnull(next_run_at, 9223372036854775807))"
	" WHERE deleted_at IS NULL;"
	"CREATE INDEX tasks_due ON tasks(due_at)"
	" WHERE status = 'pending' AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL;"
	"CREATE INDEX tasks_queued ON tasks(queued) WHERE queued != 0 AND deleted_at IS NULL;"
	"CREATE INDEX tasks_trash ON tasks(deleted_at) WHERE deleted_at IS NOT NULL;"
	"CREATE UNIQUE INDEX tasks_key ON tasks(idem_key)"
	" WHERE idem_key IS NOT NULL AND deleted_at IS NULL;"
	"CREATE INDEX tasks_dedup ON tasks(dedup)"
	" WHERE status = 'pending' AND deleted_at IS NULL;"
	"ALTER TABLE runs ADD COLUMN owner_host TEXT;"
	"ALTER TABLE runs ADD COLUMN owner_pid INTEGER;"
	"ALTER TABLE runs ADD COLUMN owner_start INTEGER;"
	"ALTER TABLE runs ADD COLUMN lease_until INTEGER;"
	"ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;"
	"CREATE INDEX runs_started ON runs(started_at);"
	"CREATE INDEX runs_running ON runs(status) WHERE status = 'running';"
	"CREATE TABLE messages ("
	" id INTEGER PRIMARY KEY,"
	" context TEXT NOT NULL,"
	" role TEXT NOT NULL,"
	" content TEXT NOT NULL,"
	" run_id TEXT,"
	" created_at INTEGER NOT NULL);"
	"CREATE INDEX messages_context ON messages(context, id);"
	"CREATE TABLE llm_calls ("
	" id INTEGER PRIMARY KEY,"
	" run_id TEXT,"
	" task_id TEXT,"
	" context TEXT,"
	" provider TEXT,"
	" model TEXT,"
	" system_prompt TEXT,"
	" prompt TEXT,"
	" answer TEXT,"
	" input_tokens INTEGER,"
	" output_tokens INTEGER,"
	" finish_reason TEXT,"
	" duration_ms INTEGER,"
	" error TEXT,"
	" created_at INTEGER NOT NULL);"
	"CREATE INDEX llm_calls_run ON llm_calls(run_id);"
	"CREATE INDEX llm_calls_task ON llm_calls(task_id, id);",
	/* 3: the status a manual run gives back to its task when it ends (also
	 * after a crash), and the boot its owner lived in (pids restart). */
	"ALTER TABLE runs ADD COLUMN prev_status TEXT;"
	"ALTER TABLE runs ADD COLUMN owner_boot TEXT;",
	/* 4: listings filtered by status or channel find their few matches in
	 * next-run order instead of walking every task.  Pending tasks, the
	 * many, stay out of the status index so the planner never prefers it
	 * to the due and dedup indexes. */
	"CREATE INDEX tasks_status ON tasks(status, ifnull(next_run_at, 9223372036854775807))"
	" WHERE deleted_at IS NULL AND status != 'pending';"
	"CREATE INDEX tasks_channel ON tasks(channel, ifnull(next_run_at, 9223372036854775807))"
	" WHERE deleted_at IS NULL AND channel IS NOT NULL;"
	"CREATE INDEX tasks_heartbeat ON tasks(created_at) WHERE kind = 'heartbeat'"
	" AND status = 'pending' AND enabled = 1 AND deleted_at IS NULL;",
	/* 5: recurrences that end, MCP servers per task, armings (an instant
	 * that already ran is a new occurrence once the task is armed again),
	 * one run in flight per task as a unique index, runs owned by a
	 * process identity, late results kept as notes, due tasks scanned in
	 * (due_at, id) order, tool calls of a model call.  The runs table is
	 * rebuilt for its new unique key; its rowids are kept. */
	"ALTER TABLE tasks ADD COLUMN until_at INTEGER;"
	"ALTER TABLE tasks ADD COLUMN count INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE tasks ADD COLUMN ends_at INTEGER;"
	"ALTER TABLE tasks ADD COLUMN mcp TEXT;"
	"ALTER TABLE tasks ADD COLUMN mcp_allow TEXT;"
	"ALTER TABLE tasks ADD COLUMN arming INTEGER NOT NULL DEFAULT 0;"
	"DROP INDEX tasks_due;"
	"CREATE INDEX tasks_due ON tasks(due_at, id)"
	" WHERE status = 'pending' AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL;"
	"UPDATE runs SET status = 'interrupted', ended_at = ifnull(ended_at, started_at),"
	" error = ifnull(error, 'ended by an upgrade: another run of its task was in flight')"
	" WHERE status = 'running' AND rowid NOT IN"
	" (SELECT max(rowid) FROM runs WHERE status = 'running' GROUP BY task_id);"
	"CREATE TABLE runs_new ("
	" id TEXT PRIMARY KEY,"
	" task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,"
	" slot INTEGER,"
	" trigger TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" started_at INTEGER NOT NULL,"
	" ended_at INTEGER,"
	" exit_code INTEGER,"
	" output TEXT,"
	" error TEXT,"
	" duration_ms INTEGER,"
	" attempt INTEGER NOT NULL DEFAULT 0,"
	" arming INTEGER NOT NULL DEFAULT 0,"
	" lease_until INTEGER,"
	" prev_status TEXT,"
	" owner_id TEXT,"
	" owner_host TEXT,"
	" owner_node TEXT,"
	" owner_boot TEXT,"
	" owner_pid INTEGER,"
	" owner_start INTEGER,"
	" note TEXT,"
	" UNIQUE(task_id, slot, arming));"
	"INSERT INTO runs_new (rowid, id, task_id, slot, trigger, status, started_at, ended_at,"
	" exit_code, output, error, duration_ms, attempt, lease_until, prev_status, owner_host,"
	" owner_boot, owner_pid, owner_start)"
	" SELECT rowid, id, task_id, slot, trigger, status, started_at, ended_at, exit_code, output,"
	" error, duration_ms, attempt, lease_until, prev_status, owner_host, owner_boot, owner_pid,"
	" owner_start FROM runs;"
	"DROP TABLE runs;"
	"ALTER TABLE runs_new RENAME TO runs;"
	"CREATE INDEX runs_task ON runs(task_id, started_at);"
	"CREATE INDEX runs_started ON runs(started_at);"
	"CREATE UNIQUE INDEX runs_in_flight ON runs(task_id) WHERE status = 'running';"
	"DROP INDEX tasks_heartbeat;"
	"CREATE INDEX tasks_heartbeat ON tasks(ifnull(next_run_at, 9223372036854775807))"
	" WHERE kind = 'heartbeat' AND status = 'pending' AND enabled = 1 AND deleted_at IS NULL;"
	"ALTER TABLE llm_calls ADD COLUMN tool_calls TEXT;",
	/* 6: who made a task (the user, or an agent with its run or session:
	 * those before were the user's) and the scope agents see it in. */
	"ALTER TABLE tasks ADD COLUMN scope TEXT;"
	"ALTER TABLE tasks ADD COLUMN origin TEXT DEFAULT 'user';"
	"CREATE INDEX tasks_origin ON tasks(origin);",
	/* 7: what an occurrence due during a run does, how late it may start,
	 * the failures in a row that pause a task and why one was paused. */
	"ALTER TABLE tasks ADD COLUMN overlap TEXT NOT NULL DEFAULT 'queue';"
	"ALTER TABLE tasks ADD COLUMN deadline INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE tasks ADD COLUMN pause_after INTEGER NOT NULL DEFAULT -1;"
	"ALTER TABLE tasks ADD COLUMN paused TEXT;",
	/* 8: what each model call cost, budgets and notify policies of tasks,
	 * with what they need to notify once per window and on change; spend
	 * summed per window of a task or of all. */
	"ALTER TABLE llm_calls ADD COLUMN cost REAL;"
	"ALTER TABLE tasks ADD COLUMN budget TEXT;"
	"ALTER TABLE tasks ADD COLUMN notify_on TEXT;"
	"ALTER TABLE tasks ADD COLUMN budget_noticed INTEGER;"
	"ALTER TABLE tasks ADD COLUMN output_hash TEXT;"
	"CREATE INDEX llm_calls_task_time ON llm_calls(task_id, created_at);"
	"CREATE INDEX llm_calls_time ON llm_calls(created_at);",
	/* 9: intervals (--every) from an anchor, --not-before, the opt-out of
	 * the config's stagger (--jitter 0), and the slot a run holds under
	 * max_concurrent (the model it counts for). */
	"ALTER TABLE tasks ADD COLUMN every INTEGER;"
	"ALTER TABLE tasks ADD COLUMN anchor INTEGER;"
	"ALTER TABLE tasks ADD COLUMN not_before INTEGER;"
	"ALTER TABLE tasks ADD COLUMN stagger INTEGER;"
	"ALTER TABLE runs ADD COLUMN gate TEXT;",
	/* 10: history bounded: each host's last pass, how much of its history a
	 * task keeps, what pruning removed (so totals only grow), and indexes
	 * that let pruning and task-status read indexes, not rows. */
	"CREATE TABLE passes (host TEXT PRIMARY KEY, at INTEGER NOT NULL, mode TEXT NOT NULL,"
	" pid INTEGER, version TEXT);"
	"ALTER TABLE tasks ADD COLUMN keep TEXT;"
	"CREATE TABLE pruned (key TEXT PRIMARY KEY, n INTEGER NOT NULL);"
	"CREATE INDEX runs_status ON runs(status, task_id, ended_at);"
	"CREATE INDEX llm_calls_created ON llm_calls(created_at, input_tokens, output_tokens);"
	"CREATE INDEX llm_calls_loose ON llm_calls(created_at) WHERE run_id IS NULL;",
	/* 11: tasks by origin only where an agent made them (what is asked):
	 * every write of a user's task no longer touches it. */
	"DROP INDEX tasks_origin;"
	"CREATE INDEX tasks_origin ON tasks(origin) WHERE origin <> 'user';",
	/* 12: the one run in flight of a task, and its last success, on the
	 * task's row, as on a server (where a run's end then changes no
	 * indexed column of runs); runs_in_flight stays, a second guard. */
	"ALTER TABLE tasks ADD COLUMN last_success_at INTEGER;"
	"ALTER TABLE tasks ADD COLUMN run_in_flight TEXT;"
	"UPDATE tasks SET run_in_flight = (SELECT id FROM runs WHERE runs.task_id = tasks.id"
	" AND runs.status = 'running'),"
	" last_success_at = (SELECT max(ended_at) FROM runs WHERE runs.task_id = tasks.id"
	" AND runs.status = 'success');"
	"CREATE INDEX tasks_in_flight ON tasks(run_in_flight) WHERE run_in_flight IS NOT NULL;",
	/* 13: task-status reads indexes, not every row: the runs of each
	 * status since an instant as one range, and the few tasks disabled,
	 * paused, failing or with a budget of their own each from an index
	 * of them alone (a task enters one only in that state). */
	"DROP INDEX runs_status;"
	"CREATE INDEX runs_status ON runs(status, started_at);"
	"CREATE INDEX tasks_disabled ON tasks(enabled) WHERE enabled = 0 AND deleted_at IS NULL;"
	"CREATE INDEX tasks_paused ON tasks(ifnull(next_run_at, 9223372036854775807))"
	" WHERE paused IS NOT NULL AND deleted_at IS NULL;"
	"CREATE INDEX tasks_failing ON tasks(ifnull(next_run_at, 9223372036854775807))"
	" WHERE last_status IN ('failed', 'timeout', 'interrupted') AND deleted_at IS NULL;"
	"CREATE INDEX tasks_budget ON tasks(id) WHERE budget IS NOT NULL AND deleted_at IS NULL;",
	/* 14: task-web's access tokens (only their SHA-256 is kept), each
	 * task's HTTP trigger (its token's hash, its HMAC secret) and the
	 * events' keys that fired, so a redelivery fires nothing. */
	"CREATE TABLE IF NOT EXISTS web_tokens (name TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE,"
	" read_only INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS web_hooks (task_id TEXT PRIMARY KEY, token_hash TEXT, secret TEXT,"
	" created_at INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS web_hook_events (task_id TEXT NOT NULL, key TEXT NOT NULL,"
	" at INTEGER NOT NULL, body_sha256 TEXT, PRIMARY KEY (task_id, key));",
	/* 15: delivery: a task's targets and which runs go to them, and a
	 * receipt per (run, target) whose id is the idempotency key every
	 * attempt carries; a lease (owner, until) makes one sender at a time. */
	"ALTER TABLE tasks ADD COLUMN deliver TEXT;"
	"ALTER TABLE tasks ADD COLUMN deliver_on TEXT;"
	"CREATE TABLE receipts (id TEXT PRIMARY KEY,"
	" run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, task_id TEXT NOT NULL,"
	" target TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,"
	" attempts INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, next_at INTEGER,"
	" last_at INTEGER, answer TEXT, error TEXT, parts_done INTEGER NOT NULL DEFAULT 0,"
	" lease_owner TEXT, lease_until INTEGER,"
	" UNIQUE (run_id, target));"
	"CREATE INDEX receipts_due ON receipts(next_at) WHERE status = 'pending';"
	"CREATE INDEX receipts_task ON receipts(task_id, created_at);"
	"CREATE INDEX tasks_deliver ON tasks(id) WHERE deliver IS NOT NULL;",
	/* 16: task-web's timeline: the tasks due in a window with what decides
	 * their fires, read from an index of them alone (store_web_herd). */
	"CREATE INDEX tasks_herd ON tasks(next_run_at, kind, cron, tz, every, anchor, not_before,"
	" ends_at) WHERE status = 'pending' AND enabled = 1 AND deleted_at IS NULL"
	" AND next_run_at IS NOT NULL;",
	/* 17: a task's gate, the command that says whether its run is needed. */
	"ALTER TABLE tasks ADD COLUMN gate TEXT;"
	"ALTER TABLE tasks ADD COLUMN gate_timeout INTEGER;",
	/* 18: chains and events: the tasks a task follows (--after), and
	 * the input of each run an upstream's end or an event starts, unique
	 * per (task, key), pending until the claim that starts its run binds
	 * it (store_chain.h). */
	"ALTER TABLE tasks ADD COLUMN after_tasks TEXT;"
	"CREATE INDEX tasks_after ON tasks(id) WHERE after_tasks IS NOT NULL;"
	"CREATE TABLE run_inputs (id TEXT PRIMARY KEY, task_id TEXT NOT NULL, kind TEXT NOT NULL,"
	" key TEXT NOT NULL, upstream_run TEXT, slot INTEGER, input TEXT, created_at INTEGER NOT NULL,"
	" run_id TEXT, UNIQUE (task_id, key));"
	"CREATE INDEX run_inputs_pending ON run_inputs(task_id, created_at) WHERE run_id IS NULL;"
	"CREATE INDEX run_inputs_run ON run_inputs(run_id) WHERE run_id IS NOT NULL;",
	/* 19: spend that pruning does not touch: a ledger of what each task
	 * and all calls together spent by quarter-hour (the grain of every
	 * zone's midnight), filled from the calls on record; and what each
	 * task's last run reserved against its budgets, and has spent. */
	"CREATE TABLE spend (task_id TEXT NOT NULL, at INTEGER NOT NULL,"
	" dollars REAL NOT NULL DEFAULT 0, tokens INTEGER NOT NULL DEFAULT 0,"
	" PRIMARY KEY (task_id, at)) WITHOUT ROWID;"
	"INSERT INTO spend SELECT task_id, created_at - created_at % 900, total(cost),"
	" sum(ifnull(input_tokens, 0) + ifnull(output_tokens, 0)) FROM llm_calls"
	" WHERE task_id IS NOT NULL AND task_id <> '' GROUP BY 1, 2;"
	"INSERT INTO spend SELECT '', created_at - created_at % 900, total(cost),"
	" sum(ifnull(input_tokens, 0) + ifnull(output_tokens, 0)) FROM llm_calls GROUP BY 2;"
	"CREATE TABLE reserves (task_id TEXT PRIMARY KEY, run_id TEXT NOT NULL UNIQUE,"
	" dollars REAL NOT NULL, tokens INTEGER NOT NULL, spent REAL NOT NULL DEFAULT 0,"
	" spent_tokens INTEGER NOT NULL DEFAULT 0);",
	/* 20: the audit trail (store_audit.h): append-only, each entry
	 * holding the hash of the one before; an update is refused. */
	"CREATE TABLE IF NOT EXISTS audit (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL,"
	" actor TEXT NOT NULL, action TEXT NOT NULL, task_id TEXT, before TEXT, after TEXT,"
	" prev TEXT NOT NULL, hash TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS audit_task ON audit(task_id, seq) WHERE task_id IS NOT NULL;"
	"CREATE TRIGGER IF NOT EXISTS audit_append_only BEFORE UPDATE ON audit"
	" BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;",
	/* 21: model drift: the model the provider says answered each call,
	 * beside the one asked for (model), and the model a fallback
	 * replaced because the provider said it was gone; a task's fallbacks. */
	"ALTER TABLE llm_calls ADD COLUMN answered_model TEXT;"
	"ALTER TABLE llm_calls ADD COLUMN fallback_from TEXT;"
	"ALTER TABLE tasks ADD COLUMN fallback_models TEXT;",
	/* 22: the request a conversation began with, in a form any provider
	 * can be sent again (task-run --replay). */
	"ALTER TABLE llm_calls ADD COLUMN request TEXT;",
	/* 23: a blocked task (waiting for a person) is listed from the
	 * failing tasks' index, in the same walk. */
	"DROP INDEX IF EXISTS tasks_failing;"
	"CREATE INDEX tasks_failing ON tasks(ifnull(next_run_at, 9223372036854775807))"
	" WHERE last_status IN ('failed', 'timeout', 'interrupted', 'blocked') AND deleted_at IS NULL;",
	/* 24: a trigram index of names and prompts, so a text filter finds
	 * its few tasks without reading every one (the match is still
	 * checked with LIKE).  Keyed by a number of its own, as VACUUM may
	 * renumber the rowids of tasks; made anew when run again. */
	"DROP TRIGGER IF EXISTS task_text_add; DROP TRIGGER IF EXISTS task_text_drop;"
	"DROP TRIGGER IF EXISTS task_text_edit; DROP TABLE IF EXISTS task_text;"
	"DROP TABLE IF EXISTS task_text_keys;"
	"CREATE TABLE task_text_keys (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);"
	"CREATE VIRTUAL TABLE task_text USING fts5(name, prompt, content='', tokenize='trigram');"
	"INSERT INTO task_text_keys (id) SELECT id FROM tasks;"
	"INSERT INTO task_text (rowid, name, prompt) SELECT k.n, t.name, t.prompt FROM tasks t"
	" JOIN task_text_keys k ON k.id = t.id;"
	"CREATE TRIGGER task_text_add AFTER INSERT ON tasks BEGIN"
	" INSERT INTO task_text_keys (id) VALUES (new.id);"
	" INSERT INTO task_text (rowid, name, prompt) SELECT n, new.name, new.prompt FROM task_text_keys"
	" WHERE id = new.id;"
	" END;"
	"CREATE TRIGGER task_text_drop AFTER DELETE ON tasks BEGIN"
	" INSERT INTO task_text (task_text, rowid, name, prompt) SELECT 'delete', n, old.name, old.prompt"
	" FROM task_text_keys WHERE id = old.id;"
	" DELETE FROM task_text_keys WHERE id = old.id; END;"
	/* Every update writes every column: only a change is indexed again. */
	"CREATE TRIGGER task_text_edit AFTER UPDATE OF id, name, prompt ON tasks"
	" WHEN old.id IS NOT new.id OR old.name IS NOT new.name OR old.prompt IS NOT new.prompt BEGIN"
	" INSERT INTO task_text (task_text, rowid, name, prompt) SELECT 'delete', n, old.name, old.prompt"
	" FROM task_text_keys WHERE id = old.id;"
	" UPDATE task_text_keys SET id = new.id WHERE id = old.id;"
	" INSERT INTO task_text (rowid, name, prompt) SELECT n, new.name, new.prompt"
	" FROM task_text_keys WHERE id = new.id; END;",
	/* 25: a task added is indexed at its unit's commit, with every other
	 * added in it, in one statement (sq_text_index): FTS5 writes its
	 * pending terms at each statement's savepoint, so a row at a time
	 * made a segment, and merges, for every task (an import of 100,000
	 * took 7 times as long as sqlite3's .import of the same rows).  Until
	 * then it is pending: not in the index, which nothing may delete. */
	"ALTER TABLE task_text_keys ADD COLUMN pending INTEGER;"
	"CREATE INDEX task_text_pending ON task_text_keys (n) WHERE pending IS NOT NULL;"
	"DROP TRIGGER task_text_add; DROP TRIGGER task_text_drop; DROP TRIGGER task_text_edit;"
	"CREATE TRIGGER task_text_add AFTER INSERT ON tasks BEGIN"
	" INSERT INTO task_text_keys (id, pending) VALUES (new.id, 1); END;"
	"CREATE TRIGGER task_text_drop AFTER DELETE ON tasks BEGIN"
	" INSERT INTO task_text (task_text, rowid, name, prompt) SELECT 'delete', n, old.name, old.prompt"
	" FROM task_text_keys WHERE id = old.id AND pending IS NULL;"
	" DELETE FROM task_text_keys WHERE id = old.id; END;"
	"CREATE TRIGGER task_text_edit AFTER UPDATE OF id, name, prompt ON tasks"
	" WHEN old.id IS NOT new.id OR old.name IS NOT new.name OR old.prompt IS NOT new.prompt BEGIN"
	" INSERT INTO task_text (task_text, rowid, name, prompt) SELECT 'delete', n, old.name, old.prompt"
	" FROM task_text_keys WHERE id = old.id AND pending IS NULL;"
	" UPDATE task_text_keys SET id = new.id WHERE id = old.id;"
	" INSERT INTO task_text (rowid, name, prompt) SELECT n, new.name, new.prompt"
	" FROM task_text_keys WHERE id = new.id AND pending IS NULL; END;",
	/* 26: the events' keys are kept for a time of their own (hook_keep),
	 * not as long as the runs they started: pruned by age from an index. */
	"CREATE INDEX IF NOT EXISTS web_hook_events_at ON web_hook_events(at);",
	/* 27: the reservations in one b-tree, by task: a run's is found
	 * through its task, so its id needs no index of its own, and a claim
	 * writes one page of them where it wrote three. */
	"CREATE TABLE reserves_by_task (task_id TEXT PRIMARY KEY, run_id TEXT NOT NULL,"
	" dollars REAL NOT NULL, tokens INTEGER NOT NULL, spent REAL NOT NULL DEFAULT 0,"
	" spent_tokens INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;"
	"INSERT INTO reserves_by_task SELECT task_id, run_id, dollars, tokens, spent, spent_tokens"
	" FROM reserves;"
	"DROP TABLE reserves;"
	"ALTER TABLE reserves_by_task RENAME TO reserves;",
};

#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

static int
pragma_int(struct store *st, const char *sql, int *out, struct err *e)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(sq_db(st), sql, -1, &s, NULL) != SQLITE_OK)
		return sq_err(st, e, "reading the schema version");
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "reading the schema version");
}

/* The type of a field's column: what its cells are (task_fields.h). */
static const char *
column_type(const struct field *f)
{
	if (f->type == FT_INT || f->type == FT_BOOL)
		return "INTEGER NOT NULL DEFAULT 0";
	return field_is_int(f) ? "INTEGER" : "TEXT";
}

/* The columns of the fields tables that the store lacks, added from their
 * rows (after the numbered steps: a step cannot use them). */
static int
add_field_columns(struct store *st, struct err *e)
{
	sqlite3_stmt *s;
	int rc = ST_OK;
	if (sqlite3_prepare_v2(sq_db(st), "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
	    -1, &s, NULL) != SQLITE_OK)
		return sq_err(st, e, "reading the schema");
	for (int t = 0; t < FIELD_TABLES && !rc; t++) {
		const struct fields *fs = field_tables[t].fs;
		for (size_t i = 0; i < fs->n && !rc; i++) {
			const struct field *f = &fs->f[i];
			if (!f->column)
				continue;
			sqlite3_reset(s);
			if (sqlite3_bind_text(s, 1, field_tables[t].table, -1, SQLITE_STATIC) != SQLITE_OK ||
			    sqlite3_bind_text(s, 2, f->column, -1, SQLITE_STATIC) != SQLITE_OK ||
			    sqlite3_step(s) != SQLITE_ROW) {
				rc = sq_err(st, e, "reading the schema");
			} else if (sqlite3_column_int(s, 0) == 0) {
				char *sql = xasprintf("ALTER TABLE %s ADD COLUMN %s %s", field_tables[t].table,
				    f->column, column_type(f));
				rc = sq_exec(st, sql, e);
				free(sql);
			}
		}
	}
	sqlite3_finalize(s);
	return rc;
}

int
sq_migrate(struct store *st, int *migrated, struct err *e)
{
	int version, steps, gen, ours = fields_schema_version(SCHEMA_VERSION);
	int rc = pragma_int(st, "PRAGMA user_version", &version, e);
	if (rc)
		return rc;
	if (version == ours)
		return ST_OK;
	if ((rc = fields_schema_ahead(st->name, version, SCHEMA_VERSION, e)))
		return rc;
	if ((rc = sq_exec(st, "BEGIN IMMEDIATE", e)))
		return rc;
	/* Another process may have migrated while we waited for the lock. */
	if ((rc = pragma_int(st, "PRAGMA user_version", &version, e)))
		goto fail;
	if (version == ours)
		return sq_exec(st, "COMMIT", e);
	if ((rc = fields_schema_ahead(st->name, version, SCHEMA_VERSION, e)))
		goto fail;
	fields_schema_split(version, &steps, &gen);
	*migrated = 1;
	for (; steps < SCHEMA_VERSION; steps++)
		if ((rc = sq_exec(st, migrations[steps], e)))
			goto fail;
	char bump[64];
	snprintf(bump, sizeof bump, "PRAGMA user_version = %d", ours);
	/* Columns are only added: a store of this generation has them all. */
	if ((gen < fields_generation() && (rc = add_field_columns(st, e))) || (rc = sq_exec(st, bump,
	    e)))
		goto fail;
	return sq_exec(st, "COMMIT", e);
fail:
	sqlite3_exec(sq_db(st), "ROLLBACK", NULL, NULL, NULL);
	return rc;
}
