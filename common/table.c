#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "util.h"

#define CELL_MAX 40 /* wider cells are cut with "..." so rows stay one line */

struct table {
	int ncols;
	size_t nrows;
	char **cells; /* (nrows + 1) * ncols, row 0 the header */
};

/* Display width: UTF-8 continuation bytes take no column. */
static size_t
width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static char *
cell_copy(const char *s)
{
	s = s ? s : "";
	size_t keep = width(s) > CELL_MAX ? CELL_MAX - 3 : (size_t)-1, w = 0;
	struct buf b = {0};
	for (const char *p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && w++ == keep) {
			buf_puts(&b, "...");
			break;
		}
		char c = *p == '\n' || *p == '\t' || *p == '\r' ? ' ' : *p;
		buf_add(&b, &c, 1);
	}
	buf_add(&b, "", 0);
	return b.data;
}

struct table *
table_new(int ncols, const char *const *headers)
{
	struct table *tb = xcalloc(1, sizeof *tb);
	tb->ncols = ncols;
	table_add(tb, headers);
	return tb;
}

void
table_add(struct table *tb, const char *const *cells)
{
	size_t row = tb->cells ? tb->nrows + 1 : 0;
	tb->cells = xrealloc(tb->cells, (row + 1) * (size_t)tb->ncols * sizeof *tb->cells);
	for (int i = 0; i < tb->ncols; i++)
		tb->cells[row * (size_t)tb->ncols + (size_t)i] = cell_copy(cells[i]);
	tb->nrows = row;
}

void
table_print(struct table *tb, FILE *f, int color)
{
	size_t *w = xcalloc((size_t)tb->ncols, sizeof *w);
	for (size_t r = 0; r <= tb->nrows; r++)
		for (int c = 0; c < tb->ncols; c++) {
			size_t cw = width(tb->cells[r * (size_t)tb->ncols + (size_t)c]);
			if (cw > w[c])
				w[c] = cw;
		}
	for (size_t r = 0; r <= tb->nrows; r++) {
		if (r == 0 && color)
			fputs("\033[1m", f);
		for (int c = 0; c < tb->ncols; c++) {
			const char *s = tb->cells[r * (size_t)tb->ncols + (size_t)c];
			if (c == tb->ncols - 1)
				fputs(s, f);
			else
				fprintf(f, "%s%*s", s, (int)(w[c] - width(s) + 2), "");
		}
		if (r == 0 && color)
			fputs("\033[0m", f);
		fputc('\n', f);
	}
	free(w);
}

void
table_free(struct table *tb)
{
	if (!tb)
		return;
	for (size_t i = 0; i < (tb->nrows + 1) * (size_t)tb->ncols; i++)
		free(tb->cells[i]);
	free(tb->cells);
	free(tb);
}
