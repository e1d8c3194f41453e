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
};

#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

sqlite3 *
sq_db(struct store *st)
{
	return sq(st)->db;
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

void
sq_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

void
sq_time(sqlite3_stmt *s, int i, int64_t v)
{
	if (v == TIME_NONE)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
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
		return err_set(e, ST_ERR,
		    "store '%s' has schema version %d, newer than this agentcron's %d; upgrade agentcron",
		    st->name, version, SCHEMA_VERSION);
	if ((rc = exec_sql(st, "BEGIN IMMEDIATE", e)))
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

static void
sq_free(struct sq *q)
{
	if (!q)
		return;
	for (int i = 0; i < q->ncache; i++)
		sqlite3_finalize(q->cache[i].stmt);
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
	void *old = st->be;
	st->be = q;
	if (sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		rc = q->db ? sq_err(st, e, "opening") : err_set(e, ST_ERR, "cannot open store '%s'", path);
		goto fail;
	}
	sqlite3_busy_timeout(q->db, STORE_LOCK_WAIT_MS);
	rc = memory ? ST_OK : set_wal(st, e);
	if (!rc)
		rc = exec_sql(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;"
		    " PRAGMA cache_size = -32768", e); /* 32 MiB, taken only as used */
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
sq_begin(struct store *st, struct err *e)
{
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

static void
bind_task(sqlite3_stmt *s, const struct task *t)
{
	char dedup[17];
	char *plan = task_plan_text(t);
	task_dedup_key(t, dedup);
	sq_text(s, 1, t->id);
	sq_text(s, 2, t->name);
	sq_text(s, 3, t->prompt);
	sq_text(s, 4, t->system_prompt);
	sq_text(s, 5, task_kind_name(t->kind));
	sq_text(s, 6, t->cron);
	sq_text(s, 7, plan);
	sq_text(s, 8, t->tz);
	sqlite3_bind_int(s, 9, t->enabled);
	sq_text(s, 10, task_status_name(t->status));
	sq_time(s, 11, t->next_run_at);
	sq_time(s, 12, t->due_at);
	sq_time(s, 13, t->last_run_at);
	sq_text(s, 14, t->last_status);
	sq_text(s, 15, t->last_error);
	sq_text(s, 16, t->last_result);
	sqlite3_bind_int(s, 17, t->consecutive_failures);
	sq_text(s, 18, t->context);
	sq_text(s, 19, t->attachments);
	sq_text(s, 20, t->model);
	sq_text(s, 21, t->exec);
	sq_text(s, 22, t->notify);
	sqlite3_bind_int(s, 23, t->timeout);
	sqlite3_bind_int(s, 24, t->retries);
	sq_text(s, 25, t->intent);
	sq_text(s, 26, t->channel);
	sq_text(s, 27, t->payload);
	sq_text(s, 28, t->key);
	sq_text(s, 29, task_missed_name(t->missed));
	sqlite3_bind_int(s, 30, t->jitter);
	sqlite3_bind_int(s, 31, t->queued);
	sq_time(s, 32, t->created_at);
	sq_time(s, 33, t->updated_at);
	sq_time(s, 34, t->deleted_at);
	sq_time(s, 35, t->until_at);
	sqlite3_bind_int(s, 36, t->count);
	sq_time(s, 37, t->ends_at);
	sq_text(s, 38, t->mcp);
	sq_text(s, 39, t->mcp_allow);
	sqlite3_bind_int(s, 40, t->arming);
	sq_text(s, 41, dedup);
	free(plan);
}

void
sq_read_task(sqlite3_stmt *s, struct task *t)
{
	task_init(t);
	sq_col_copy(s, 0, t->id, sizeof t->id);
	t->name = sq_col_text(s, 1);
	t->prompt = sq_col_text(s, 2);
	t->system_prompt = sq_col_text(s, 3);
	const unsigned char *kind = sqlite3_column_text(s, 4);
	t->kind = task_kind_parse(kind ? (const char *)kind : "");
	t->cron = sq_col_text(s, 5);
	task_plan_parse(t, (const char *)sqlite3_column_text(s, 6));
	t->tz = sq_col_text(s, 7);
	t->enabled = sqlite3_column_int(s, 8);
	const unsigned char *status = sqlite3_column_text(s, 9);
	t->status = task_status_parse(status ? (const char *)status : "");
	t->next_run_at = sq_col_time(s, 10);
	t->due_at = sq_col_time(s, 11);
	t->last_run_at = sq_col_time(s, 12);
	t->last_status = sq_col_text(s, 13);
	t->last_error = sq_col_text(s, 14);
	t->last_result = sq_col_text(s, 15);
	t->consecutive_failures = sqlite3_column_int(s, 16);
	t->context = sq_col_text(s, 17);
	t->attachments = sq_col_text(s, 18);
	t->model = sq_col_text(s, 19);
	t->exec = sq_col_text(s, 20);
	t->notify = sq_col_text(s, 21);
	t->timeout = sqlite3_column_int(s, 22);
	t->retries = sqlite3_column_int(s, 23);
	t->intent = sq_col_text(s, 24);
	t->channel = sq_col_text(s, 25);
	t->payload = sq_col_text(s, 26);
	t->key = sq_col_text(s, 27);
	const unsigned char *missed = sqlite3_column_text(s, 28);
	t->missed = task_missed_parse(missed ? (const char *)missed : "once");
	if (t->missed < 0)
		t->missed = MISSED_ONCE;
	t->jitter = sqlite3_column_int(s, 29);
	t->queued = sqlite3_column_int(s, 30);
	t->created_at = sq_col_time(s, 31);
	t->updated_at = sq_col_time(s, 32);
	t->deleted_at = sq_col_time(s, 33);
	t->until_at = sq_col_time(s, 34);
	t->count = sqlite3_column_int(s, 35);
	t->ends_at = sq_col_time(s, 36);
	t->mcp = sq_col_text(s, 37);
	t->mcp_allow = sq_col_text(s, 38);
	t->arming = sqlite3_column_int(s, 39);
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

#define TASK_VALUES "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17," \
	" ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35," \
	" ?36, ?37, ?38, ?39, ?40, ?41)"

static int
sq_task_insert(struct store *st, const struct task *t, struct err *e)
{
	static const char q[] = "INSERT INTO tasks (" SQ_TASK_COLS ") VALUES " TASK_VALUES;
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	bind_task(s, t);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_CONSTRAINT)
		return err_set(e, ST_REFUSED, "a task with id '%s' or key '%s' already exists", t->id,
		    t->key ? t->key : "");
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "adding a task");
}

static int
sq_task_put(struct store *st, const struct task *t, struct err *e)
{
	static const char q[] = "UPDATE tasks SET (" SQ_TASK_COLS ") = " TASK_VALUES " WHERE id = ?1";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	bind_task(s, t);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_CONSTRAINT)
		return err_set(e, ST_REFUSED, "another task already has key '%s'", t->key ? t->key : "");
	if (rc != SQLITE_DONE)
		return sq_err(st, e, "updating a task");
	if (sqlite3_changes(sq(st)->db) == 0)
		return err_set(e, ST_NOTFOUND, "no task '%s'", t->id);
	return ST_OK;
}

static int
sq_task_prefix(struct store *st, const char *lower, int trashed, char (*found)[37], int max,
    int *n, struct err *e)
{
	/* Every id starting with lower sorts in [lower, lower + "~"). */
	char upper[41];
	snprintf(upper, sizeof upper, "%s~", lower);
	static const char q[] = "SELECT id FROM tasks WHERE id >= ?1 AND id < ?2"
	    " AND (deleted_at IS NULL) = (?3 = 0) ORDER BY id LIMIT ?4";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, lower);
	sq_text(s, 2, upper);
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
	static const char q[] = "SELECT " SQ_TASK_COLS " FROM tasks WHERE id = ?1";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		sq_read_task(s, t);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return err_set(e, ST_NOTFOUND, "no task '%s'", id);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "reading a task");
}

