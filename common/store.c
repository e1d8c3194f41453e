/* The SQLite store.  One file, WAL mode, foreign keys on, a busy timeout, and
 * a schema that moves forward one numbered step at a time (PRAGMA
 * user_version), each step in the same transaction as its version bump so an
 * interrupted upgrade leaves the old schema intact. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store_impl.h"

#define STMT_CACHE 64

struct store {
	sqlite3 *db;
	char *path;
	char *wake;
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cache[STMT_CACHE];
	int ncache;
};

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
	/* 5: the tool calls a model call made (a JSON array), for task-log. */
	"ALTER TABLE llm_calls ADD COLUMN tool_calls TEXT;",
};
#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

sqlite3 *
store_db(struct store *st)
{
	return st->db;
}

int
store_sqlerr(struct store *st, struct err *e, const char *what)
{
	int code = sqlite3_errcode(st->db);
	const char *msg = sqlite3_errmsg(st->db);
	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		return err_set(e, ST_ERR, "store '%s' is damaged or not a database (%s)", st->path, msg);
	if (code == SQLITE_READONLY)
		return err_set(e, ST_ERR, "store '%s' is read-only; check its permissions", st->path);
	if (code == SQLITE_BUSY)
		return err_set(e, ST_ERR, "store '%s' is busy (locked by another process); try again", st->path);
	return err_set(e, ST_ERR, "store '%s': %s: %s", st->path, what, msg);
}

sqlite3_stmt *
store_stmt(struct store *st, const char *sql, struct err *e)
{
	for (int i = 0; i < st->ncache; i++) {
		if (st->cache[i].sql == sql) {
			sqlite3_stmt *s = st->cache[i].stmt;
			sqlite3_reset(s);
			sqlite3_clear_bindings(s);
			return s;
		}
	}
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		store_sqlerr(st, e, "preparing a query");
		return NULL;
	}
	if (st->ncache < STMT_CACHE) {
		st->cache[st->ncache].sql = sql;
		st->cache[st->ncache].stmt = s;
		st->ncache++;
	}
	/* A full cache would leak s; STMT_CACHE exceeds the number of queries. */
	return s;
}

void
stmt_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

void
stmt_time(sqlite3_stmt *s, int i, int64_t v)
{
	if (v == TIME_NONE)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

char *
col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

int64_t
col_time(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? TIME_NONE : sqlite3_column_int64(s, i);
}

const char *
store_default_path(char *buf, size_t n)
{
	const char *env = getenv("TASK_DB");
	if (env && *env) {
		snprintf(buf, n, "%s", env);
		return buf;
	}
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && *xdg == '/') {
		snprintf(buf, n, "%s/agentcron/tasks.db", xdg);
		return buf;
	}
	const char *home = getenv("HOME");
	snprintf(buf, n, "%s/.local/share/agentcron/tasks.db", home && *home ? home : ".");
	return buf;
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
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_sqlerr(st, e, "running a statement");
	return ST_OK;
}

static int
pragma_int(struct store *st, const char *sql, int *out, struct err *e)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_sqlerr(st, e, "reading the schema version");
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : store_sqlerr(st, e, "reading the schema version");
}

static int
journal_is_wal(struct store *st, int *wal, struct err *e)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "PRAGMA journal_mode", -1, &s, NULL) != SQLITE_OK)
		return store_sqlerr(st, e, "opening");
	int rc = sqlite3_step(s);
	const unsigned char *mode = rc == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL;
	*wal = mode && strcmp((const char *)mode, "wal") == 0;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : store_sqlerr(st, e, "opening");
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
		if (sqlite3_exec(st->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) == SQLITE_OK)
			continue; /* check it took */
		if (sqlite3_errcode(st->db) != SQLITE_BUSY || tries == 1500)
			return store_sqlerr(st, e, "switching to WAL mode");
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
		return err_set(e, ST_ERR,
		    "store '%s' has schema version %d, newer than this agentcron's %d; upgrade agentcron",
		    st->path, version, SCHEMA_VERSION);
	if ((rc = store_begin(st, e)))
		return rc;
	/* Another process may have migrated while we waited for the lock. */
	if ((rc = pragma_int(st, "PRAGMA user_version", &version, e)))
		goto fail;
	for (; version < SCHEMA_VERSION; version++) {
		if ((rc = exec_sql(st, migrations[version], e)))
			goto fail;
		char bump[64];
		snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version + 1);
		if ((rc = exec_sql(st, bump, e)))
			goto fail;
	}
	return store_commit(st, e);
