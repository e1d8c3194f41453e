/* task-web's tokens in the store (store_web.h). */
#include <string.h>

#include "store_backend.h"
#include "store_web.h"

int
store_token_add(struct store *st, const struct web_token *t, struct err *e)
{
	int rc = store_writable(st, e);
	if (rc)
		return rc;
	rc = st->ops->web->token_add(st, t, e);
	if (rc == ST_REFUSED)
		return err_set(e, ST_REFUSED, "a token named '%s' exists; revoke it first", t->name);
	return rc;
}

int
store_token_revoke(struct store *st, const char *name, struct err *e)
{
	int found = 0, rc = store_writable(st, e);
	if (!rc)
		rc = st->ops->web->token_del(st, name, &found, e);
	if (!rc && !found)
		return err_set(e, ST_NOTFOUND, "no token named '%s'", name);
	return rc;
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
	return rc ? rc : st->ops->web->hook_set(st, task_id, token_hash, secret, now, e);
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
store_web_herd(struct store *st, int64_t until, web_herd_fn fn, void *arg, struct err *e)
{
	if (st->standin)
		return ST_OK;
	return st->ops->web->herd(st, until, fn, arg, e);
}
