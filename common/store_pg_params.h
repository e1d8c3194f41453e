/* store_pg_params.h: the PostgreSQL backend's values in and out
 * (store_pg_params.c): a statement's parameters as text, a result's cells
 * back as C values.  Not for cmd/. */
#ifndef AC_STORE_PG_PARAMS_H
#define AC_STORE_PG_PARAMS_H

#include "pq_lib.h"
#include "store_backend.h"
#include "store_sql.h"

#define PQ_MAXPARAMS ROW_MAX

/* The parameters of one statement, as text (NULL for SQL NULL). */
struct pq_params {
	const char *v[PQ_MAXPARAMS];
	char num[PQ_MAXPARAMS][24];
	char *owned[PQ_MAXPARAMS];  /* copies made valid UTF-8 */
	int n;
};
void pq_text(struct pq_params *p, const char *s);
void pq_int(struct pq_params *p, long long v);
void pq_time(struct pq_params *p, int64_t t);          /* TIME_NONE: NULL */
void pq_params_free(struct pq_params *p);

char *pq_get_text(const struct pq_lib *pq, const PGresult *r, int row, int col);    /* malloc'd, NULL for NULL */
int64_t pq_get_time(const struct pq_lib *pq, const PGresult *r, int row, int col);  /* TIME_NONE for NULL */
long long pq_get_int(const struct pq_lib *pq, const PGresult *r, int row, int col); /* 0 for NULL */
void pq_get_copy(const struct pq_lib *pq, const PGresult *r, int row, int col, char *dst, size_t n);

void pq_bind(struct pq_params *p, const struct row *r);  /* r's texts must outlive p */
/* A row of a result, for pq_cell. */
struct pq_row {
	const struct pq_lib *pq;
	const PGresult *res;
	int row;
};
struct cell pq_cell(void *row, int col, int is_int);     /* a cell_fn of a struct pq_row */

#endif
