/* The SQLite backend: one file, WAL mode, foreign keys on, a busy timeout,
 * and a schema that moves forward one numbered step at a time (PRAGMA
 * user_version), each step in the same transaction as its version bump so an
 * interrupted upgrade leaves the old schema intact.  A unit of work is a
 * BEGIN IMMEDIATE transaction: it holds the file's write lock, so what it
 * reads stays as read.  Watchers are woken by touching "PATH-wake" beside
 * the file (inotify).  Runs, claims and conversations: store_sqlite_runs.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store_sqlite.h"

#define STMT_CACHE 64

struct sq {
	sqlite3 *db;
	char *path;               /* "" for a store in memory */
	char *wake;               /* the file store_wake touches */
	dev_t dev;                /* the file opened, to notice it replaced */
	ino_t ino;
	int ino_fd;               /* inotify on the wake file's directory, or -1 */
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cache[STMT_CACHE];
	int ncache;
	int log_pages;            /* STORE_LOG: pages in the log after the last commit, else -1 */
	int wal_pages;            /* else the same, for the checkpoints (on_commit) */
	int quiet;                /* a commit that need not reach the disk is under way */
	int migrated;             /* this connection changed the schema */
	sqlite3_int64 quiet_changes; /* rows those commits changed */
	struct store_sql sql;
};

static const struct sql_dialect dialect = {
	.param = '?',
	.order_key = "ifnull(next_run_at, 9223372036854775807)",
	.seq = "rowid",
	.lock = "",               /* a unit of work holds the whole file */
	.lock_skip = "",
	.like = "LIKE",
	.scan = " NOT INDEXED",
};

static struct sq *
sq(struct store *st)
{
	return st->be;
}

/* Schema steps; migrations[i] takes a store from user_version i to i + 1.
 * Step 1 is the first released schema (tests/fixtures/store-v1.db). */
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
};

#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

sqlite3 *
sq_db(struct store *st)
{
	return sq(st)->db;
}

struct store_sql *
sq_sql(struct store *st)
{
	return &sq(st)->sql;
}

/* Which of the file and its directory SQLite could not write. */
static const char *
readonly_part(const char *path, char *dir, size_t n)
{
	snprintf(dir, n, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = 0;
	else
		snprintf(dir, n, "%s", slash ? "/" : ".");
	if (access(path, W_OK) != 0)
		return path;
	if (access(dir, W_OK) != 0)
		return dir;
	return NULL;
}

int
sq_err(struct store *st, struct err *e, const char *what)
{
	int code = sqlite3_errcode(sq(st)->db);
	const char *msg = sqlite3_errmsg(sq(st)->db);
	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		return err_set(e, ST_ERR, "store '%s' is damaged or not a database (%s)", st->name, msg);
	if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN) {
		char dir[PATH_MAX];
		const char *part = readonly_part(sq(st)->path, dir, sizeof dir);
		if (part == dir)
			return err_set(e, ST_ERR, "store '%s': its directory '%s' is not writable (SQLite"
			    " keeps its journal beside the store); check the directory's permissions",
			    st->name, dir);
		if (part)
			return err_set(e, ST_ERR, "store '%s' is read-only; check its permissions", st->name);
	}
	if (code == SQLITE_BUSY)
		return err_set(e, ST_ERR, "store '%s' is busy (locked by another process); try again", st->name);
	if (code == SQLITE_FULL)
		return err_set(e, ST_ERR, "store '%s': %s: the disk is full", st->name, what);
	return err_set(e, ST_ERR, "store '%s': %s: %s", st->name, what, msg);
}

sqlite3_stmt *
sq_stmt(struct store *st, const char *sql, struct err *e)
{
	struct sq *q = sq(st);
	for (int i = 0; i < q->ncache; i++) {
		if (q->cache[i].sql == sql) {
			sqlite3_stmt *s = q->cache[i].stmt;
			sqlite3_reset(s);
			sqlite3_clear_bindings(s);
			return s;
		}
	}
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(q->db, sql, -1, &s, NULL) != SQLITE_OK) {
		sq_err(st, e, "preparing a query");
		return NULL;
	}
	if (q->ncache < STMT_CACHE) {
		q->cache[q->ncache].sql = sql;
		q->cache[q->ncache].stmt = s;
		q->ncache++;
	}
	/* A full cache would leak s; STMT_CACHE exceeds the number of queries. */
	return s;
}

