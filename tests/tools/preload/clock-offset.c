/* clock-offset.so: a machine whose clock is wrong, for tests.  Preloaded
 * (LD_PRELOAD), it moves CLOCK_REALTIME, time(2) and gettimeofday(2) by
 * CLOCK_OFFSET seconds (may be negative); every other clock is left alone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long
offset(void)
{
	const char *v = getenv("CLOCK_OFFSET");
	return v ? strtol(v, NULL, 10) : 0;
}

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	int (*real)(clockid_t, struct timespec *) =
	    (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	int rc = real(id, ts);
	if (rc == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE))
		ts->tv_sec += offset();
	return rc;
}

time_t
time(time_t *t)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}

int
gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	struct timespec ts;
	int rc = clock_gettime(CLOCK_REALTIME, &ts);
	if (rc == 0) {
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = ts.tv_nsec / 1000;
	}
	return rc;
}
