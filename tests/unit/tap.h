/* tap.h: table-driven C unit tests that print TAP, after git's
 * t/unit-tests: check_int(), check_str(), and tap_done() for the plan. */
#ifndef AC_TAP_H
#define AC_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3))) static int
tap_ok(int ok, const char *fmt, ...)
{
	va_list ap;
	printf("%s %d - ", ok ? "ok" : "not ok", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		tap_failed++;
	return ok;
}

#define check(cond, ...) tap_ok(!!(cond), __VA_ARGS__)
#define check_int(got, want, ...)                                                  \
	do {                                                                       \
		long long g_ = (long long)(got), w_ = (long long)(want);           \
		if (!tap_ok(g_ == w_, __VA_ARGS__))                                \
			printf("#   got %lld, want %lld\n", g_, w_);               \
	} while (0)
#define check_str(got, want, ...)                                                  \
	do {                                                                       \
		const char *g_ = (got), *w_ = (want);                              \
		if (!tap_ok(g_ && w_ && strcmp(g_, w_) == 0, __VA_ARGS__))         \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)",    \
			    w_ ? w_ : "(null)");                                   \
	} while (0)

/* s is one line of valid UTF-8 without control characters (a message). */
__attribute__((unused)) static int
tap_clean_line(const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);
		if (k == 0 || cp < 0x20 || cp == 0x7f)
			return 0;
		i += k;
	}
	return n > 0;
}

static int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