int
sq_done(struct store *st, sqlite3_stmt *s, struct err *e, const char *what)
{
	int rc = sqlite3_step(s);
	while (rc == SQLITE_ROW)
		rc = sqlite3_step(s);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, what);
}

/* The pages in the log at which a commit copies them into the file
 * (SQLite's default automatic checkpoint, which on_commit replaces). */
#define WAL_CHECKPOINT_PAGES 1000

int
sq_done_quietly(struct store *st, sqlite3_stmt *s, struct err *e, const char *what)
{
	struct sq *q = sq(st);
	/* Inside a unit of work the unit's commit decides; in memory, nothing to wait for. */
	if (!sqlite3_get_autocommit(q->db) || !q->path[0] || q->log_pages >= 0)
		return sq_done(st, s, e, what);
	sqlite3_int64 before = sqlite3_total_changes64(q->db);
	q->quiet = sqlite3_exec(q->db, "PRAGMA synchronous = OFF", NULL, NULL, NULL) == SQLITE_OK;
	int rc = sq_done(st, s, e, what);
	/* Back before anything else commits or copies the log into the file. */
	if (q->quiet && sqlite3_exec(q->db, "PRAGMA synchronous = FULL", NULL, NULL, NULL) != SQLITE_OK)
		return sq_err(st, e, what);
	q->quiet = 0;
	q->quiet_changes += sqlite3_total_changes64(q->db) - before;
	/* The checkpoint that commit did not make (a watcher that only
	 * records its passes would otherwise grow the log for ever). */
	if (!rc && q->wal_pages >= WAL_CHECKPOINT_PAGES)
		sqlite3_wal_checkpoint_v2(q->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	return rc;
}

void
sq_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

char *
sq_col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

int64_t
sq_col_time(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? TIME_NONE : sqlite3_column_int64(s, i);
}

void
sq_col_copy(sqlite3_stmt *s, int i, char *dst, size_t n)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	snprintf(dst, n, "%s", t ? (const char *)t : "");
}

/* mkdir -p of path's directory; directories we create are 0700. */
static int
make_parent_dirs(const char *path, struct err *e)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return ST_OK;
	*slash = 0;
	struct stat sb;
	if (stat(dir, &sb) == 0)
		return S_ISDIR(sb.st_mode) ? ST_OK
		    : err_set(e, ST_ERR, "cannot create store '%s': '%s' is not a directory", path, dir);
	for (char *p = dir + 1; ; p++) {
		if (*p == '/' || *p == 0) {
			char c = *p;
			*p = 0;
			if (mkdir(dir, 0700) != 0 && errno != EEXIST)
				return err_set(e, ST_ERR, "cannot create store directory '%s': %s", dir,
				    strerror(errno));
			*p = c;
			if (!c)
				break;
		}
	}
	return ST_OK;
}

static int
exec_sql(struct store *st, const char *sql, struct err *e)
{
	if (sqlite3_exec(sq(st)->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sq_err(st, e, "running a statement");
	return ST_OK;
}

static int
pragma_int(struct store *st, const char *sql, int *out, struct err *e)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(sq(st)->db, sql, -1, &s, NULL) != SQLITE_OK)
		return sq_err(st, e, "reading the schema version");
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "reading the schema version");
}

static int
journal_is_wal(struct store *st, int *wal, struct err *e)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(sq(st)->db, "PRAGMA journal_mode", -1, &s, NULL) != SQLITE_OK)
		return sq_err(st, e, "opening");
	int rc = sqlite3_step(s);
	const unsigned char *mode = rc == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL;
	*wal = mode && strcmp((const char *)mode, "wal") == 0;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "opening");
}

