/* The SQLite backend's audit trail (store_audit.h; the table is a step of
 * store_sqlite.c's schema).  Appends are one at a time because every unit
 * of work that writes holds the file's write lock. */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"
#include "store_audit.h"

#define AUDIT_COLS "seq, at, actor, action, task_id, before, after, prev, hash"

static int
sqa_last(struct store *st, int64_t *seq, char hash[65], struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, "SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1", e);
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
	static const char q[] = "INSERT INTO audit (" AUDIT_COLS ")"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, a->seq);
	sqlite3_bind_int64(s, 2, a->at);
	sq_text(s, 3, a->actor);
	sq_text(s, 4, a->action);
	sq_text(s, 5, a->task_id[0] ? a->task_id : NULL);
	sq_text(s, 6, a->before);
	sq_text(s, 7, a->after);
	sq_text(s, 8, a->prev);
	sq_text(s, 9, a->hash);
	return sq_done(st, s, e, "adding to the audit trail");
}

static int
sqa_list(struct store *st, const char *task_id, int desc, int64_t from, long limit, audit_fn fn,
    void *arg, struct err *e)
{
	static const char qa[] = "SELECT " AUDIT_COLS " FROM audit WHERE (?1 IS NULL OR task_id = ?1)"
	    " AND seq >= ?2 ORDER BY seq LIMIT ?3";
	static const char qd[] = "SELECT " AUDIT_COLS " FROM audit WHERE (?1 IS NULL OR task_id = ?1)"
	    " AND seq >= ?2 ORDER BY seq DESC LIMIT ?3";
	sqlite3_stmt *s = sq_stmt(st, desc ? qd : qa, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, task_id);
	sqlite3_bind_int64(s, 2, from);
	sqlite3_bind_int64(s, 3, limit > 0 ? limit : -1);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct audit_entry a = {0};
		a.seq = sqlite3_column_int64(s, 0);
		a.at = sqlite3_column_int64(s, 1);
		a.actor = sq_col_text(s, 2);
		sq_col_copy(s, 3, a.action, sizeof a.action);
		sq_col_copy(s, 4, a.task_id, sizeof a.task_id);
		a.before = sq_col_text(s, 5);
		a.after = sq_col_text(s, 6);
		sq_col_copy(s, 7, a.prev, sizeof a.prev);
		sq_col_copy(s, 8, a.hash, sizeof a.hash);
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
	sqlite3_stmt *s = sq_stmt(st, "DELETE FROM audit WHERE seq <= ?1", e);
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
