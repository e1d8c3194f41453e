/* task-web's tokens in the store (store_web.h). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "store_audit.h"
#include "store_backend.h"
#include "store_web.h"
#include "util.h"
#include "task_json.h"

/* A grant of access as an audit entry's JSON: never the secret itself. */
static char *
grant_json(const char *key, const char *value, int read_only)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, key, value);
	if (read_only >= 0)
		cJSON_AddBoolToObject(j, "read_only", read_only);
	char *s = json_print_line(j);
	cJSON_Delete(j);
	return s;
}

int
store_token_add(struct store *st, const struct web_token *t, struct err *e)
{
	int rc = store_writable(st, e);
	if (rc || (rc = store_begin(st, e)))
		return rc;
	rc = st->ops->web->token_add(st, t, e);
	if (rc == ST_REFUSED) {
		store_rollback(st);
		return err_set(e, ST_REFUSED, "a token named '%s' exists; revoke it first", t->name);
	}
	char *after = rc ? NULL : grant_json("token", t->name, t->read_only);
	if (!rc)
		rc = store_audit_note(st, "token", NULL, NULL, after, e);
	free(after);
	return store_own_end(st, 1, rc, e);
}

int
store_token_revoke(struct store *st, const char *name, struct err *e)
{
	int found = 0, rc = store_writable(st, e);
	if (rc || (rc = store_begin(st, e)))
		return rc;
	rc = st->ops->web->token_del(st, name, &found, e);
	if (!rc && !found) {
		store_rollback(st);
		return err_set(e, ST_NOTFOUND, "no token named '%s'", name);
	}
	char *before = rc ? NULL : grant_json("token", name, -1);
	if (!rc)
		rc = store_audit_note(st, "token", NULL, before, NULL, e);
	free(before);
	return store_own_end(st, 1, rc, e);
}

int
store_token_list(struct store *st, web_token_fn fn, void *arg, struct err *e)
{
	if (st->standin)
		return ST_OK;
	return st->ops->web->token_list(st, fn, arg, e);
}

int
store_hook_set(struct store *st, const char *task_id, const char *token_hash, const char *secret,
    int64_t now, struct err *e)
{
	int rc = store_writable(st, e);
	if (rc || (rc = store_begin(st, e)))
		return rc;
	rc = st->ops->web->hook_set(st, task_id, token_hash, secret, now, e);
	/* Who may fire the task changed: a grant, on the trail. */
	char *after = grant_json(token_hash ? "trigger_token" : "trigger_secret", "new", -1);
	if (!rc)
		rc = store_audit_note(st, "grant", task_id, NULL, after, e);
	free(after);
	return store_own_end(st, 1, rc, e);
}

int
store_hook_get(struct store *st, const char *task_id, struct web_hook *h, struct err *e)
{
	int found = 0, rc;
	memset(h, 0, sizeof *h);
	if (st->standin)
		return ST_NOTFOUND;
	if ((rc = st->ops->web->hook_get(st, task_id, h, &found, e)))
		return rc;
	return found ? ST_OK : ST_NOTFOUND;
}

int
store_hook_event(struct store *st, const char *task_id, const char *key, const char *body_sha256,
    int64_t now, int *dup, struct err *e)
{
	int rc = st->ops->web->hook_event(st, task_id, key, body_sha256, now, e);
	*dup = rc == ST_REFUSED;
	return *dup ? ST_OK : rc;
}

int
store_hook_find(struct store *st, const char *task_id, const char *key, const char *body_sha256,
    int *found, struct err *e)
{
	*found = 0;
	if (st->standin)
		return ST_OK;
	return st->ops->web->hook_find(st, task_id, key, body_sha256, found, e);
}

int
store_hook_prune(struct store *st, int64_t before, long limit, long *n, struct err *e)
{
	*n = 0;
	if (st->standin)
		return ST_OK;
	int rc = store_begin(st, e);
	if (!rc)
		rc = st->ops->web->hook_prune(st, before, limit, n, e);
	if (!rc)
		rc = store_commit(st, e);
	if (rc) {
		store_rollback(st);
		*n = 0;
	}
	return rc;
}

int
store_web_herd(struct store *st, int64_t until, web_herd_fn fn, void *arg, struct err *e)
{
	if (st->standin)
		return ST_OK;
	return st->ops->web->herd(st, until, fn, arg, e);
}

/* s with text inserted before the first (or, last, the last) occurrence of
 * at, malloc'd; NULL when at is not there. */
static char *
insert_at(const char *s, const char *at, int last, const char *text)
{
	const char *p = strstr(s, at);
	for (const char *q = p; last && q; q = strstr(q + 1, at))
		p = q;
	if (!p)
		return NULL;
	return xasprintf("%.*s%s%s", (int)(p - s), s, text, p);
}