/* Switching a new store to WAL needs the file to itself, and SQLite answers
 * a concurrent opener's switch with BUSY at once instead of waiting: wait
 * here until one of them has done it. */
static int
set_wal(struct store *st, struct err *e)
{
	for (int tries = 0;; tries++) {
		int wal, rc = journal_is_wal(st, &wal, e);
		if (rc || wal)
			return rc;
		if (sqlite3_exec(sq(st)->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) == SQLITE_OK)
			continue; /* check it took */
		if (sqlite3_errcode(sq(st)->db) != SQLITE_BUSY || tries == 1500)
			return sq_err(st, e, "switching to WAL mode");
		struct timespec pause = {0, 10 * 1000 * 1000};
		nanosleep(&pause, NULL);
	}
}

static int
migrate(struct store *st, struct err *e)
{
	int version;
	int rc = pragma_int(st, "PRAGMA user_version", &version, e);
	if (rc)
		return rc;
	if (version == SCHEMA_VERSION)
		return ST_OK;
	if (version > SCHEMA_VERSION)
		return store_schema_newer(st, version, SCHEMA_VERSION, e);
	if ((rc = exec_sql(st, "BEGIN IMMEDIATE", e)))
		return rc;
	/* Another process may have migrated while we waited for the lock. */
	if ((rc = pragma_int(st, "PRAGMA user_version", &version, e)))
		goto fail;
	for (; version < SCHEMA_VERSION; version++) {
		sq(st)->migrated = 1;
		if ((rc = exec_sql(st, migrations[version], e)))
			goto fail;
		char bump[64];
		snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version + 1);
		if ((rc = exec_sql(st, bump, e)))
			goto fail;
	}
	return exec_sql(st, "COMMIT", e);
