/* The SQLite backend's tasks, settings and owners (the processes that
 * claim: on one machine, told apart by pid and lease). */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"

int
sq_task_find_twin(struct store *st, const struct task *t, int *found, char id[37], struct err *e)
{
	sqlite3_stmt *s;
	*found = 0;
	if (t->key) {
		if (!(s = sq_stmt(st, store_sql(sq_sql(st), SQL_TASK_BY_KEY), e)))
			return ST_ERR;
		sq_text(s, 1, t->key);
	} else {
		if (!(s = sq_stmt(st, store_sql(sq_sql(st), SQL_TASK_BY_DEDUP), e)))
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
	struct sq *q = sq(st);
	const char *sql = store_sql(sq_sql(st), update ? SQL_TASK_UPDATE : SQL_TASK_INSERT);
	/* The insert fires the text index's trigger: a statement that writes
	 * two tables, which SQLite would make undoable alone by keeping a copy
	 * of every page it changes (20 writes a task in an import).  OR FAIL
	 * needs no copy: the insert checks its constraints before it writes,
	 * and a unit whose insert failed is rolled back whole. */
	if (!update && !q->task_insert && strncmp(sql, "INSERT ", 7) == 0)
		q->task_insert = xasprintf("INSERT OR FAIL %s", sql + 7);
	sqlite3_stmt *s = sq_stmt(st, !update && q->task_insert ? q->task_insert : sql, e);
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

int
sq_task_insert(struct store *st, const struct task *t, struct err *e)
{
	int rc = task_write(st, t, 0, e);
	if (rc < 0)
		return ST_ERR;
	if (rc == SQLITE_CONSTRAINT)
		return ST_REFUSED;
	if (rc != SQLITE_DONE)
		return sq_err(st, e, "adding a task");
	sq(st)->text_added++;
	/* In a unit, its commit indexes what it added.  Alone, the task is
	 * added whether or not this fails: a text filter takes a task not yet
	 * indexed as a candidate, and the next commit that adds one indexes it. */
	struct err ignored;
	if (sqlite3_get_autocommit(sq_db(st)))
		sq_text_index(st, &ignored);
	return ST_OK;
}

int
sq_text_index(struct store *st, struct err *e)
{
	struct sq *q = sq(st);
	if (!q->text_added)
		return ST_OK;
	int rc = sq_exec(st, "SAVEPOINT text_index; INSERT INTO task_text (rowid, name, prompt)"
	    " SELECT k.n, t.name, t.prompt FROM task_text_keys k JOIN tasks t ON t.id = k.id"
	    " WHERE k.pending IS NOT NULL ORDER BY k.n;"
	    " UPDATE task_text_keys SET pending = NULL WHERE pending IS NOT NULL; RELEASE text_index", e);
	if (rc)
		sqlite3_exec(q->db, "ROLLBACK TO text_index; RELEASE text_index", NULL, NULL, NULL);
	else
		q->text_added = 0;
	return rc;
}

/* The status of a statement that wrote a task (rc, its last step's
 * result): ST_REFUSED for a unique key, ST_NOTFOUND when no row was. */
static int
task_written(struct store *st, int rc, const char *what, struct err *e)
{
	if (rc == SQLITE_CONSTRAINT)
		return ST_REFUSED;
	if (rc != SQLITE_DONE)
		return sq_err(st, e, what);
	return sqlite3_changes(sq_db(st)) ? ST_OK : ST_NOTFOUND;
}

int
sq_task_put(struct store *st, const struct task *t, struct err *e)
{
	int rc = task_write(st, t, 1, e);
	return rc < 0 ? ST_ERR : task_written(st, rc, "updating a task", e);
}

/* One task's write of only the columns cols says changed, from its full
 * row (row_task(t, 1)). */
static int
task_write_some(struct store *st, const char *sql, const struct row *full,
    const unsigned char *cols, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, sql, e);
	if (!s)
		return ST_ERR;
	struct row some;
	store_sql_tasks_pick(&some, full, cols);
	sq_bind(s, &some);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	return task_written(st, rc, "updating a task", e);
}

/* Each task, with its row as read and held since (before[i]), only the
 * columns that changed: SQLite rewrites the entries of every index whose
 * columns an UPDATE sets, changed or not, and a whole row sets them all. */
int
sq_tasks_put_many(struct store *st, const struct task *const *t, const struct task *const *before,
    size_t n, struct err *e)
{
	int rc = ST_OK;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!before || !before[i]) {
			rc = sq_task_put(st, t[i], e);
			continue;
		}
		struct row now, was;
		unsigned char cols[ROW_MAX] = {0};
		row_task(&now, t[i], 1);
		row_task(&was, before[i], 1);
		if (store_sql_tasks_changed(&was, &now, cols)) {
			const char *sql = store_sql_tasks_update(sq_sql(st), cols);
			rc = sql ? task_write_some(st, sql, &now, cols, e) : sq_task_put(st, t[i], e);
		}
		row_free(&now);
		row_free(&was);
	}
	return rc;
}

