/* run_diff.h: what changed between two runs' answers (task-log --diff,
 * and the notify hook's change event): the run to compare a run with is
 * the one it replayed, else the last success of its task before it that
 * was no replay. */
#ifndef AC_RUN_DIFF_H
#define AC_RUN_DIFF_H

#include "store.h"
#include "util.h"

/* run_diff.c */
/* The run r is compared with by default, *prev (with its output; run_free
 * it) and *found = 1, or *found = 0 when there is none. */
int run_diff_base(struct store *st, const struct run *r, struct run *prev, int *found,
    struct err *e);
/* The diff of from's output to to's into out (diff.h), labelled with the
 * runs' ids, triggers and starts (RFC 3339 UTC); 1 when they differ. */
int run_diff(const struct run *from, const struct run *to, int words, struct buf *out);

#endif