/* " AND col IN ('a', 'b')" for the bits set; one is written "col = 'a'",
 * which a partial index's condition can match. */
static void
names_in(struct buf *b, const char *col, unsigned bits, int count, const char *(*name)(int))
{
	int n = 0;
	for (int i = 0; i < count; i++)
		n += (bits >> i) & 1;
	buf_printf(b, n == 1 ? " AND %s = " : " AND %s IN (", col);
	for (int i = 0, k = 0; i < count; i++)
		if (bits & (1u << i))
			buf_printf(b, "%s'%s'", k++ ? ", " : "", name(i));
	if (n != 1)
		buf_puts(b, ")");
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
		buf_puts(b, f->statuses & (1u << STATUS_PENDING) ? "" : " AND status != 'pending'");
		names_in(b, "status", f->statuses, STATUS_COUNT, task_status_name);
	}
	if (f->kinds)
		names_in(b, "kind", f->kinds, KIND_COUNT, task_kind_name);
	if (f->channel)
		buf_puts(b, " AND channel = :channel");
	if (f->intent)
		buf_puts(b, " AND intent = :intent");
	/* A literal, so the partial indexes that say "enabled = 1" apply. */
	if (f->enabled >= 0)
		buf_puts(b, f->enabled ? " AND enabled = 1" : " AND enabled = 0");
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
		sq_text(s, i, f->channel);
	if ((i = sqlite3_bind_parameter_index(s, ":intent")))
		sq_text(s, i, f->intent);
	if ((i = sqlite3_bind_parameter_index(s, ":within")))
		sqlite3_bind_int64(s, i, f->now + f->due_within);
	if ((i = sqlite3_bind_parameter_index(s, ":after")))
		sqlite3_bind_int64(s, i, f->now + f->due_after);
	if ((i = sqlite3_bind_parameter_index(s, ":limit")))
		sqlite3_bind_int64(s, i, f->limit > 0 ? f->limit : -1);
}

