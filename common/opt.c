/* Command-line options: getopt_long's refusals and option values (opt.h). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* The long option the word "--name[=value]" names: *matches counts the
 * options it is a prefix of (getopt_long takes unambiguous prefixes). */
static const struct option *
long_match(const struct option *longopts, const char *name, size_t len, int *matches)
{
	const struct option *found = NULL;
	*matches = 0;
	for (const struct option *o = longopts; o && o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len) {
			*matches = 1;
			return o;
		}
		found = o;
		(*matches)++;
	}
	return found;
}

int
opt_next(int argc, char **argv, const char *shortopts, const struct option *longopts,
    char *msg, size_t n)
{
	/* getopt_long goes on inside a cluster of short flags at optind, or
	 * takes the next word that is an option at or after it: that word
	 * stays where it is while getopt_long moves the words before it. */
	int at = optind > 0 ? optind : 1;
	opterr = 0;
	int c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	while (at < argc && (argv[at][0] != '-' || argv[at][1] == 0))
		at++;
	const char *w = at < argc ? argv[at] : "";
	if (strncmp(w, "--", 2) != 0) {
		snprintf(msg, n, c == ':' ? "option '-%c' needs a value" : "unknown option '-%c'", optopt);
		return '?';
	}
	size_t len = strcspn(w + 2, "=");
	int matches;
	const struct option *o = long_match(longopts, w + 2, len, &matches);
	if (c == ':')
		snprintf(msg, n, "option '--%.*s' needs a value", (int)len, w + 2);
	else if (matches > 1)
		snprintf(msg, n, "option '--%.*s' is ambiguous", (int)len, w + 2);
	else if (o && w[2 + len] == '=' && o->has_arg == no_argument)
		snprintf(msg, n, "option '--%s' takes no value", o->name);
	else
		snprintf(msg, n, "unknown option '--%.*s'", (int)len, w + 2);
	return '?';
}

int
opt_bad(struct err *e, const char *opt, const char *value, const char *expected, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, expected);
	vsnprintf(what, sizeof what, expected, ap);
	va_end(ap);
	return err_set(e, ST_INVALID, "bad %s '%s': expected %s", opt, value, what);
}

/* Digits, after at most a '-'. */
static int
plain_number(const char *s)
{
	s += *s == '-';
	return isdigit((unsigned char)*s);
}

/* An option (its name starts with '-') is checked as a person types it; a
 * configuration key is read as older versions read it (strtol's blanks and
 * '+', strtod's 1e3 and 0x10), so a file that loaded goes on loading. */
static int
typed(const char *opt)
{
	return *opt == '-';
}

int
opt_number(const char *opt, const char *value, const char *unit, long min, long max,
    long *out, struct err *e)
{
	char *end;
	errno = 0;
	long v = strtol(value, &end, 10);
	/* strtol's leading blanks and '+' are no number a person wrote. */
	if (end == value || *end || errno || v < min || v > max ||
	    (typed(opt) && !plain_number(value))) {
		if (max == LONG_MAX)
			return opt_bad(e, opt, value, "a number%s%s, %ld or more", unit ? " of " : "",
			    unit ? unit : "", min);
		return opt_bad(e, opt, value, "a number%s%s from %ld to %ld", unit ? " of " : "",
		    unit ? unit : "", min, max);
	}
	*out = v;
	return ST_OK;
}

int
opt_seconds(const char *opt, const char *value, double max, double *out, struct err *e)
{
	char *end;
	errno = 0;
	double v = strtod(value, &end);
	/* Decimal only: strtod also reads 0x10, 1e3, inf and leading blanks. */
	if (end == value || *end || errno || !(v > 0) || v > max ||
	    (typed(opt) && value[strspn(value, "0123456789.")]))
		return opt_bad(e, opt, value, "a number of seconds above 0, at most %g", max);
	*out = v;
	return ST_OK;
}
