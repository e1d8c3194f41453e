/* task-web's tokens in the store (store_web.h). */
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
