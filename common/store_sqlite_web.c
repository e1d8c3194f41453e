/* task-web's tokens in an SQLite store (store_web.h). */
#include <string.h>

#include "store_sqlite.h"
#include "store_web.h"

static int
sq_token_add(struct store *st, const struct web_token *t, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_WEB_TOKEN_ADD), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, t->name);
	sq_text(s, 2, t->hash);
	sqlite3_bind_int(s, 3, t->read_only);
	sqlite3_bind_int64(s, 4, t->created_at);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_CONSTRAINT)
		return ST_REFUSED;
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "adding a token");
}

static int
sq_token_del(struct store *st, const char *name, int *found, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_WEB_TOKEN_DEL), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, name);
	return sq_done_changed(st, s, e, "revoking a token", found);
}

static int
sq_token_list(struct store *st, web_token_fn fn, void *arg, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_WEB_TOKEN_LIST), e);
	if (!s)
		return ST_ERR;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct web_token t;
		sq_col_copy(s, 0, t.name, sizeof t.name);
		sq_col_copy(s, 1, t.hash, sizeof t.hash);
		t.read_only = sqlite3_column_int(s, 2);
		t.created_at = sqlite3_column_int64(s, 3);
		if (fn(&t, arg)) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the tokens");
}

static int
sq_hook_set(struct store *st, const char *task_id, const char *token_hash, const char *secret,
    int64_t now, struct err *e)
{
	static const char q[] = "INSERT INTO web_hooks (task_id, token_hash, secret, created_at)"
	    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT(task_id) DO UPDATE SET"
	    " token_hash = coalesce(excluded.token_hash, token_hash),"
	    " secret = coalesce(excluded.secret, secret)";
	sqlite3_stmt *s = sq_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, task_id);
	sq_text(s, 2, token_hash);
	sq_text(s, 3, secret);
	sqlite3_bind_int64(s, 4, now);
	return sq_done(st, s, e, "setting a trigger");
}

static int
sq_hook_get(struct store *st, const char *task_id, struct web_hook *h, int *found, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_WEB_HOOK_GET), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, task_id);
	int rc = sqlite3_step(s);
	if ((*found = rc == SQLITE_ROW)) {
		sq_col_copy(s, 0, h->token_hash, sizeof h->token_hash);
		sq_col_copy(s, 1, h->secret, sizeof h->secret);
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading a trigger");
}

static int
sq_hook_event(struct store *st, const char *task_id, const char *key, const char *body_sha256,
    int64_t now, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_WEB_HOOK_EVENT), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, task_id);
	sq_text(s, 2, key);
	sqlite3_bind_int64(s, 3, now);
	sq_text(s, 4, body_sha256);
	sq_text(s, 5, WEB_HOOK_RAW_SHA);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return sq_err(st, e, "recording an event");
	return sqlite3_changes(sq_db(st)) ? ST_OK : ST_REFUSED;
}

static int
sq_hook_find(struct store *st, const char *task_id, const char *key, const char *body_sha256,
    int *found, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_WEB_HOOK_FIND), e);
	if (!s)
		return ST_ERR;
	sq_text(s, 1, task_id);
	sq_text(s, 2, key);
	sq_text(s, 3, body_sha256);
	int rc = sqlite3_step(s);
	*found = rc == SQLITE_ROW;
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "looking up an event");
}

static int
sq_hook_prune(struct store *st, int64_t before, long limit, long *n, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, store_sql(sq_sql(st), SQL_WEB_HOOK_PRUNE), e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, before);
	sqlite3_bind_int64(s, 2, limit);
	int rc = sq_done(st, s, e, "forgetting old event keys");
	*n = rc ? 0 : sqlite3_changes(sq_db(st));
	return rc;
}

static int
sq_herd(struct store *st, int64_t until, web_herd_fn fn, void *arg, struct err *e)
{
	sqlite3_stmt *s = sq_stmt(st, WEB_HERD_SQL("?1"), e);
	if (!s)
		return ST_ERR;
	sqlite3_bind_int64(s, 1, until);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct task t;
		task_init(&t);
		const char *kind = (const char *)sqlite3_column_text(s, 0);
		t.kind = kind ? task_kind_parse(kind) : -1;
		t.cron = sq_col_text(s, 1);
		t.tz = sq_col_text(s, 2);
		t.every = sqlite3_column_type(s, 3) == SQLITE_NULL ? -1 : sqlite3_column_int(s, 3);
		t.anchor = sq_col_time(s, 4);
		t.not_before = sq_col_time(s, 5);
		t.ends_at = sq_col_time(s, 6);
		t.next_run_at = sq_col_time(s, 7);
		int stop = fn(&t, (long)sqlite3_column_int64(s, 8), arg);
		task_free(&t);
		if (stop) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "reading the next day's fires");
}

static const struct sql_dialect *
sq_dialect(struct store *st)
{
	return sq_sql(st)->d;
}

static int
sq_keyset(struct store *st, char *sql, const struct row *p, struct web_keyset *k, long *n,
    int *found, struct err *e)
{
	sqlite3_stmt *s = sq_prepare_once(st, sql, p, "walking the tasks", e);
	if (!s)
		return ST_ERR;
	int rc = sqlite3_step(s);
	if ((*found = rc == SQLITE_ROW)) {
		k->key = sqlite3_column_int64(s, 0);
		k->seq = sqlite3_column_int64(s, 1);
		*n = (long)sqlite3_column_int64(s, 2);
	}
	int status = rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : sq_err(st, e, "walking the tasks");
	sqlite3_finalize(s);
	return status;
}

static int
sq_tasks(struct store *st, char *sql, const struct row *p, long limit, task_fn fn, void *arg,
    struct web_keyset *last, long *given, struct err *e)
{
	sqlite3_stmt *s = sq_prepare_once(st, sql, p, "listing tasks", e);
	if (!s)
		return ST_ERR;
	int64_t tail[2] = {last->key, last->seq};
	int rc = sq_task_rows(st, s, limit, fn, arg, tail, given, e);
	last->key = tail[0];
	last->seq = tail[1];
	return rc;
}

const struct web_store_ops sq_web_ops = {
	.token_add = sq_token_add,
	.token_del = sq_token_del,
	.token_list = sq_token_list,
	.hook_set = sq_hook_set,
	.hook_get = sq_hook_get,
	.hook_event = sq_hook_event,
	.hook_find = sq_hook_find,
	.hook_prune = sq_hook_prune,
	.herd = sq_herd,
	.dialect = sq_dialect,
	.keyset = sq_keyset,
	.tasks = sq_tasks,
};
