/* bench-sched: the schedule engine's figures for `make bench`.
 *   next:  cron_next on a fixed mix of 20 typical expressions x 4 zones,
 *          each call chained from the previous result (one core);
 *   parse: cron_parse on the same 20 expressions;
 *   when:  when_parse on a mix of time expressions;
 *   worst: the slowest searches found, time per call. */
#include <stdlib.h>
#include <time.h>

#include "cron.h"
#include "tz.h"
#include "when.h"

static const char *const exprs[20] = {
	"* * * * *", "*/5 * * * *", "0 * * * *", "15 * * * *", "0 7 * * *", "30 8 * * 1-5",
	"0 9 * * 1", "0 14 * * 1,2,3", "0 8 15 * *", "0 7 25 12 *", "0 0 1 * *", "0 0 * * 0",
	"*/15 9-17 * * 1-5", "0 */2 * * *", "30 2 * * *", "0 0 29 2 *", "0 0 13 * 5",
	"45 23 * * 6", "0 12 1 1,4,7,10 *", "@daily",
};
static const char *const zones[4] = {"UTC", "America/New_York", "Europe/London",
	"Australia/Lord_Howe"};

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile int64_t sink;

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	struct cron c[20];
	struct tz *z[4];
	struct err e;
	for (int i = 0; i < 20; i++)
		if (cron_parse(exprs[i], &c[i], &e)) {
			fprintf(stderr, "bench-sched: %s\n", e.msg);
			return 1;
		}
	for (int k = 0; k < 4; k++)
		if (tz_load(zones[k], &z[k], &e)) {
			fprintf(stderr, "bench-sched: %s\n", e.msg);
			return 1;
		}
	const int64_t start = 1795357800; /* 2026-11-22T14:30:00Z */

	/* next occurrence */
	long n = 0;
	double t0 = now_s(), t1;
	int64_t t[80];
	for (int i = 0; i < 80; i++)
		t[i] = start;
	do {
		for (int r = 0; r < 50; r++)
			for (int i = 0; i < 80; i++) {
				int64_t x = cron_next(&c[i % 20], z[i / 20], t[i]);
				/* stay within 2026-2036 so the mix keeps its shape */
				t[i] = x > start + 315360000 ? start : x;
			}
		n += 50 * 80;
		t1 = now_s();
	} while (t1 - t0 < secs);
	printf("next-occurrence: %.0f computations/s (20 expressions x 4 zones, one core; target >= 5000000)\n",
	    n / (t1 - t0));

	/* parsing */
	n = 0;
	t0 = now_s();
	do {
		for (int r = 0; r < 100; r++)
			for (int i = 0; i < 20; i++) {
				struct cron x;
				sink += cron_parse(exprs[i], &x, &e) + (int64_t)x.min;
			}
		n += 100 * 20;
		t1 = now_s();
	} while (t1 - t0 < secs);
	printf("cron-parse: %.0f expressions/s (target >= 1000000)\n", n / (t1 - t0));

	/* time expressions */
	static const char *const whens[] = {"in 2 hours", "tomorrow at 10am", "next Friday at noon",
		"August 15th at 3 PM", "2026-12-01T07:00:00Z", "2026-12-01 07:00", "tonight at 8",
		"monday 9:30"};
	n = 0;
	t0 = now_s();
	do {
		for (int r = 0; r < 100; r++)
			for (int i = 0; i < 8; i++) {
				int64_t x;
				sink += when_parse(whens[i], start, z[2], &x, &e) + x;
			}
		n += 100 * 8;
		t1 = now_s();
	} while (t1 - t0 < secs);
	printf("when-parse: %.0f expressions/s\n", n / (t1 - t0));

	/* worst cases: rare expressions searched from many starts */
	static const char *const worst[] = {"0 0 29 2 */7", "0 0 29 2 1", "59 23 31 12 */7",
		"0 0 31 */2 *", "0 0 13 * */5", "30 2 * 3 0", "0 0 29 2 *",
		"* 2 8 3 */7" /* never fires in New York: a 400-year search to say so */};
	for (size_t w = 0; w < sizeof worst / sizeof *worst; w++) {
		struct cron x;
		cron_parse(worst[w], &x, &e);
		int64_t gap = 0, tt = start;
		n = 0;
		t0 = now_s();
		do {
			for (int r = 0; r < 1000; r++) {
				int64_t nx = cron_next(&x, z[1], tt);
				if (nx < 0) {
					gap = -1;
					continue;
				}
				if (nx - tt > gap)
					gap = nx - tt;
				tt = nx > start + 400LL * 31556952 ? start : nx;
			}
			n += 1000;
			t1 = now_s();
		} while (t1 - t0 < secs / 4);
		if (gap < 0)
			printf("worst-case '%s' in America/New_York: %.0f ns/call to find it never fires\n",
			    worst[w], (t1 - t0) / n * 1e9);
		else
			printf("worst-case '%s' in America/New_York: %.0f ns/call, longest gap %.1f years\n",
			    worst[w], (t1 - t0) / n * 1e9, gap / 31556952.0);
	}
	for (int k = 0; k < 4; k++)
		tz_free(z[k]);
	return 0;
}