fail:
	store_rollback(st);
	return rc;
}

int
store_open(const char *path, struct store **out, struct err *e)
{
	char def[PATH_MAX];
	if (!path)
		path = store_default_path(def, sizeof def);
	int rc = make_parent_dirs(path, e);
	if (rc)
		return rc;
	/* Create the file ourselves so it is 0600 whatever the umask; SQLite
	 * gives its -wal and -shm files the same mode. */
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EACCES || errno == EROFS))
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, ST_ERR, "cannot open store '%s': %s", path, strerror(errno));
	/* Prompts and answers are private: tighten a store others can read. */
	struct stat sb;
	if (fstat(fd, &sb) == 0 && (sb.st_mode & 077) && sb.st_uid == geteuid())
		fchmod(fd, sb.st_mode & 0700);
	close(fd);

	struct store *st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	st->wake = xasprintf("%s-wake", path);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		rc = st->db ? store_sqlerr(st, e, "opening")
		    : err_set(e, ST_ERR, "cannot open store '%s'", path);
		store_close(st);
		return rc;
	}
	sqlite3_busy_timeout(st->db, 15000);
	rc = set_wal(st, e);
	if (!rc)
		rc = exec_sql(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;"
		    " PRAGMA cache_size = -32768", e); /* 32 MiB, taken only as used */
	if (!rc)
		rc = migrate(st, e);
	if (rc) {
		store_close(st);
		return rc;
	}
	*out = st;
	return ST_OK;
}

void
store_close(struct store *st)
{
	if (!st)
		return;
	for (int i = 0; i < st->ncache; i++)
		sqlite3_finalize(st->cache[i].stmt);
	sqlite3_close(st->db);
	free(st->path);
	free(st->wake);
	free(st);
}

const char *
store_path(const struct store *st)
{
	return st->path;
}

int
store_begin(struct store *st, struct err *e)
{
	return exec_sql(st, "BEGIN IMMEDIATE", e);
}

int
store_commit(struct store *st, struct err *e)
{
	return exec_sql(st, "COMMIT", e);
}

void
store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

const char *
store_wake_path(const struct store *st)
{
	return st->wake;
}

void
store_wake(struct store *st)
{
	/* Watchers wait for this file's change (inotify); a failure only
	 * delays them until their next planned wake-up. */
	int fd = open(st->wake, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		futimens(fd, NULL);
		close(fd);
	}
}

void
task_filter_init(struct task_filter *f)
{
	memset(f, 0, sizeof *f);
	f->enabled = -1;
	f->due_within = -1;
	f->due_after = -1;
}

/* ---- tasks ---- */

#define TASK_COLS \
	"id, name, prompt, system_prompt, kind, cron, plan, tz, enabled, status," \
	" next_run_at, due_at, last_run_at, last_status, last_error, last_result," \
	" consecutive_failures, context, attachments, model, exec, notify, timeout," \
	" retries, intent, channel, payload, idem_key, missed, jitter, queued," \
	" created_at, updated_at, deleted_at, dedup"
#define TASK_NCOLS 35

static char *
plan_to_text(const struct task *t)
{
	if (!t->nplan)
		return NULL;
	struct buf b = {0};
	for (size_t i = 0; i < t->nplan; i++)
		buf_printf(&b, i ? ",%lld" : "%lld", (long long)t->plan[i]);
	return b.data;
}

static void
plan_from_text(struct task *t, const char *s)
{
	t->nplan = 0;
	free(t->plan);
	t->plan = NULL;
	if (!s || !*s)
		return;
	size_t n = 1;
	for (const char *p = s; *p; p++)
		n += *p == ',';
	t->plan = xcalloc(n, sizeof *t->plan);
	const char *p = s;
	while (*p && t->nplan < n) {
		char *end;
		t->plan[t->nplan++] = strtoll(p, &end, 10);
		p = *end == ',' ? end + 1 : end;
		if (end == p && *p)
			break;
	}
}

