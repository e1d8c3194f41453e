/* keep.h: how much of its history a task keeps, as written and read
 * (keep.c): a value with its parser, below the task and the store. */
#ifndef AC_KEEP_H
#define AC_KEEP_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define HISTORY_MIN_RUNS 20       /* the newest runs of a task always kept */

/* A keep: by age (secs > 0), by count (runs > 0), or forever. */
struct keep {
	int64_t secs;
	long runs;
	int forever;
};
/* "90d", "12h", "30m", "2w", "45s", "500" (runs), "forever"; e says what
 * was expected ("a duration like ..."), to follow "expected". */
int keep_parse(const char *s, struct keep *k, struct err *e);
void keep_fmt(const struct keep *k, char *buf, size_t n);   /* "90d", "500", "forever" */
struct keep_unit {
	char unit;
	int64_t secs;
	const char *word;
};
extern const struct keep_unit keep_units[];  /* largest first */
#define KEEP_UNITS 5

#endif