fail:
	sqlite3_exec(sq(st)->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* A store opened to append records (llm-call) leaves its log beside the
 * file at close instead of copying it in, which costs the disk four
 * flushes a call.  The next opener reads the log whole and forgets how
 * much of it was copied, so it is bounded here: once it holds
 * LOG_PAGES_MAX pages it is copied and emptied, if no one else is in it. */
#define LOG_PAGES_MAX 64

static int
count_log_pages(void *arg, sqlite3 *db, const char *schema, int pages)
{
	(void)db;
	(void)schema;
	*(int *)arg = pages;
	return SQLITE_OK;
}

/* Every commit of a connection not opened STORE_LOG: SQLite's automatic
 * checkpoint, except after a commit that did not sync (sq_done_quietly):
 * a checkpoint made then would not sync either, and the log, restarted
 * over pages so copied, could lose others' commits in a crash. */
static int
on_commit(void *arg, sqlite3 *db, const char *schema, int pages)
{
	struct sq *q = arg;
	q->wal_pages = pages;
	if (!q->quiet && pages >= WAL_CHECKPOINT_PAGES)
		sqlite3_wal_checkpoint(db, schema);
	return SQLITE_OK;
}

/* Whether the log beside the file holds at most LOG_PAGES_MAX pages. */
static int
log_small(const struct sq *q)
{
	char *wal = xasprintf("%s-wal", q->path);
	struct stat sb;
	int small = stat(wal, &sb) != 0 || sb.st_size <= 32 + LOG_PAGES_MAX * (4096 + 24);
	free(wal);
	return small;
}

static void
sq_free(struct sq *q)
{
	if (!q)
		return;
	for (int i = 0; i < q->ncache; i++)
		sqlite3_finalize(q->cache[i].stmt);
	store_sql_free(&q->sql);
	/* A connection that wrote nothing but records whose loss costs
	 * nothing (a pass's, which an idle pass is all about) leaves a small
	 * log for the next to copy: copying it in costs the disk two flushes
	 * (the log's, then the file's).  The next opener reads it whole; the
	 * next to close otherwise copies it in. */
	if (q->log_pages < 0 && q->path[0] && !q->migrated && q->quiet_changes > 0 &&
	    sqlite3_total_changes64(q->db) == q->quiet_changes && log_small(q))
		sqlite3_db_config(q->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	if (q->log_pages > LOG_PAGES_MAX) {
		/* Not worth waiting for: the next call tries again. */
		sqlite3_busy_timeout(q->db, 50);
		sqlite3_wal_checkpoint_v2(q->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
	}
	sqlite3_close(q->db);
	if (q->ino_fd >= 0)
		close(q->ino_fd);
	free(q->path);
	free(q->wake);
	free(q);
}

/* Open path into a new backend state q (installed in st on success). */
static int
sq_connect(struct store *st, const char *path, struct err *e)
{
	int memory = strcmp(path, ":memory:") == 0, rc;
	struct stat sb = {0};
	if (!memory) {
		if ((rc = make_parent_dirs(path, e)))
			return rc;
		/* Create the file ourselves so it is 0600 whatever the umask;
		 * SQLite gives its -wal and -shm files the same mode. */
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0 && (errno == EACCES || errno == EROFS))
			fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return err_set(e, ST_ERR, "cannot open store '%s': %s", path, strerror(errno));
		if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			close(fd);
			return err_set(e, ST_ERR, "store '%s' is not a regular file", path);
		}
		/* Prompts and answers are private: tighten a store others can read. */
		if ((sb.st_mode & 077) && sb.st_uid == geteuid())
			fchmod(fd, sb.st_mode & 0700);
		close(fd);
	}
	struct sq *q = xcalloc(1, sizeof *q);
	q->ino_fd = -1;
	q->log_pages = -1;
	q->path = xstrdup(memory ? "" : path);
	q->wake = memory ? NULL : xasprintf("%s-wake", path);
	q->dev = sb.st_dev;
	q->ino = sb.st_ino;
	store_sql_init(&q->sql, &dialect);
	void *old = st->be;
	st->be = q;
	if (sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		rc = q->db ? sq_err(st, e, "opening") : err_set(e, ST_ERR, "cannot open store '%s'", path);
		goto fail;
	}
	sqlite3_busy_timeout(q->db, STORE_LOCK_WAIT_MS);
	/* A new store gives the space pruning frees back to the file system
	 * bit by bit (store_vacuum).  SQLite switches only an empty file, and
	 * before WAL mode: an older store reuses the space instead. */
	rc = memory || sb.st_size ? ST_OK : exec_sql(st, "PRAGMA auto_vacuum = INCREMENTAL", e);
	if (!rc && !memory)
		rc = set_wal(st, e);
	/* 32 MiB, taken only as used; a program that only reads goes over
	 * what it reads once (task-status over every run of a day), where a
	 * larger cache only costs the memory it fills: SQLite's 2 MiB. */
	if (!rc)
		rc = exec_sql(st, st->flags & STORE_READ ? "PRAGMA foreign_keys = ON; PRAGMA synchronous"
		    " = FULL; PRAGMA cache_size = -2000" : "PRAGMA foreign_keys = ON; PRAGMA synchronous"
		    " = FULL; PRAGMA cache_size = -32768", e);
	if (!rc)
		rc = migrate(st, e);
	if (!rc && (st->flags & STORE_LOG) && !memory) {
		/* Records only: commits stop waiting for the disk (a power cut may
		 * lose the last records, never consistency), and the log stays
		 * beside the file, bounded at close (LOG_PAGES_MAX). */
		sqlite3_exec(q->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
		sqlite3_db_config(q->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
		q->log_pages = 0;
		sqlite3_wal_hook(q->db, count_log_pages, &q->log_pages);
	} else if (!rc) {
		sqlite3_wal_hook(q->db, on_commit, q);
	}
	if (rc)
		goto fail;
	st->be = old;
	sq_free(old);
	st->be = q;
	return ST_OK;
fail:
	st->be = old;
	sq_free(q);
	return rc;
}

static void
sq_close(struct store *st)
{
	sq_free(st->be);
	st->be = NULL;
}

/* A watcher's store deleted, or another file moved into its place
 * (restored from a backup): the file open is no longer the one at the path. */
static int
sq_refresh(struct store *st, char *what, size_t n, struct err *e)
{
	struct sq *q = sq(st);
	if (!q->path[0])
		return ST_OK;
	struct stat sb;
	int gone = stat(q->path, &sb) != 0;
	if (!gone && sb.st_dev == q->dev && sb.st_ino == q->ino)
		return ST_OK;
	char *path = xstrdup(q->path);
	/* The old file is closed first: SQLite finds a store's -wal and -shm
	 * files by name, and a connection opened beside the old one would
	 * read the old file's log as the new one's. */
	sq_free(q);
	st->be = NULL;
	int rc = sq_connect(st, path, e);
	if (!rc) {
		snprintf(what, n, "store '%s' was %s; reopened it", path,
		    gone ? "deleted (a new, empty one is in its place)" : "replaced by another file");
	} else {
		/* An empty stand-in, tried again at the next refresh; only
		 * memory can fail it, which xmalloc's callers abort on too. */
		struct err e2;
		if (sq_connect(st, ":memory:", &e2) != ST_OK)
			abort();
		set_str(&sq(st)->path, path);
	}
	free(path);
	return rc;
}

static int
sq_begin(struct store *st, int of_runs, struct err *e)
{
	(void)of_runs;
	return exec_sql(st, "BEGIN IMMEDIATE", e);
}

static int
sq_commit(struct store *st, struct err *e)
{
	return exec_sql(st, "COMMIT", e);
}

static void
sq_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(sq(st)->db))
		sqlite3_exec(sq(st)->db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- wake-ups ---- */

static void
sq_wake(struct store *st)
{
	/* Watchers wait for this file's change; a failure only delays them
	 * until their next planned look. */
	if (!sq(st)->wake)
		return;
	int fd = open(sq(st)->wake, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		futimens(fd, NULL);
		close(fd);
	}
}

static int
sq_wake_fd(struct store *st, struct err *e)
{
	struct sq *q = sq(st);
	if (q->ino_fd >= 0 || !q->wake)
		return q->ino_fd;
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", q->wake);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	const char *watch = slash ? (dir[0] ? dir : "/") : ".";
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd < 0 || inotify_add_watch(fd, watch, IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE |
	    IN_MOVED_TO) < 0) {
		int saved = errno;
		if (fd >= 0)
			close(fd);
		err_set(e, ST_ERR, "cannot watch '%s' for wake-ups: %s", watch, strerror(saved));
		return -1;
	}
	return q->ino_fd = fd;
}

static int
sq_wake_take(struct store *st)
{
	struct sq *q = sq(st);
	if (q->ino_fd < 0)
		return 0;
	const char *wake = strrchr(q->wake, '/') ? strrchr(q->wake, '/') + 1 : q->wake;
	const char *file = strrchr(q->path, '/') ? strrchr(q->path, '/') + 1 : q->path;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int hit = 0;
	ssize_t n;
	while ((n = read(q->ino_fd, buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			/* Another file moved into the store's place: look again too. */
			if (ev->len && (strcmp(ev->name, wake) == 0 ||
			    ((ev->mask & IN_MOVED_TO) && strcmp(ev->name, file) == 0)))
				hit = 1;
			p += sizeof *ev + ev->len;
		}
	}
	return hit;
}

/* ---- tasks ---- */

void
sq_bind(sqlite3_stmt *s, const struct row *p)
{
	for (int i = 0; i < p->n; i++) {
		const struct cell *c = &p->c[i];
		if (c->kind == CELL_INT)
			sqlite3_bind_int64(s, i + 1, c->i);
		else if (c->kind == CELL_TEXT)
			sqlite3_bind_text(s, i + 1, c->s, -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(s, i + 1);
	}
}

struct cell
sq_cell(void *stmt, int col, int is_int)
{
	sqlite3_stmt *s = stmt;
	if (sqlite3_column_type(s, col) == SQLITE_NULL)
		return (struct cell){CELL_NULL, 0, NULL};
	if (is_int)
		return (struct cell){CELL_INT, sqlite3_column_int64(s, col), NULL};
	return (struct cell){CELL_TEXT, 0, (const char *)sqlite3_column_text(s, col)};
}

sqlite3_stmt *
sq_prepare_once(struct store *st, char *sql, const struct row *p, const char *what,
    struct err *e)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(sq(st)->db, sql, -1, &s, NULL);
	free(sql);
	if (rc != SQLITE_OK) {
		sq_err(st, e, what);
		return NULL;
	}
	sq_bind(s, p);
	return s;
}

static int
sq_task_find_twin(struct store *st, const struct task *t, int *found, char id[37], struct err *e)
{
	sqlite3_stmt *s;
	*found = 0;
	if (t->key) {
		static const char q[] = "SELECT id FROM tasks WHERE idem_key = ?1 AND deleted_at IS NULL";
		if (!(s = sq_stmt(st, q, e)))
			return ST_ERR;
		sq_text(s, 1, t->key);
	} else {
		static const char q[] = "SELECT id FROM tasks WHERE dedup = ?1 AND status = 'pending'"
		    " AND deleted_at IS NULL LIMIT 1";
		if (!(s = sq_stmt(st, q, e)))
			return ST_ERR;
		char dedup[17];
		task_dedup_key(t, dedup);
		sq_text(s, 1, dedup);
	}
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*found = 1;
		sq_col_copy(s, 0, id, 37);
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "looking for a twin");
}

/* SQLite's result of inserting or updating a task (row_task); -1 when the
 * statement could not be prepared (e says why). */
static int
task_write(struct store *st, const struct task *t, int update, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(&sq(st)->sql, update ? SQL_TASK_UPDATE
	    : SQL_TASK_INSERT), e);
	if (!s)
		return -1;
	struct row p;
	row_task(&p, t, update);
	sq_bind(s, &p);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	row_free(&p);
	return rc;
}

static int
sq_task_insert(struct store *st, const struct task *t, struct err *e)
{
	int rc = task_write(st, t, 0, e);
	if (rc < 0)
		return ST_ERR;
	if (rc == SQLITE_CONSTRAINT)
		return ST_REFUSED;
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "adding a task");
}

