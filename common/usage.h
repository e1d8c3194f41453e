/* usage.h: what the model calls used, summed per task, model or day, for
 * task-log --usage: calls, tokens in and out, and dollars at the prices
 * they were recorded with (a call without a price adds tokens only). */
#ifndef AC_USAGE_H
#define AC_USAGE_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct store;
struct tz;

enum { USAGE_BY_TASK, USAGE_BY_MODEL, USAGE_BY_DAY };

struct usage_row {
	char *key;             /* task id ("" for calls of no task), model ("" unknown), or day */
	char *name;            /* by task: its name, NULL when it has none (purged, or no task);
	                        * by model: the model that answered, NULL when the same */
	int by_both;           /* rows differ by name too (by model) */
	long calls, unpriced;  /* unpriced: calls that had no price */
	long long in, out;
	double cost;
};

struct usage {
	struct usage_row *rows;  /* by day: oldest first; else most dollars, then tokens, first */
	size_t n, cap;
	struct usage_row total;
	size_t *slots;           /* a hash of rows by key */
	size_t nslots;
};

/* usage.c */
int usage_parse_by(const char *s);                 /* "task", "model", "day"; -1 unknown */
/* The calls at or after since (TIME_NONE: all), of task_id only when not
 * NULL, summed by `by`; days in zone z. */
int usage_collect(struct store *st, int by, int64_t since, const char *task_id,
    const struct tz *z, struct usage *u, struct err *e);
void usage_free(struct usage *u);

#endif
