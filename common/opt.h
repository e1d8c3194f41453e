/* opt.h: command-line options as every program reads them.  getopt_long
 * with its own complaints off, and the one line for an option it refuses,
 * naming the option as it was written (also inside a cluster of short
 * flags, -jx); and the values of options, every bad one said the same way:
 * "bad --limit 'x': expected a number from 1 to 100000". */
#ifndef AC_OPT_H
#define AC_OPT_H

#include <stddef.h>

#include "util.h"

struct option;

/* opt.c */
/* getopt_long (shortopts starting with ':'), but an option it refuses
 * returns '?' with msg (n bytes) saying why: "unknown option '-x'",
 * "option '--limit' needs a value", "option '--json' takes no value",
 * "option '--st' is ambiguous". */
int opt_next(int argc, char **argv, const char *shortopts, const struct option *longopts,
    char *msg, size_t n);
/* "bad OPT 'VALUE': expected ..." in e; returns ST_INVALID. */
int opt_bad(struct err *e, const char *opt, const char *value, const char *expected, ...)
	__attribute__((format(printf, 4, 5)));
/* A whole number from min to max (LONG_MAX: no bound); unit names what it
 * counts ("runs": "expected a number of runs from 1 to 100000"), or NULL.
 * For an option (opt "-n", "--limit") only digits and a '-'; for a
 * configuration key (opt "retries") what strtol reads, as it always was.
 * opt_seconds likewise: decimal for an option, what strtod reads for a key. */
int opt_number(const char *opt, const char *value, const char *unit, long min, long max,
    long *out, struct err *e);
/* Seconds, fractions allowed: above 0, at most max. */
int opt_seconds(const char *opt, const char *value, double max, double *out, struct err *e);

#endif