static int
sq_task_put(struct store *st, const struct task *t, struct err *e)
{
	int rc = task_write(st, t, 1, e);
	if (rc < 0)
		return ST_ERR;
	if (rc == SQLITE_CONSTRAINT)
		return ST_REFUSED;
	if (rc != SQLITE_DONE)
		return sq_err(st, e, "updating a task");
	return sqlite3_changes(sq(st)->db) ? ST_OK : ST_NOTFOUND;
}

static int
sq_task_prefix(struct store *st, const struct id_range *ids, int trashed, char (*found)[37],
    int max, int *n, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(&sq(st)->sql, SQL_TASK_PREFIX), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, ids->from);
	sq_text(s, 2, ids->to);
	sqlite3_bind_int(s, 3, trashed);
	sqlite3_bind_int(s, 4, max);
	int rc;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < max)
		sq_col_copy(s, 0, found[(*n)++], 37);
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "looking up a task");
}

static int
sq_task_get(struct store *st, const char *id, struct task *t, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(&sq(st)->sql, SQL_TASK_GET), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		task_read(t, sq_cell, s);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return ST_NOTFOUND;
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "reading a task");
}

#define TEXT_FEW 2000       /* more candidates than this: the text is common */

/* How a text filter had best find its tasks: through the trigram index
 * when it names few (their keys, a JSON array, into keys), else as before
 * (a common text is met soon in the listing's order; a count reads every
 * task anyway). */
