/* store_pg_schema.h: the PostgreSQL backend's schema (store_pg_schema.c),
 * brought up to date.  Not for cmd/. */
#ifndef AC_STORE_PG_SCHEMA_H
#define AC_STORE_PG_SCHEMA_H

#include "store_backend.h"

int pg_migrate(struct store *st, struct err *e);

#endif
