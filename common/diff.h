/* diff.h: what changed between two texts, as a unified diff of their
 * lines (diff -u) or inline by word ([-gone-]{+new+}, as git diff
 * --word-diff).  The edit script is a longest common subsequence of the
 * lines or words between the common head and tail; a middle too large
 * for its table (DIFF_CELLS) is shown as all gone and all new, still a
 * true diff, only not the shortest. */
#ifndef AC_DIFF_H
#define AC_DIFF_H

#include "util.h"

#define DIFF_CONTEXT 3             /* lines around each change */
#define DIFF_CELLS (16L * 1024 * 1024) /* tokens a x tokens b, at most, for the table */

struct diff_opts {
	int words;                  /* by word, inline, instead of by line */
	const char *from, *to;      /* the --- and +++ labels (lines only) */
};

/* diff.c */
/* The diff of a to b appended to out: nothing when they are the same.
 * Returns 1 when they differ, else 0. */
int diff_text(const char *a, const char *b, const struct diff_opts *o, struct buf *out);

#endif
