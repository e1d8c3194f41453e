/* The SQLite backend's audit trail (store_audit.h; the table is a step of
 * store_sqlite_schema.c's schema).  Appends are one at a time because
 * every unit of work that writes holds the file's write lock. */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"
#include "store_audit.h"

static int
sqa_last(struct store *st, int64_t *seq, char hash[65], struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_AUDIT_LAST), e);
	if (!s)
		return ST_ERR;
	*seq = 0;
	hash[0] = 0;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*seq = sqlite3_column_int64(s, 0);
		sq_col_copy(s, 1, hash, 65);
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the audit trail");
}

static int
sqa_append(struct store *st, const struct audit_entry *a, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_AUDIT_APPEND), e);
	if (!s)
		return ST_ERR;
	struct row r = {.n = 0};
	store_audit_row(&r, a);
	sq_bind(s, &r);
	row_free(&r);
	return sq_done(st, s, e, "adding to the audit trail");
}

static int
sqa_list(struct store *st, const char *task_id, int desc, int64_t from, long limit, audit_fn fn,
    void *arg, struct err *e)
{
	static const char qa[] = "SELECT " STORE_SQL_AUDIT_COLS " FROM audit"
	    " WHERE (?1 IS NULL OR task_id = ?1) AND seq >= ?2 ORDER BY seq LIMIT ?3";
	static const char qd[] = "SELECT " STORE_SQL_AUDIT_COLS " FROM audit"
	    " WHERE (?1 IS NULL OR task_id = ?1) AND seq >= ?2 ORDER BY seq DESC LIMIT ?3";
	sqlite3_stmt *s = sq_stmt(st, desc ? qd : qa, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, task_id);
	sqlite3_bind_int64(s, 2, from);
	sqlite3_bind_int64(s, 3, limit > 0 ? limit : -1);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct audit_entry a;
		store_audit_read(&a, sq_cell, s);
		int stop = fn(&a, arg);
		audit_entry_free(&a);
		if (stop) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the audit trail");
}

static int
sqa_prune(struct store *st, int64_t upto, long *n, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_AUDIT_PRUNE), e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, upto);
	int rc = sq_done(st, s, e, "pruning the audit trail");
	if (!rc)
		*n = (long)sqlite3_changes(sq_db(st));
	return rc;
}

const struct audit_ops sq_audit_ops = {
	.last = sqa_last,
	.append = sqa_append,
	.list = sqa_list,
	.prune = sqa_prune,
};
