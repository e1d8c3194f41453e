/* clock-offset.so: a machine whose clock is wrong, for tests.  Preloaded
 * (LD_PRELOAD), it moves CLOCK_REALTIME, time(2) and gettimeofday(2) by
 * CLOCK_OFFSET seconds (may be negative); with CLOCK_SPEED (a whole factor)
 * it also runs that many times as fast from CLOCK_BASE (seconds since the
 * epoch), so processes given the same base agree on the time and a long
 * wait takes a short one; every other clock is left alone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long
env_long(const char *name)
{
	const char *v = getenv(name);
	return v ? strtol(v, NULL, 10) : 0;
}

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	int (*real)(clockid_t, struct timespec *) =
	    (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	int rc = real(id, ts);
	if (rc != 0 || (id != CLOCK_REALTIME && id != CLOCK_REALTIME_COARSE))
		return rc;
	long speed = env_long("CLOCK_SPEED"), base = env_long("CLOCK_BASE");
	if (speed > 1 && base > 0 && ts->tv_sec >= base) {
		/* In milliseconds, enough for a test and far from overflow. */
		long long ms = ((long long)(ts->tv_sec - base) * 1000 + ts->tv_nsec / 1000000) * speed;
		ts->tv_sec = base + (time_t)(ms / 1000);
		ts->tv_nsec = (long)(ms % 1000) * 1000000;
	}
	ts->tv_sec += env_long("CLOCK_OFFSET");
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