static int
text_how(struct store *st, const struct task_filter *f, int count, struct buf *keys,
    struct err *e)
{
	char *phrase = f->text ? store_sql_text_phrase(f->text) : NULL;
	if (!phrase)
		return SQL_TEXT_SCAN;
	static const char q[] = "SELECT rowid FROM task_text WHERE task_text MATCH ?1 LIMIT ?2";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s) {
		free(phrase);
		return -1;
	}
	sq_text(s, 1, phrase);
	sqlite3_bind_int64(s, 2, TEXT_FEW + 1);
	int rc, n = 0;
	buf_puts(keys, "[");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		buf_printf(keys, "%s%lld", n++ ? "," : "", (long long)sqlite3_column_int64(s, 0));
	buf_puts(keys, "]");
	sqlite3_reset(s);
	free(phrase);
	if (rc != SQLITE_DONE) {
		sq_err(st, e, "looking for a text");
		return -1;
	}
	return n <= TEXT_FEW ? SQL_TEXT_INDEX : count || f->limit <= 0 ? SQL_TEXT_SCAN : SQL_TEXT_WALK;
}

static int
sq_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	struct row p;
	struct buf keys = {0};
	int how = text_how(st, f, 0, &keys, e);
	sqlite3_stmt *s = how < 0 ? NULL : sq_prepare_once(st, store_sql_task_list_text(&dialect, f, 0,
	    how, keys.data, &p), &p, "listing tasks", e);
	buf_free(&keys);
	if (how < 0)
		return ST_ERR;
	row_free(&p);
	if (!s)
		return ST_ERR;
	int rc, status = ST_OK;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct task t;
		task_read(&t, sq_cell, s);
		int stop = fn(&t, arg);
		task_free(&t);
		if (stop)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = sq_err(st, e, "listing tasks");
	sqlite3_finalize(s);
	return status;
}

