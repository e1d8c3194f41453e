/* The SQLite backend's statements: a connection's prepared statements,
 * its errors said for people, values in and out.  Below the backend's
 * other files, its schema's among them. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store_sqlite_conn.h"

struct sq *
sq(struct store *st)
{
	return st->be;
}

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

int
sq_done_changed(struct store *st, sqlite3_stmt *s, struct err *e, const char *what, int *changed)
{
	int rc = sq_done(st, s, e, what);
	*changed = !rc && sqlite3_changes(sq(st)->db) > 0;
	return rc;
}

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

int
sq_exec(struct store *st, const char *sql, struct err *e)
{
	if (sqlite3_exec(sq(st)->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sq_err(st, e, "running a statement");
	return ST_OK;
}

/* ---- rows in and out ---- */

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