/* FNV-1a over the fields that make two pending tasks twins. */
static void
dedup_key(const struct task *t, char out[17])
{
	uint64_t h = 1469598103934665603ULL;
	char *plan = plan_to_text(t);
	const char *parts[] = {t->intent ? t->intent : t->prompt, task_kind_name(t->kind),
		t->cron, plan, t->tz, t->channel};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		for (const char *p = parts[i] ? parts[i] : ""; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 1099511628211ULL;
		}
		h ^= 0x1f;
		h *= 1099511628211ULL;
	}
	free(plan);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static void
bind_task(sqlite3_stmt *s, const struct task *t)
{
	char dedup[17];
	char *plan = plan_to_text(t);
	dedup_key(t, dedup);
	stmt_text(s, 1, t->id);
	stmt_text(s, 2, t->name);
	stmt_text(s, 3, t->prompt);
	stmt_text(s, 4, t->system_prompt);
	stmt_text(s, 5, task_kind_name(t->kind));
	stmt_text(s, 6, t->cron);
	stmt_text(s, 7, plan);
	stmt_text(s, 8, t->tz);
	sqlite3_bind_int(s, 9, t->enabled);
	stmt_text(s, 10, task_status_name(t->status));
	stmt_time(s, 11, t->next_run_at);
	stmt_time(s, 12, t->due_at);
	stmt_time(s, 13, t->last_run_at);
	stmt_text(s, 14, t->last_status);
	stmt_text(s, 15, t->last_error);
	stmt_text(s, 16, t->last_result);
	sqlite3_bind_int(s, 17, t->consecutive_failures);
	stmt_text(s, 18, t->context);
	stmt_text(s, 19, t->attachments);
	stmt_text(s, 20, t->model);
	stmt_text(s, 21, t->exec);
	stmt_text(s, 22, t->notify);
	sqlite3_bind_int(s, 23, t->timeout);
	sqlite3_bind_int(s, 24, t->retries);
	stmt_text(s, 25, t->intent);
	stmt_text(s, 26, t->channel);
	stmt_text(s, 27, t->payload);
	stmt_text(s, 28, t->key);
	stmt_text(s, 29, task_missed_name(t->missed));
	sqlite3_bind_int(s, 30, t->jitter);
	sqlite3_bind_int(s, 31, t->queued);
	stmt_time(s, 32, t->created_at);
	stmt_time(s, 33, t->updated_at);
	stmt_time(s, 34, t->deleted_at);
	stmt_text(s, 35, dedup);
	free(plan);
}

static void
read_task(sqlite3_stmt *s, struct task *t)
{
	task_init(t);
	const unsigned char *id = sqlite3_column_text(s, 0);
	snprintf(t->id, sizeof t->id, "%s", id ? (const char *)id : "");
	t->name = col_text(s, 1);
	t->prompt = col_text(s, 2);
	t->system_prompt = col_text(s, 3);
	const unsigned char *kind = sqlite3_column_text(s, 4);
	t->kind = task_kind_parse(kind ? (const char *)kind : "");
	t->cron = col_text(s, 5);
	plan_from_text(t, (const char *)sqlite3_column_text(s, 6));
	t->tz = col_text(s, 7);
	t->enabled = sqlite3_column_int(s, 8);
	const unsigned char *status = sqlite3_column_text(s, 9);
	t->status = task_status_parse(status ? (const char *)status : "");
	t->next_run_at = col_time(s, 10);
	t->due_at = col_time(s, 11);
	t->last_run_at = col_time(s, 12);
	t->last_status = col_text(s, 13);
	t->last_error = col_text(s, 14);
	t->last_result = col_text(s, 15);
	t->consecutive_failures = sqlite3_column_int(s, 16);
	t->context = col_text(s, 17);
	t->attachments = col_text(s, 18);
	t->model = col_text(s, 19);
	t->exec = col_text(s, 20);
	t->notify = col_text(s, 21);
	t->timeout = sqlite3_column_int(s, 22);
	t->retries = sqlite3_column_int(s, 23);
	t->intent = col_text(s, 24);
	t->channel = col_text(s, 25);
	t->payload = col_text(s, 26);
	t->key = col_text(s, 27);
	const unsigned char *missed = sqlite3_column_text(s, 28);
	t->missed = task_missed_parse(missed ? (const char *)missed : "once");
	if (t->missed < 0)
		t->missed = MISSED_ONCE;
	t->jitter = sqlite3_column_int(s, 29);
	t->queued = sqlite3_column_int(s, 30);
	t->created_at = col_time(s, 31);
	t->updated_at = col_time(s, 32);
	t->deleted_at = col_time(s, 33);
}