static int
sq_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	struct buf q = {0};
	buf_puts(&q, "SELECT " SQ_TASK_COLS " FROM tasks");
	filter_sql(f, &q);
	if (f->trashed)
		buf_puts(&q, " ORDER BY deleted_at DESC, id LIMIT :limit");
	else
		buf_puts(&q, " ORDER BY ifnull(next_run_at, 9223372036854775807), rowid LIMIT :limit");
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(sq(st)->db, q.data, -1, &s, NULL);
	buf_free(&q);
	if (rc != SQLITE_OK)
		return sq_err(st, e, "listing tasks");
	filter_bind(s, f);
	int status = ST_OK;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct task t;
		sq_read_task(s, &t);
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
	struct buf q = {0};
	buf_puts(&q, "SELECT count(*) FROM tasks");
	filter_sql(f, &q);
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(sq(st)->db, q.data, -1, &s, NULL);
	buf_free(&q);
	if (rc != SQLITE_OK)
		return sq_err(st, e, "counting tasks");
	filter_bind(s, f);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "counting tasks");
}

/* An update of task id by one of its instants (now); ST_NOTFOUND when no
 * live task has that id. */
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
	if (!rc && sqlite3_changes(sq(st)->db) == 0)
		return err_set(e, ST_NOTFOUND, "no task '%s'", id);
	return rc;
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
		return err_set(e, ST_REFUSED, "cannot restore '%s': a live task has the same key",
		    id ? id : "the latest deletion");
	if (rc != SQLITE_DONE)
		return sq_err(st, e, "restoring a task");
	if (sqlite3_changes(sq(st)->db) == 0)
		return id ? err_set(e, ST_NOTFOUND, "no task '%s' in the trash", id)
			  : err_set(e, ST_NOTFOUND, "the trash is empty");
	return ST_OK;
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