static int
sq_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e)
{
	struct row p;
	struct buf keys = {0};
	int how = text_how(st, f, 1, &keys, e);
	sqlite3_stmt *s = how < 0 ? NULL : sq_prepare_once(st, store_sql_task_list_text(&dialect, f, 1,
	    how, keys.data, &p), &p, "counting tasks", e);
	buf_free(&keys);
	if (how < 0)
		return ST_ERR;
	row_free(&p);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "counting tasks");
}

/* An update of task id by one of its instants (now). */
static int
task_stamp(struct store *st, const char *sql, const char *id, int64_t now, const char *what,
    struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, sql, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	sqlite3_bind_int64(s, 2, now);
	int rc = sq_done(st, s, e, what);
	return !rc && sqlite3_changes(sq(st)->db) == 0 ? ST_NOTFOUND : rc;
}

static int
sq_task_trash(struct store *st, const char *id, int64_t now, struct err *e)
{
	static const char q[] = "UPDATE tasks SET deleted_at = ?2, updated_at = ?2"
	    " WHERE id = ?1 AND deleted_at IS NULL";
	return task_stamp(st, q, id, now, "deleting a task", e);
}

static int
sq_trash_restore(struct store *st, const char *id, char restored[37], struct err *e)
{
	sqlite3_stmt *s;
	if (id) {
		static const char q[] = "UPDATE tasks SET deleted_at = NULL WHERE id = ?1"
		    " AND deleted_at IS NOT NULL RETURNING id";
		if (!(s = sq_stmt(st, q, e)))
			return ST_ERR;
		sq_text(s, 1, id);
	} else {
		static const char q[] = "UPDATE tasks SET deleted_at = NULL WHERE id ="
		    " (SELECT id FROM tasks WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC,"
		    " rowid DESC LIMIT 1) RETURNING id";
		if (!(s = sq_stmt(st, q, e)))
			return ST_ERR;
	}
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		sq_col_copy(s, 0, restored, 37);
	while (rc == SQLITE_ROW)
		rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_CONSTRAINT)
		return ST_REFUSED;
	if (rc != SQLITE_DONE)
		return sq_err(st, e, "restoring a task");
	return sqlite3_changes(sq(st)->db) ? ST_OK : ST_NOTFOUND;
}

static int
sq_trash_purge(struct store *st, long *n, struct err *e)
{
	static const char q[] = "DELETE FROM tasks WHERE deleted_at IS NOT NULL";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	int rc = sq_done(st, s, e, "emptying the trash");
	if (!rc)
		*n = sqlite3_changes(sq(st)->db);
	return rc;
}

