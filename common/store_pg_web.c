/* task-web's tokens in a PostgreSQL store (store_web.h): every host
 * serving the store accepts the same ones. */
#include "store_pg.h"
#include "store_web.h"

static int
pg_token_add(struct store *st, const struct web_token *t, struct err *e)
{
	static const char q[] = "INSERT INTO web_tokens (name, hash, read_only, created_at)"
	    " VALUES ($1, $2, $3, $4)";
	struct pq_params p = {.n = 0};
	pq_text(&p, t->name);
	pq_text(&p, t->hash);
	pq_int(&p, t->read_only);
	pq_int(&p, t->created_at);
	return pq_do(st, q, &p, NULL, "adding a token", e);
}

static int
pg_token_del(struct store *st, const char *name, int *found, struct err *e)
{
	struct pq_params p = {.n = 0};
	long rows = 0;
	pq_text(&p, name);
	int rc = pq_do(st, "DELETE FROM web_tokens WHERE name = $1", &p, &rows, "revoking a token", e);
	*found = !rc && rows > 0;
	return rc;
}

struct list_arg {
	web_token_fn fn;
	void *arg;
};

static int
token_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct list_arg *la = arg;
	struct web_token t;
	pq_get_copy(pq, r, row, 0, t.name, sizeof t.name);
	pq_get_copy(pq, r, row, 1, t.hash, sizeof t.hash);
	t.read_only = (int)pq_get_int(pq, r, row, 2);
	t.created_at = (int64_t)pq_get_int(pq, r, row, 3);
	return la->fn(&t, la->arg);
}

static int
pg_token_list(struct store *st, web_token_fn fn, void *arg, struct err *e)
{
	static const char q[] = "SELECT name, hash, read_only, created_at FROM web_tokens ORDER BY name";
	struct list_arg la = {fn, arg};
	return pq_each_row(st, q, NULL, 1000, token_row, &la, "reading the tokens", e);
}

const struct web_store_ops pg_web_ops = {
	.token_add = pg_token_add,
	.token_del = pg_token_del,
	.token_list = pg_token_list,
};