static int
step_done(struct store *st, sqlite3_stmt *s, struct err *e, const char *what)
{
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, what);
}

static int
find_twin(struct store *st, const struct task *t, int *found, char id[37], struct err *e)
{
	*found = 0;
	sqlite3_stmt *s;
	int rc;
	if (t->key) {
		static const char q[] = "SELECT id FROM tasks WHERE idem_key = ?1 AND deleted_at IS NULL";
		if (!(s = store_stmt(st, q, e)))
			return ST_ERR;
		stmt_text(s, 1, t->key);
	} else {
		static const char q[] = "SELECT id FROM tasks WHERE dedup = ?1 AND status = 'pending'"
		    " AND deleted_at IS NULL LIMIT 1";
		if (!(s = store_stmt(st, q, e)))
			return ST_ERR;
		char dedup[17];
		dedup_key(t, dedup);
		stmt_text(s, 1, dedup);
	}
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*found = 1;
		snprintf(id, 37, "%s", (const char *)sqlite3_column_text(s, 0));
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "looking for a twin");
}

int
store_task_add(struct store *st, struct task *t, int dedup, int *is_dup, char dup_id[37], struct err *e)
{
	int rc;
	*is_dup = 0;
	/* The key is checked even with --force: a retried create with the same
	 * key must never schedule twice.  A task added straight into the trash
	 * (an import) is nobody's twin. */
	if ((dedup || t->key) && t->deleted_at == TIME_NONE) {
		int found;
		if ((rc = find_twin(st, t, &found, dup_id, e)))
			return rc;
		if (found) {
			*is_dup = 1;
			return ST_OK;
		}
	}
	if (!t->id[0] && uuid4(t->id) != 0)
		return err_set(e, ST_ERR, "cannot generate a task id: %s", strerror(errno));
	static const char q[] = "INSERT INTO tasks (" TASK_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	    " ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,"
	    " ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35)";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	bind_task(s, t);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_CONSTRAINT)
		return err_set(e, ST_REFUSED, "a task with id '%s' or key '%s' already exists", t->id,
		    t->key ? t->key : "");
	return rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "adding a task");
}

int
store_task_put(struct store *st, const struct task *t, struct err *e)
{
	static const char q[] = "UPDATE tasks SET (" TASK_COLS ") = (?1, ?2, ?3, ?4, ?5, ?6,"
	    " ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,"
	    " ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35) WHERE id = ?1";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	bind_task(s, t);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_CONSTRAINT)
		return err_set(e, ST_REFUSED, "another task already has key '%s'", t->key ? t->key : "");
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "updating a task");
	if (sqlite3_changes(st->db) == 0)
		return err_set(e, ST_NOTFOUND, "no task '%s'", t->id);
	return ST_OK;
}

