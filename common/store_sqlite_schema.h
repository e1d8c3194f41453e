/* store_sqlite_schema.h: the SQLite backend's schema
 * (store_sqlite_schema.c).  Not for cmd/. */
#ifndef AC_STORE_SQLITE_SCHEMA_H
#define AC_STORE_SQLITE_SCHEMA_H

#include "store_backend.h"

/* The schema brought up to date (*migrated set if this call changed it). */
int sq_migrate(struct store *st, int *migrated, struct err *e);

#endif