static int
sq_task_queue(struct store *st, const char *id, int64_t now, struct err *e)
{
	static const char q[] = "UPDATE tasks SET queued = 1, updated_at = ?2 WHERE id = ?1"
	    " AND deleted_at IS NULL";
	return task_stamp(st, q, id, now, "queueing a run", e);
}

static int
sq_setting_get(struct store *st, const char *key, char **value, struct err *e)
{
	static const char q[] = "SELECT value FROM settings WHERE key = ?1";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, key);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*value = sq_col_text(s, 0);
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading a setting");
}

static int
sq_setting_set(struct store *st, const char *key, const char *value, struct err *e)
{
	static const char qset[] = "INSERT INTO settings (key, value) VALUES (?1, ?2)"
	    " ON CONFLICT(key) DO UPDATE SET value = excluded.value";
	static const char qdel[] = "DELETE FROM settings WHERE key = ?1";
	sqlite3_stmt *s = sq_stmt(st, value ? qset : qdel, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, key);
	if (value)
		sq_text(s, 2, value);
	return sq_done(st, s, e, "writing a setting");
}

/* ---- owners: one machine, told apart by pid and lease; no heartbeat ---- */

static int
sq_owner_start(struct store *st, struct err *e)
{
	(void)st;
	(void)e;
	return ST_OK;
}

static int
sq_owner_beat(struct store *st, int *alive, struct err *e)
{
	(void)st;
	(void)e;
	*alive = 1;
	return ST_OK;
}

static void
sq_owner_stop(struct store *st)
{
	(void)st;
}

static int
sq_owner_bury(struct store *st, const char *owner_id, int64_t stale_after, int *dead, struct err *e)
{
	(void)st;
	(void)owner_id;
	(void)stale_after;
	(void)e;
	*dead = 1;
	return ST_OK;
}

static const struct store_ops sqlite_ops = {
	.close = sq_close,
	.refresh = sq_refresh,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.task_find_twin = sq_task_find_twin,
	.task_insert = sq_task_insert,
	.task_prefix = sq_task_prefix,
	.task_get = sq_task_get,
	.task_put = sq_task_put,
	.task_list = sq_task_list,
	.task_count = sq_task_count,
	.task_trash = sq_task_trash,
	.trash_restore = sq_trash_restore,
	.trash_purge = sq_trash_purge,
	.task_queue = sq_task_queue,
	.setting_get = sq_setting_get,
	.setting_set = sq_setting_set,
	.run_list = sq_run_list,
	.run_prefix = sq_run_prefix,
	.owner_start = sq_owner_start,
	.owner_beat = sq_owner_beat,
	.owner_stop = sq_owner_stop,
	.owner_bury = sq_owner_bury,
	.claim_scan = sq_claim_scan,
	.run_insert = sq_run_insert,
	.run_finish = sq_run_finish,
	.run_note = sq_run_note,
	.run_gate = sq_run_gate,
	.due_next = sq_due_next,
	.run_claims = sq_run_claims,
	.wake = sq_wake,
	.wake_fd = sq_wake_fd,
	.wake_take = sq_wake_take,
	.history_load = sq_history_load,
	.history_add = sq_history_add,
	.history_clear = sq_history_clear,
	.call_add = sq_call_add,
	.call_list = sq_call_list,
	.call_spend = sq_call_spend,
	.spend_add = sq_spend_add,
	.spend_read = sq_spend_read,
	.reserve = sq_reserve,
	.run_cost = sq_run_cost,
	.others_wrote = sq_others_wrote,
	.call_usage = sq_call_usage,
	.history = &sq_history_ops,
	.web = &sq_web_ops,
	.audit = &sq_audit_ops,
	.deliver = &sq_deliver_ops,
	.chain = &sq_chain_ops,
};

int
store_sqlite_open(struct store *st, const char *path, struct err *e)
{
	st->ops = &sqlite_ops;
	st->be = NULL;
	char abs[PATH_MAX];
	set_str(&st->name, path);
	store_locator_of(path, abs, sizeof abs);
	set_str(&st->locator, abs);
	int rc = sq_connect(st, path, e);
	if (rc)
		st->ops = NULL;
	return rc;
}
