/* store_sqlite_conn.h: the SQLite backend's state and statements
 * (store_sqlite_conn.c).  Below the backend's other files, its schema's
 * among them.  Not for cmd/. */
#ifndef AC_STORE_SQLITE_CONN_H
#define AC_STORE_SQLITE_CONN_H

#include <sys/types.h>
#include <sqlite3.h>

#include "store_backend.h"
#include "store_sql.h"

/* The pages in the log at which a commit copies them into the file
 * (SQLite's default automatic checkpoint, which on_commit replaces). */
#define WAL_CHECKPOINT_PAGES 1000

#define STMT_CACHE 64

/* The backend's state of a store (st->be), opened by store_sqlite.c. */
struct sq {
	sqlite3 *db;
	char *path;               /* "" for a store in memory */
	char *wake;               /* the file store_wake touches */
	char *idle, *idle_last;   /* an idle pass's note, and where a commit retires it */
	int committed;            /* this connection committed a write */
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
	long text_added;          /* tasks added, not yet in the text index (sq_text_index) */
	char *task_insert;        /* SQL_TASK_INSERT as OR FAIL (task_write) */
	struct store_sql sql;
};

struct sq *sq(struct store *st);
sqlite3 *sq_db(struct store *st);
int sq_err(struct store *st, struct err *e, const char *what); /* ST_ERR with SQLite's reason */
int sq_exec(struct store *st, const char *sql, struct err *e);  /* statements without rows */
/* The tasks added since the last call (and any other pending one) put in
 * the text index, in one statement (schema step 25). */
int sq_text_index(struct store *st, struct err *e);
/* A cached prepared statement for sql (a string literal or a statement of
 * sq_sql: keyed by pointer), reset and with bindings cleared.  NULL on
 * error, message in e. */
sqlite3_stmt *sq_stmt(struct store *st, const char *sql, struct err *e);
int sq_done(struct store *st, sqlite3_stmt *s, struct err *e, const char *what); /* step to the end */
/* sq_done for a write that may match no row: *changed says if it changed one. */
int sq_done_changed(struct store *st, sqlite3_stmt *s, struct err *e, const char *what,
    int *changed);
/* The same for a write whose loss in a crash costs nothing (a heartbeat):
 * outside a unit of work its commit does not wait for the disk. */
int sq_done_quietly(struct store *st, sqlite3_stmt *s, struct err *e, const char *what);
void sq_text(sqlite3_stmt *s, int i, const char *v);   /* NULL binds NULL */
char *sq_col_text(sqlite3_stmt *s, int i);             /* malloc'd copy or NULL */
int64_t sq_col_time(sqlite3_stmt *s, int i);           /* NULL reads TIME_NONE */
void sq_col_copy(sqlite3_stmt *s, int i, char *dst, size_t n);

/* the statements of store_sql.h, and rows in and out */
struct store_sql *sq_sql(struct store *st);
void sq_bind(sqlite3_stmt *s, const struct row *p);
struct cell sq_cell(void *stmt, int col, int is_int);   /* a cell_fn */
/* A statement built for one use (sql, malloc'd, is freed) with p bound;
 * finalize it after. */
sqlite3_stmt *sq_prepare_once(struct store *st, char *sql, const struct row *p, const char *what,
    struct err *e);

#endif