int
sq_task_prefix(struct store *st, const struct id_range *ids, int trashed, char (*found)[37],
    int max, int *n, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_TASK_PREFIX), e);
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

int
sq_task_get(struct store *st, const char *id, struct task *t, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_TASK_GET), e);
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
	/* With the tasks not yet indexed (added by hand, or by a program
	 * that died before its commit indexed them): few, candidates all. */
	static const char q[] = "SELECT rowid FROM task_text WHERE task_text MATCH ?1 UNION ALL"
	    " SELECT n FROM task_text_keys WHERE pending IS NOT NULL LIMIT ?2";
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

/* The statement listing (or counting) f's tasks, the text found the best way. */
static sqlite3_stmt *
task_query(struct store *st, const struct task_filter *f, int count, const char *what,
    struct err *e)
{
	struct row p;
	struct buf keys = {0};
	int how = text_how(st, f, count, &keys, e);
	if (how < 0) {
		buf_free(&keys);
		return NULL;
	}
	sqlite3_stmt *s = sq_prepare_once(st, store_sql_task_list_text(sq_sql(st)->d, f, count, how,
	    keys.data, &p), &p, what, e);
	buf_free(&keys);
	row_free(&p);
	return s;
}

int
sq_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	sqlite3_stmt *s = task_query(st, f, 0, "listing tasks", e);
	if (!s)
		return ST_ERR;
	return sq_task_rows(st, s, 0, fn, arg, NULL, NULL, e);
}

int
sq_task_rows(struct store *st, sqlite3_stmt *s, long limit, task_fn fn, void *arg,
    int64_t tail[2], long *given, struct err *e)
{
	int rc = SQLITE_DONE, ncols = task_read_ncols(), status = ST_OK;
	long n = 0;
	while ((limit <= 0 || n < limit) && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct task t;
		task_read(&t, sq_cell, s);
		if (tail) {
			tail[0] = sqlite3_column_int64(s, ncols);
			tail[1] = sqlite3_column_int64(s, ncols + 1);
		}
		n++;
		int stop = fn(&t, arg);
		task_free(&t);
		if (stop)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = sq_err(st, e, "listing tasks");
	sqlite3_finalize(s);
	if (given)
		*given = n;
	return status;
}

int
sq_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e)
{
	sqlite3_stmt *s = task_query(st, f, 1, "counting tasks", e);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? ST_OK : sq_err(st, e, "counting tasks");
}

/* An update of task id by one of its instants (now): an SQL_*. */
static int
task_stamp(struct store *st, int which, const char *id, int64_t now, const char *what,
    struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), which), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, id);
	sqlite3_bind_int64(s, 2, now);
	int rc = sq_done(st, s, e, what);
	return !rc && sqlite3_changes(sq_db(st)) == 0 ? ST_NOTFOUND : rc;
}

int
sq_task_trash(struct store *st, const char *id, int64_t now, struct err *e)
{
	return task_stamp(st, SQL_TASK_TRASH, id, now, "deleting a task", e);
}

int
sq_trash_restore(struct store *st, const char *id, char restored[37], struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), id ? SQL_TASK_RESTORE
	    : SQL_TASK_RESTORE_LAST), e);
	if (!s)
		return ST_ERR;
	if (id)
		sq_text(s, 1, id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		sq_col_copy(s, 0, restored, 37);
	while (rc == SQLITE_ROW)
		rc = sqlite3_step(s);
	sqlite3_reset(s);
	return task_written(st, rc, "restoring a task", e);
}

int
sq_trash_purge(struct store *st, long *n, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_TRASH_PURGE), e);
	if (!s)
		return ST_ERR;
	int rc = sq_done(st, s, e, "emptying the trash");
	if (!rc)
		*n = sqlite3_changes(sq_db(st));
	return rc;
}

int
sq_task_queue(struct store *st, const char *id, int64_t now, struct err *e)
{
	return task_stamp(st, SQL_TASK_QUEUE, id, now, "queueing a run", e);
}

int
sq_setting_get(struct store *st, const char *key, char **value, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_SETTING_GET), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, key);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*value = sq_col_text(s, 0);
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading a setting");
}

int
sq_setting_set(struct store *st, const char *key, const char *value, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), value ? SQL_SETTING_SET : SQL_SETTING_DEL),
	    e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, key);
	if (value)
		sq_text(s, 2, value);
	return sq_done(st, s, e, "writing a setting");
}

/* ---- owners: one machine, told apart by pid and lease; no heartbeat ---- */

int
sq_owner_start(struct store *st, struct err *e)
{
	(void)st;
	(void)e;
	return ST_OK;
}

int
sq_owner_beat(struct store *st, int *alive, struct err *e)
{
	(void)st;
	(void)e;
	*alive = 1;
	return ST_OK;
}

void
sq_owner_stop(struct store *st)
{
	(void)st;
}

int
sq_owner_bury(struct store *st, const char *owner_id, int64_t stale_after, int *dead, struct err *e)
{
	(void)st;
	(void)owner_id;
	(void)stale_after;
	(void)e;
	*dead = 1;
	return ST_OK;
}

