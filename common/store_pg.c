/* placeholder */
#include "store_backend.h"

int
store_pg_open(struct store *st, const char *uri, struct err *e)
{
	(void)st;
	return err_set(e, ST_ERR, "store '%s': PostgreSQL is not built in", uri);
}
