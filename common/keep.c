/* A keep (keep.h): how much of its history a task keeps, as written
 * and read.  Apart from history.c so that the task codec does not pull the
 * store into programs without one. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keep.h"

const struct keep_unit keep_units[] = {{'w', 7 * 86400, "week"}, {'d', 86400, "day"},
	{'h', 3600, "hour"}, {'m', 60, "minute"}, {'s', 1, "second"}, {0, 0, NULL}};

int
keep_parse(const char *s, struct keep *k, struct err *e)
{
	memset(k, 0, sizeof *k);
	if (strcmp(s, "forever") == 0) {
		k->forever = 1;
		return ST_OK;
	}
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || errno || v <= 0 || *s == '+' || *s == ' ')
		goto bad;
	if (!*end) {
		if (v < HISTORY_MIN_RUNS)
			return err_set(e, ST_INVALID, "at least %d runs (the newest %d are always kept)",
			    HISTORY_MIN_RUNS, HISTORY_MIN_RUNS);
		k->runs = v;
		return ST_OK;
	}
	for (size_t i = 0; i < KEEP_UNITS; i++) {
		if (end[0] == keep_units[i].unit && !end[1] && v <= INT64_MAX / keep_units[i].secs / 2) {
			k->secs = v * keep_units[i].secs;
			return ST_OK;
		}
	}
bad:
	return err_set(e, ST_INVALID, "a duration like 90d, 12h or 2w, a number of runs (%d or"
	    " more), or forever", HISTORY_MIN_RUNS);
}

void
keep_fmt(const struct keep *k, char *buf, size_t n)
{
	if (k->forever) {
		snprintf(buf, n, "forever");
		return;
	}
	if (k->runs) {
		snprintf(buf, n, "%ld", k->runs);
		return;
	}
	size_t i = 0;
	while (i + 1 < KEEP_UNITS && k->secs % keep_units[i].secs)
		i++;
	snprintf(buf, n, "%lld%c", (long long)(k->secs / keep_units[i].secs), keep_units[i].unit);
}