int
store_task_resolve(struct store *st, const char *prefix, int trashed, char id[37], struct err *e)
{
	char lower[40];
	size_t n = strlen(prefix);
	if (n < 4 || n > 36 || !id_prefix_ok(prefix))
		return err_set(e, ST_NOTFOUND, "no task '%s' (an id or a prefix of 4+ of its characters)",
		    prefix);
	for (size_t i = 0; i <= n; i++)
		lower[i] = (char)(prefix[i] >= 'A' && prefix[i] <= 'F' ? prefix[i] + 32 : prefix[i]);
	/* Every id starting with lower sorts in [lower, lower + "~"). */
	char upper[41];
	snprintf(upper, sizeof upper, "%s~", lower);
	static const char q[] = "SELECT id FROM tasks WHERE id >= ?1 AND id < ?2"
	    " AND (deleted_at IS NULL) = (?3 = 0) ORDER BY id LIMIT 6";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, lower);
	stmt_text(s, 2, upper);
	sqlite3_bind_int(s, 3, trashed);
	char found[6][37];
	int nfound = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		snprintf(found[nfound++], 37, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "looking up a task");
	if (nfound == 0)
		return err_set(e, ST_NOTFOUND, trashed ? "no task '%s' in the trash" : "no task '%s'",
		    prefix);
	if (nfound > 1) {
		struct buf b = {0};
		for (int i = 0; i < nfound && i < 5; i++)
			buf_printf(&b, "%s%.13s", i ? ", " : "", found[i]);
		err_set(e, ST_REFUSED, "id prefix '%s' is ambiguous: %s%s; give more characters",
		    prefix, b.data, nfound > 5 ? ", ..." : "");
		buf_free(&b);
		return ST_REFUSED;
	}
	memcpy(id, found[0], 37);
	return ST_OK;
}

int
store_task_get(struct store *st, const char *id, struct task *t, struct err *e)
{
	static const char q[] = "SELECT " TASK_COLS " FROM tasks WHERE id = ?1";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		read_task(s, t);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return err_set(e, ST_NOTFOUND, "no task '%s'", id);
	return rc == SQLITE_ROW ? ST_OK : store_sqlerr(st, e, "reading a task");
}

/* Builds the WHERE clause for a filter; the SQL is dynamic in shape only,
 * every value is bound. */
static void
filter_sql(const struct task_filter *f, struct buf *b)
{
	buf_puts(b, f->trashed ? " WHERE deleted_at IS NOT NULL" : " WHERE deleted_at IS NULL");
	if (f->statuses) {
		/* Most tasks are pending: with it in the set, walk the next-run
		 * order; without it, the status index (which leaves pending out,
		 * hence the extra term that lets the planner use it). */
		buf_puts(b, f->statuses & (1u << STATUS_PENDING) ? " AND status IN ("
		    : " AND status != 'pending' AND status IN (");
		for (int i = 0, n = 0; i < STATUS_COUNT; i++)
			if (f->statuses & (1u << i))
				buf_printf(b, "%s'%s'", n++ ? ", " : "", task_status_name(i));
		buf_puts(b, ")");
	}
	if (f->kinds) {
		buf_puts(b, " AND kind IN (");
		for (int i = 0, n = 0; i < KIND_COUNT; i++)
			if (f->kinds & (1u << i))
				buf_printf(b, "%s'%s'", n++ ? ", " : "", task_kind_name(i));
		buf_puts(b, ")");
	}
	if (f->channel)
		buf_puts(b, " AND channel = :channel");
	if (f->intent)
		buf_puts(b, " AND intent = :intent");
	if (f->enabled >= 0)
		buf_puts(b, " AND enabled = :enabled");
	/* Written on the ordering index's expression so a window is a range
	 * scan of it; a task without a next run sorts last and never matches. */
	if (f->due_within >= 0)
		buf_puts(b, " AND ifnull(next_run_at, 9223372036854775807) <= :within");
	if (f->due_after >= 0)
		buf_puts(b, " AND ifnull(next_run_at, 9223372036854775807) >= :after"
		    " AND next_run_at IS NOT NULL");
}

static void
filter_bind(sqlite3_stmt *s, const struct task_filter *f)
{
	int i;
	if ((i = sqlite3_bind_parameter_index(s, ":channel")))
		stmt_text(s, i, f->channel);
	if ((i = sqlite3_bind_parameter_index(s, ":intent")))
		stmt_text(s, i, f->intent);
	if ((i = sqlite3_bind_parameter_index(s, ":enabled")))
		sqlite3_bind_int(s, i, f->enabled);
	if ((i = sqlite3_bind_parameter_index(s, ":within")))
		sqlite3_bind_int64(s, i, f->now + f->due_within);
	if ((i = sqlite3_bind_parameter_index(s, ":after")))
		sqlite3_bind_int64(s, i, f->now + f->due_after);
	if ((i = sqlite3_bind_parameter_index(s, ":limit")))
		sqlite3_bind_int64(s, i, f->limit > 0 ? f->limit : -1);
}

