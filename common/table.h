/* table.h: aligned columns for people on a terminal. */
#ifndef AC_TABLE_H
#define AC_TABLE_H

#include <stdio.h>

struct table;

/* table.c */
struct table *table_new(int ncols, const char *const *headers);
void table_add(struct table *tb, const char *const *cells); /* ncols cells, copied */
void table_print(struct table *tb, FILE *f, int color);     /* header bold when color */
void table_free(struct table *tb);

#endif
