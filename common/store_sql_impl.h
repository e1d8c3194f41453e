/* store_sql_impl.h: what store_sql.c (the statements about tasks, and
 * those both dialects spell alike) gives store_sql_runs.c (those about
 * runs) to write them.  Not for the backends: they use store_sql.h. */
#ifndef AC_STORE_SQL_IMPL_H
#define AC_STORE_SQL_IMPL_H

#include "store_sql.h"

/* The statement b holds, in d's placeholders (none of our statements has
 * a '?' of its own). */
char *sql_in_dialect(struct buf *b, const struct sql_dialect *d);
/* The columns of fs that cols selects, comma-separated, after sep. */
void sql_columns(struct buf *b, const struct fields *fs, int cols, const char *sep);
/* What task_read or run_read reads, as a SELECT list. */
void sql_select_list(struct buf *b, const struct fields *fs, int large);
/* INSERT INTO table (its columns, then more) VALUES (?1, ..., ?n), with
 * nmore parameters for more, then tail. */
char *sql_insert(const struct sql_dialect *d, const char *table, const struct fields *fs,
    const char *more, int nmore, const char *tail);

/* store_sql_runs.c: SQL_RUN_INSERT, SQL_RUN_FINISH, SQL_RUNS_INSERT or
 * SQL_RUNS_FINISH (which), malloc'd. */
char *sql_run_write(const struct sql_dialect *d, int which);

#endif