int
store_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	struct buf q = {0};
	buf_puts(&q, "SELECT " TASK_COLS " FROM tasks");
	filter_sql(f, &q);
	if (f->trashed)
		buf_puts(&q, " ORDER BY deleted_at DESC, id LIMIT :limit");
	else
		buf_puts(&q, " ORDER BY ifnull(next_run_at, 9223372036854775807), rowid LIMIT :limit");
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, q.data, -1, &s, NULL);
	buf_free(&q);
	if (rc != SQLITE_OK)
		return store_sqlerr(st, e, "listing tasks");
	filter_bind(s, f);
	int status = ST_OK;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct task t;
		read_task(s, &t);
		int stop = fn(&t, arg);
		task_free(&t);
		if (stop)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_sqlerr(st, e, "listing tasks");
	sqlite3_finalize(s);
	return status;
}

int
store_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e)
{
	struct buf q = {0};
	buf_puts(&q, "SELECT count(*) FROM tasks");
	filter_sql(f, &q);
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, q.data, -1, &s, NULL);
	buf_free(&q);
	if (rc != SQLITE_OK)
		return store_sqlerr(st, e, "counting tasks");
	filter_bind(s, f);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : store_sqlerr(st, e, "counting tasks");
}

int
store_task_trash(struct store *st, const char *id, int64_t now, struct err *e)
{
	static const char q[] = "UPDATE tasks SET deleted_at = ?2, updated_at = ?2"
	    " WHERE id = ?1 AND deleted_at IS NULL";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, id);
	sqlite3_bind_int64(s, 2, now);
	int rc = step_done(st, s, e, "deleting a task");
	if (!rc && sqlite3_changes(st->db) == 0)
		return err_set(e, ST_NOTFOUND, "no task '%s'", id);
	return rc;
}

int
store_trash_restore(struct store *st, const char *id, char restored[37], struct err *e)
{
	sqlite3_stmt *s;
	if (id) {
		static const char q[] = "UPDATE tasks SET deleted_at = NULL WHERE id = ?1"
		    " AND deleted_at IS NOT NULL RETURNING id";
		if (!(s = store_stmt(st, q, e)))
			return ST_ERR;
		stmt_text(s, 1, id);
	} else {
		static const char q[] = "UPDATE tasks SET deleted_at = NULL WHERE id ="
		    " (SELECT id FROM tasks WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC,"
		    " rowid DESC LIMIT 1) RETURNING id";
		if (!(s = store_stmt(st, q, e)))
			return ST_ERR;
	}
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		snprintf(restored, 37, "%s", (const char *)sqlite3_column_text(s, 0));
	while (rc == SQLITE_ROW)
		rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_CONSTRAINT)
		return err_set(e, ST_REFUSED, "cannot restore '%s': a live task has the same key",
		    id ? id : "the latest deletion");
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "restoring a task");
	if (sqlite3_changes(st->db) == 0)
		return id ? err_set(e, ST_NOTFOUND, "no task '%s' in the trash", id)
			  : err_set(e, ST_NOTFOUND, "the trash is empty");
	return ST_OK;
}

int
store_trash_purge(struct store *st, long *n, struct err *e)
{
	static const char q[] = "DELETE FROM tasks WHERE deleted_at IS NOT NULL";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	int rc = step_done(st, s, e, "emptying the trash");
	if (!rc)
		*n = sqlite3_changes(st->db);
	return rc;
}

int
store_setting_get(struct store *st, const char *key, char **value, struct err *e)
{
	static const char q[] = "SELECT value FROM settings WHERE key = ?1";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, key);
	*value = NULL;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*value = col_text(s, 0);
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "reading a setting");
}

int
store_setting_set(struct store *st, const char *key, const char *value, struct err *e)
{
	static const char qset[] = "INSERT INTO settings (key, value) VALUES (?1, ?2)"
	    " ON CONFLICT(key) DO UPDATE SET value = excluded.value";
	static const char qdel[] = "DELETE FROM settings WHERE key = ?1";
	sqlite3_stmt *s = store_stmt(st, value ? qset : qdel, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, key);
	if (value)
		stmt_text(s, 2, value);
	return step_done(st, s, e, "writing a setting");
}
