/* The SQLite backend: one file, WAL mode, foreign keys on, a busy timeout.
 * A unit of work is a BEGIN IMMEDIATE transaction: it holds the file's
 * write lock, so what it reads stays as read.  Watchers are woken by
 * touching "PATH-wake" beside the file (inotify).  Statements, values in
 * and out: store_sqlite_conn.c; the schema: store_sqlite_schema.c; tasks
 * and settings: store_sqlite_tasks.c; runs, claims and conversations:
 * store_sqlite_runs.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "idle_hint.h"
#include "store_history.h"
#include "store_sqlite.h"

static const struct sql_dialect dialect = {
	.param = '?',
	.order_key = "ifnull(next_run_at, 9223372036854775807)",
	.seq = "rowid",
	.lock = "",               /* a unit of work holds the whole file */
	.lock_skip = "",
	.like = "LIKE",
	.scan = " NOT INDEXED",
};

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
	/* One that wrote nothing leaves the files as it found them: copying
	 * the log in would make an idle pass's note look at a changed store. */
	if (q->idle && !q->committed && access(q->idle, F_OK) == 0)
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
	free(q->idle);
	free(q->idle_last);
	free(q->task_insert);
	free(q);
}

/* Every commit through agentcron retires an idle pass's note, inside the
 * commit and under the write lock, before anything it wrote is seen: the
 * next pass then opens the store.  Renamed rather than deleted, its time
 * stays the last pass's for task-status.  If it stays in place the commit
 * fails: a note that outlived a write could delay a task. */
static int
retire_idle(void *arg)
{
	struct sq *q = arg;
	q->committed = 1;
	if (rename(q->idle, q->idle_last) == 0 || errno == ENOENT)
		return 0;
	return unlink(q->idle) != 0 && errno != ENOENT;
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
	if (!memory)
		idle_hint_paths(path, &q->idle, &q->idle_last);
	q->dev = sb.st_dev;
	q->ino = sb.st_ino;
	store_sql_init(&q->sql, &dialect);
	void *old = st->be;
	st->be = q;
	/* SQLite counts each allocation under a mutex for sqlite3_memory_used(),
	 * which nothing here reads: a seventh of opening a store (its schema
	 * read).  Settable only before SQLite's first use, which this is in
	 * our single-threaded programs; after it the answer is SQLITE_MISUSE
	 * and nothing changes, as wanted. */
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		rc = q->db ? sq_err(st, e, "opening") : err_set(e, ST_ERR, "cannot open store '%s'", path);
		goto fail;
	}
	sqlite3_busy_timeout(q->db, STORE_LOCK_WAIT_MS);
	if (!memory)
		sqlite3_commit_hook(q->db, retire_idle, q);
	/* A new store gives the space pruning frees back to the file system
	 * bit by bit (store_vacuum).  SQLite switches only an empty file, and
	 * before WAL mode: an older store reuses the space instead. */
	rc = memory || sb.st_size ? ST_OK : sq_exec(st, "PRAGMA auto_vacuum = INCREMENTAL", e);
	if (!rc && !memory)
		rc = set_wal(st, e);
	/* 32 MiB, taken only as used; a program that only reads goes over
	 * what it reads once (task-status over every run of a day), where a
	 * larger cache only costs the memory it fills: SQLite's 2 MiB. */
	if (!rc)
		rc = sq_exec(st, st->flags & STORE_READ ? "PRAGMA foreign_keys = ON; PRAGMA synchronous"
		    " = FULL; PRAGMA cache_size = -2000" : "PRAGMA foreign_keys = ON; PRAGMA synchronous"
		    " = FULL; PRAGMA cache_size = -32768", e);
	if (!rc)
		rc = sq_migrate(st, &q->migrated, e);
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
	return sq_exec(st, "BEGIN IMMEDIATE", e);
}

static int
sq_commit(struct store *st, struct err *e)
{
	int rc = sq_text_index(st, e);
	return rc ? rc : sq_exec(st, "COMMIT", e);
}

static void
sq_rollback(struct store *st)
{
	sq(st)->text_added = 0;
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

/* ---- idle passes ---- */

/* store_idle_mark's part, in its unit: nothing in flight (whose owner
 * might die), no input waiting for its run, no receipt not finished.  Not
 * for a store in memory, nor the stand-in of one that went away. */
static int
sq_idle_mark(struct store *st, const char *cfg, int64_t due, int64_t written, int *marked,
    struct err *e)
{
	static const char q[] = "SELECT EXISTS (SELECT 1 FROM runs WHERE status = 'running')"
	    " OR EXISTS (SELECT 1 FROM tasks WHERE run_in_flight IS NOT NULL)"
	    " OR EXISTS (SELECT 1 FROM run_inputs WHERE run_id IS NULL)"
	    " OR EXISTS (SELECT 1 FROM receipts WHERE status = 'pending')";
	struct sq *b = sq(st);
	/* A large log is copied in at close (sq_free), which changes the
	 * files: the next pass writes the note. */
	if (!b->idle || !log_small(b))
		return ST_OK;
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s), busy = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 1;
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return sq_err(st, e, "looking for work");
	if (busy)
		return ST_OK;
	if ((rc = idle_hint_write(b->path, cfg, due, written, e)))
		return rc;
	/* The files stay as the note says: closing copies nothing in. */
	sqlite3_db_config(b->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	*marked = 1;
	return ST_OK;
}

int
store_sqlite_open_pass(struct store *st, const char *path, const char *cfg, int64_t now, int *done,
    struct err *e)
{
	*done = idle_hint_take(path, cfg, now);
	return *done ? ST_OK : store_sqlite_open(st, path, e);
}

static int
sq_idle_pass(struct store *st, int which, struct pass *p, int64_t *written)
{
	struct sq *b = sq(st);
	int64_t at;
	if (!b->idle || !idle_hint_seen(b->path, which, p->host, sizeof p->host, p->version,
	    sizeof p->version, &at, written))
		return 0;
	p->at = at;
	snprintf(p->mode, sizeof p->mode, "cron");
	p->pid = 0;
	return 1;
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
	.tasks_put_many = sq_tasks_put_many,
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
	.idle_mark = sq_idle_mark,
	.idle_pass = sq_idle_pass,
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
