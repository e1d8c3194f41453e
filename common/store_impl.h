/* store_impl.h: what the SQLite store's own source files share.  Only
 * common/store*.c and common/history.c include this; cmd/ never does. */
#ifndef AC_STORE_IMPL_H
#define AC_STORE_IMPL_H

#include <sqlite3.h>

#include "store.h"

/* store.c */
sqlite3 *store_db(struct store *st);
int store_sqlerr(struct store *st, struct err *e, const char *what); /* ST_ERR with sqlite's message */
/* A cached prepared statement for sql (a string literal: keyed by pointer),
 * reset and with bindings cleared. NULL on error, message in e. */
sqlite3_stmt *store_stmt(struct store *st, const char *sql, struct err *e);
void stmt_text(sqlite3_stmt *s, int i, const char *v);   /* NULL binds NULL */
void stmt_time(sqlite3_stmt *s, int i, int64_t v);       /* TIME_NONE binds NULL */
char *col_text(sqlite3_stmt *s, int i);                  /* malloc'd copy or NULL */
int64_t col_time(sqlite3_stmt *s, int i);                /* NULL reads TIME_NONE */

#endif
