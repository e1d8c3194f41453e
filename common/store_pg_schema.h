/* store_pg_schema.h: the PostgreSQL backend's schema (store_pg_schema.c),
 * brought up to date, and the server's settings that would make a commit
 * less than durable.  Not for cmd/. */
#ifndef AC_STORE_PG_SCHEMA_H
#define AC_STORE_PG_SCHEMA_H

#include "store_backend.h"

int pg_migrate(struct store *st, struct err *e);
int pg_durability(struct store *st, char *off, size_t n, struct err *e);  /* store_ops' */
int pg_async_standbys(struct store *st, long *n, struct err *e);

#endif
