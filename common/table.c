/* table.c: aligned columns for people (table.h), measured in terminal
 * columns, not bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "utf8.h"
#include "util.h"

#define CELL_MAX 40 /* wider cells are cut with "..." so rows stay one line */

struct table {
	int ncols;
	size_t nrows;
	char **cells; /* (nrows + 1) * ncols, row 0 the header */
};

/* One character of s: its length in bytes (a byte that is not UTF-8 is
 * one, shown as U+FFFD) and its code point. */
static size_t
next_char(const char *s, uint32_t *cp)
{
	size_t n = utf8_decode(s, strnlen(s, 4), cp);
	return n ? n : 1;
}

/* Columns a character takes: East Asian wide ones and most emoji two,
 * combining marks none (wcwidth(3) would need a UTF-8 locale). */
static size_t
cp_width(uint32_t c)
{
	static const uint32_t zero[][2] = {{0x300, 0x36f}, {0x200b, 0x200f}, {0x20d0, 0x20ff},
		{0xfe00, 0xfe0f}, {0xfe20, 0xfe2f}};
	static const uint32_t wide[][2] = {{0x1100, 0x115f}, {0x2e80, 0x303e}, {0x3041, 0x33ff},
		{0x3400, 0x4dbf}, {0x4e00, 0x9fff}, {0xa000, 0xa4cf}, {0xac00, 0xd7a3},
		{0xf900, 0xfaff}, {0xfe30, 0xfe4f}, {0xff00, 0xff60}, {0xffe0, 0xffe6},
		{0x1f300, 0x1f64f}, {0x1f900, 0x1f9ff}, {0x20000, 0x3fffd}};
	for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (c >= zero[i][0] && c <= zero[i][1])
			return 0;
	for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (c >= wide[i][0] && c <= wide[i][1])
			return 2;
	return 1;
}

static size_t
width(const char *s)
{
	size_t w = 0;
	uint32_t c;
	while (*s) {
		s += next_char(s, &c);
		w += cp_width(c);
	}
	return w;
}

/* A cell as it is shown: on one line, without control characters (a name
 * or prompt must not move the cursor or recolour the terminal), valid
 * UTF-8, and cut with "..." past CELL_MAX columns. */
static char *
cell_copy(const char *s)
{
	s = s ? s : "";
	size_t keep = width(s) > CELL_MAX ? CELL_MAX - 3 : (size_t)-1, w = 0;
	struct buf b = {0};
	for (const char *p = s; *p;) {
		uint32_t c;
		size_t n = next_char(p, &c), cw = cp_width(c);
		if (w + cw > keep) {
			buf_puts(&b, "...");
			break;
		}
		if (c == '\n' || c == '\t' || c == '\r')
			buf_puts(&b, " ");
		else if (c < 0x20 || (c >= 0x7f && c < 0xa0))
			buf_puts(&b, "?");
		else if (c == 0xfffd)
			buf_puts(&b, UTF8_REPLACEMENT);
		else
			buf_add(&b, p, n);
		w += cw;
		p += n;
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