int
store_web_task_walk(struct store *st, const struct task_filter *f, struct web_keyset from,
    long examine, task_fn fn, void *arg, int *cut, struct web_keyset *next, struct err *e)
{
	*cut = 0;
	if (st->standin)
		return ST_OK;
	const struct sql_dialect *d = st->ops->web->dialect(st);
	char c = d->param;
	/* Where the walk stops: the examine-th task from `from`, from the
	 * ordering index alone. */
	/* The key's own bound, beside the row value's, is the index's range. */
	char *end_sql = xasprintf("WITH w AS (SELECT %s AS k, %s AS s FROM tasks WHERE deleted_at"
	    " IS NULL AND %s >= %c1 AND (%s, %s) > (%c1, %c2) ORDER BY %s, %s LIMIT %c3) SELECT k, s,"
	    " (SELECT count(*) FROM w) FROM w ORDER BY k DESC, s DESC LIMIT 1", d->order_key, d->seq,
	    d->order_key, c, d->order_key, d->seq, c, c, d->order_key, d->seq, c);
	struct row p;
	p.n = p.nowned = 0;
	row_int(&p, from.key);
	row_int(&p, from.seq);
	row_int(&p, examine);
	struct web_keyset end;
	long n = 0;
	int found = 0;
	int rc = st->ops->web->keyset(st, end_sql, &p, &end, &n, &found, e);
	row_free(&p);
	if (rc || !found)
		return rc;
	/* The listing's own statement, within (from, end] and with each
	 * task's keyset after its columns. */
	char *list = store_sql_task_list_text(d, f, 0, SQL_TEXT_WALK, NULL, &p);
	char *keys = xasprintf(", %s, %s", d->order_key, d->seq);
	int k = p.n + 1;
	char *range = xasprintf(" AND %s BETWEEN %c%d AND %c%d AND (%s, %s) > (%c%d, %c%d)"
	    " AND (%s, %s) <= (%c%d, %c%d)", d->order_key, c, k, c, k + 2, d->order_key, d->seq,
	    c, k, c, k + 1, d->order_key, d->seq, c, k + 2, c, k + 3);
	char *with_keys = insert_at(list, " FROM tasks WHERE ", 0, keys);
	char *sql = with_keys ? insert_at(with_keys, " ORDER BY ", 1, range) : NULL;
	free(list);
	free(keys);
	free(range);
	free(with_keys);
	if (!sql) {
		row_free(&p);
		return err_set(e, ST_ERR, "listing tasks: the listing's statement has changed shape");
	}
	row_int(&p, from.key);
	row_int(&p, from.seq);
	row_int(&p, end.key);
	row_int(&p, end.seq);
	struct web_keyset last = from;
	long given = 0;
	rc = st->ops->web->tasks(st, sql, &p, f->limit, fn, arg, &last, &given, e);
	row_free(&p);
	if (rc)
		return rc;
	if (f->limit > 0 && given >= f->limit) {
		*cut = 1;
		*next = last;
	} else if (n >= examine) {
		*cut = 1;
		*next = end;
	}
	return ST_OK;
}

int
store_web_task_page(struct store *st, const struct task_filter *f, task_fn fn, void *arg,
    struct err *e)
{
	if (st->standin || !st->ops->web->task_page)
		return store_task_list(st, f, fn, arg, e);
	return st->ops->web->task_page(st, f, fn, arg, e);
}

int
store_web_task_sorted(struct store *st, const struct task_filter *f, int by, task_fn fn,
    void *arg, struct err *e)
{
	if (st->standin)
		return ST_OK;
	const struct sql_dialect *d = st->ops->web->dialect(st);
	/* strcasecmp's order on both stores: bytes, ASCII letters folded. */
	const char *name = d->param == '$' ? "lower(name) COLLATE \"C\", id" : "lower(name), id";
	char *order = xasprintf(" ORDER BY %s%s", by == WEB_SORT_STATUS ? "status, " : by ==
	    WEB_SORT_LAST ? "last_run_at IS NULL, last_run_at DESC, " : "", name);
	struct row p;
	char *list = store_sql_task_list_text(d, f, 0, SQL_TEXT_SCAN, NULL, &p);
	char *keys = xasprintf(", %s, %s", d->order_key, d->seq);
	char *with_keys = insert_at(list, " FROM tasks", 0, keys);
	char *cut = with_keys ? strstr(with_keys, " ORDER BY ") : NULL;
	for (char *q = cut; q; q = strstr(q + 1, " ORDER BY "))
		cut = q;
	char *sql = NULL;
	if (cut) {
		*cut = 0;
		sql = f->limit > 0 ? xasprintf("%s%s LIMIT %ld", with_keys, order, f->limit)
		    : xasprintf("%s%s", with_keys, order);
	}
	free(list);
	free(keys);
	free(order);
	free(with_keys);
	if (!sql) {
		row_free(&p);
		return err_set(e, ST_ERR, "listing tasks: the listing's statement has changed shape");
	}
	struct web_keyset last = WEB_KEYSET_START;
	long given = 0;
	int rc = st->ops->web->tasks(st, sql, &p, f->limit, fn, arg, &last, &given, e);
	row_free(&p);
	return rc;
}

int
store_web_task_keyset(struct store *st, const char *id, struct web_keyset *k, struct err *e)
{
	if (st->standin)
		return ST_NOTFOUND;
	const struct sql_dialect *d = st->ops->web->dialect(st);
	char *sql = xasprintf("SELECT %s, %s, 1 FROM tasks WHERE id = %c1", d->order_key, d->seq,
	    d->param);
	struct row p;
	p.n = p.nowned = 0;
	row_text(&p, id);
	long n;
	int found = 0, rc = st->ops->web->keyset(st, sql, &p, k, &n, &found, e);
	row_free(&p);
	return rc ? rc : found ? ST_OK : ST_NOTFOUND;
}
