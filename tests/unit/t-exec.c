/* Unit tests for executors: how a run's length is written in its error
 * text.  exec.c is compiled in, so its static helpers can be checked. */
#include "exec.c"

#include "tap.h"

static void
test_secs(void)
{
	static const struct { int64_t ms; const char *want; } t[] = {
		{1000, "1"}, {1500, "1.5"}, {250, "0.25"}, {600000, "600"},
		{3600000, "3600"}, {86400000, "86400"}, {604800000, "604800"}, {1234567, "1234.567"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char buf[32];
		fmt_secs(buf, sizeof buf, t[i].ms);
		check_str(buf, t[i].want, "%lld ms", (long long)t[i].ms);
	}
}

int
main(void)
{
	test_secs();
	return tap_done();
}
