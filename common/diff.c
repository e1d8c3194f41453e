/* diff.c: line and word diffs of two texts (diff.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

struct tok {
	const char *p;
	size_t n;
};

struct toks {
	struct tok *v;
	size_t n, cap;
};

static void
tok_add(struct toks *t, const char *p, size_t n)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = xrealloc(t->v, t->cap * sizeof *t->v);
	}
	t->v[t->n++] = (struct tok){p, n};
}

/* Lines without their newline; a last newline ends a line, it starts none. */
static void
split_lines(const char *s, struct toks *t)
{
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		tok_add(t, s, n);
		s += n + (nl != NULL);
	}
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Runs of blanks and runs of the rest, so the tokens joined are the text. */
static void
split_words(const char *s, struct toks *t)
{
	while (*s) {
		int sp = is_space(*s);
		size_t n = 1;
		while (s[n] && is_space(s[n]) == sp)
			n++;
		tok_add(t, s, n);
		s += n;
	}
}

static int
tok_eq(const struct tok *a, const struct tok *b)
{
	return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

enum { OP_SAME, OP_GONE, OP_NEW };

struct op {
	int kind;
	size_t i;                   /* the token: of a (same, gone) or of b (new) */
	size_t j;                   /* same: its place in b */
};

/* The edit script of a to b, in order: *nops of them. */
static struct op *
edit_script(const struct toks *a, const struct toks *b, size_t *nops)
{
	size_t head = 0, tail = 0;
	while (head < a->n && head < b->n && tok_eq(&a->v[head], &b->v[head]))
		head++;
	while (tail < a->n - head && tail < b->n - head &&
	    tok_eq(&a->v[a->n - 1 - tail], &b->v[b->n - 1 - tail]))
		tail++;
	size_t n = a->n - head - tail, m = b->n - head - tail;
	struct op *ops = xcalloc(a->n + b->n + 1, sizeof *ops);
	size_t k = 0;
	for (size_t i = 0; i < head; i++)
		ops[k++] = (struct op){OP_SAME, i, i};
	/* len[i][j]: the LCS of a's middle from i and b's from j. */
	uint32_t *len = NULL;
	if (n && m && (n + 1) <= (size_t)DIFF_CELLS / (m + 1))
		len = calloc((n + 1) * (m + 1), sizeof *len);
	if (len) {
		for (size_t i = n; i-- > 0;)
			for (size_t j = m; j-- > 0;)
				len[i * (m + 1) + j] = tok_eq(&a->v[head + i], &b->v[head + j])
				    ? len[(i + 1) * (m + 1) + j + 1] + 1
				    : len[(i + 1) * (m + 1) + j] >= len[i * (m + 1) + j + 1]
				    ? len[(i + 1) * (m + 1) + j] : len[i * (m + 1) + j + 1];
		size_t i = 0, j = 0;
		while (i < n && j < m) {
			if (tok_eq(&a->v[head + i], &b->v[head + j])) {
				ops[k++] = (struct op){OP_SAME, head + i, head + j};
				i++, j++;
			} else if (len[(i + 1) * (m + 1) + j] >= len[i * (m + 1) + j + 1]) {
				ops[k++] = (struct op){OP_GONE, head + i++, 0};
			} else {
				ops[k++] = (struct op){OP_NEW, head + j++, 0};
			}
		}
		while (i < n)
			ops[k++] = (struct op){OP_GONE, head + i++, 0};
		while (j < m)
			ops[k++] = (struct op){OP_NEW, head + j++, 0};
		free(len);
	} else {
		for (size_t i = 0; i < n; i++)
			ops[k++] = (struct op){OP_GONE, head + i, 0};
		for (size_t j = 0; j < m; j++)
			ops[k++] = (struct op){OP_NEW, head + j, 0};
	}
	for (size_t t = 0; t < tail; t++)
		ops[k++] = (struct op){OP_SAME, a->n - tail + t, b->n - tail + t};
	*nops = k;
	return ops;
}

static void
put_line(struct buf *out, char mark, const struct tok *t)
{
	buf_add(out, &mark, 1);
	buf_add(out, t->p, t->n);
	buf_add(out, "\n", 1);
}

/* Hunks of the changes with DIFF_CONTEXT lines around them, joined when
 * their context meets. */
static void
unified(const struct toks *a, const struct toks *b, const struct op *ops, size_t nops,
    const struct diff_opts *o, struct buf *out)
{
	buf_printf(out, "--- %s\n+++ %s\n", o->from ? o->from : "a", o->to ? o->to : "b");
	size_t k = 0;
	while (k < nops) {
		while (k < nops && ops[k].kind == OP_SAME)
			k++;
		if (k == nops)
			break;
		size_t start = k > DIFF_CONTEXT ? k - DIFF_CONTEXT : 0, end = k;
		/* The hunk runs on while the next change is within twice the context. */
		for (;;) {
			while (end < nops && ops[end].kind != OP_SAME)
				end++;
			size_t same = end;
			while (same < nops && ops[same].kind == OP_SAME)
				same++;
			if (same < nops && same - end <= 2 * DIFF_CONTEXT) {
				end = same;
				continue;
			}
			end = end + DIFF_CONTEXT < nops ? end + DIFF_CONTEXT : nops;
			break;
		}
		/* Where the hunk starts in a and b, and how many lines of each. */
		size_t ai = 0, bj = 0, an = 0, bn = 0;
		for (size_t t = 0; t < start; t++) {
			if (ops[t].kind != OP_NEW)
				ai++;
			if (ops[t].kind != OP_GONE)
				bj++;
		}
		for (size_t t = start; t < end; t++) {
			if (ops[t].kind != OP_NEW)
				an++;
			if (ops[t].kind != OP_GONE)
				bn++;
		}
		buf_printf(out, "@@ -%zu", an ? ai + 1 : ai);
		if (an != 1)
			buf_printf(out, ",%zu", an);
		buf_printf(out, " +%zu", bn ? bj + 1 : bj);
		if (bn != 1)
			buf_printf(out, ",%zu", bn);
		buf_puts(out, " @@\n");
		for (size_t t = start; t < end; t++)
			put_line(out, ops[t].kind == OP_SAME ? ' ' : ops[t].kind == OP_GONE ? '-' : '+',
			    ops[t].kind == OP_NEW ? &b->v[ops[t].i] : &a->v[ops[t].i]);
		k = end;
	}
}

/* b's text with what a had instead inline: [-gone-]{+new+}. */
static void
inline_words(const struct toks *a, const struct toks *b, const struct op *ops, size_t nops,
    struct buf *out)
{
	(void)b;
	for (size_t k = 0; k < nops;) {
		if (ops[k].kind == OP_SAME) {
			buf_add(out, a->v[ops[k].i].p, a->v[ops[k].i].n);
			k++;
			continue;
		}
		size_t end = k;
		while (end < nops && ops[end].kind != OP_SAME)
			end++;
		int any = 0;
		for (size_t t = k; t < end; t++)
			if (ops[t].kind == OP_GONE) {
				if (!any++)
					buf_puts(out, "[-");
				buf_add(out, a->v[ops[t].i].p, a->v[ops[t].i].n);
			}
		if (any)
			buf_puts(out, "-]");
		any = 0;
		for (size_t t = k; t < end; t++)
			if (ops[t].kind == OP_NEW) {
				if (!any++)
					buf_puts(out, "{+");
				buf_add(out, b->v[ops[t].i].p, b->v[ops[t].i].n);
			}
		if (any)
			buf_puts(out, "+}");
		k = end;
	}
	if (out->len && out->data[out->len - 1] != '\n')
		buf_puts(out, "\n");
}

int
diff_text(const char *a, const char *b, const struct diff_opts *o, struct buf *out)
{
	struct toks ta = {0}, tb = {0};
	(o->words ? split_words : split_lines)(a ? a : "", &ta);
	(o->words ? split_words : split_lines)(b ? b : "", &tb);
	size_t nops;
	struct op *ops = edit_script(&ta, &tb, &nops);
	int differ = 0;
	for (size_t k = 0; k < nops && !differ; k++)
		differ = ops[k].kind != OP_SAME;
	if (differ) {
		if (o->words)
			inline_words(&ta, &tb, ops, nops, out);
		else
			unified(&ta, &tb, ops, nops, o, out);
	}
	free(ops);
	free(ta.v);
	free(tb.v);
	return differ;
}
