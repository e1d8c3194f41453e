/* The PostgreSQL backend's values in and out: a statement's parameters as
 * text, a result's cells back as C values. */
#include <stdlib.h>

#include "store_pg_params.h"
#include "utf8.h"

void
pq_text(struct pq_params *p, const char *s)
{
	if (p->n >= PQ_MAXPARAMS)
		abort();
	/* The server takes text only as valid UTF-8; what is not (an
	 * executor's raw bytes) is stored with U+FFFD in place. */
	char *fixed = s ? utf8_fix(s) : NULL;
	p->owned[p->n] = fixed;
	p->v[p->n++] = fixed ? fixed : s;
}

void
pq_int(struct pq_params *p, long long v)
{
	if (p->n >= PQ_MAXPARAMS)
		abort();
	snprintf(p->num[p->n], sizeof p->num[p->n], "%lld", v);
	p->owned[p->n] = NULL;
	p->v[p->n] = p->num[p->n];
	p->n++;
}

void
pq_time(struct pq_params *p, int64_t t)
{
	if (t == TIME_NONE)
		pq_text(p, NULL);
	else
		pq_int(p, t);
}

void
pq_bind(struct pq_params *p, const struct row *r)
{
	for (int i = 0; i < r->n; i++) {
		if (r->c[i].kind == CELL_INT)
			pq_int(p, r->c[i].i);
		else
			pq_text(p, r->c[i].kind == CELL_TEXT ? r->c[i].s : NULL);
	}
}

struct cell
pq_cell(void *row, int col, int is_int)
{
	const struct pq_row *x = row;
	if (x->pq->getisnull(x->res, x->row, col))
		return (struct cell){CELL_NULL, 0, NULL};
	const char *v = x->pq->getvalue(x->res, x->row, col);
	if (is_int)
		return (struct cell){CELL_INT, strtoll(v, NULL, 10), NULL};
	return (struct cell){CELL_TEXT, 0, v};
}

void
pq_params_free(struct pq_params *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->owned[i]);
	p->n = 0;
}

char *
pq_get_text(const struct pq_lib *pq, const PGresult *r, int row, int col)
{
	return pq->getisnull(r, row, col) ? NULL : xstrdup(pq->getvalue(r, row, col));
}

int64_t
pq_get_time(const struct pq_lib *pq, const PGresult *r, int row, int col)
{
	return pq->getisnull(r, row, col) ? TIME_NONE : strtoll(pq->getvalue(r, row, col), NULL, 10);
}

long long
pq_get_int(const struct pq_lib *pq, const PGresult *r, int row, int col)
{
	return pq->getisnull(r, row, col) ? 0 : strtoll(pq->getvalue(r, row, col), NULL, 10);
}

void
pq_get_copy(const struct pq_lib *pq, const PGresult *r, int row, int col, char *dst, size_t n)
{
	snprintf(dst, n, "%s", pq->getisnull(r, row, col) ? "" : pq->getvalue(r, row, col));
}
