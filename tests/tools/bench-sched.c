/* bench-sched: the schedule engine's figures for `make bench`.
 *   next:  cron_next on a fixed mix of 20 typical expressions x 4 zones,
 *          each call chained from the previous result (one core);
 *   parse: cron_parse on the same 20 expressions;
 *   when:  when_parse on a mix of time expressions, and the slowest
 *          expression among the table's (argv[2]) and crafted ones;
 *   worst: the slowest searches found, time per call. */
#include <stdlib.h>
#include <string.h>
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

static const int64_t start = 1795357800; /* 2026-11-22T14:30:00Z */

/* next occurrence */
static void
bench_next(double secs, const struct cron *c, struct tz *const *z)
{
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
}

/* parsing */
static void
bench_parse(double secs)
{
	struct err e;
	long n = 0;
	double t0 = now_s(), t1;
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
}

/* time expressions: what people and agents write, old forms and new,
 * named zones (a zone file read per call) at about 1 in 25 */
static void
bench_when(double secs, struct tz *z)
{
	static const char *const whens[] = {"in 2 hours", "tomorrow at 10am",
		"next Friday at noon", "August 15th at 3 PM", "2026-12-01T07:00:00Z",
		"2026-12-01 07:00", "tonight at 8", "monday 9:30", "tomorrow at 14:00 UTC",
		"9am EST", "5pm CET", "3/4 at 5pm", "25/03/2027", "2027/03/04 08:00", "10.30pm",
		"half past 3", "quarter to 5", "6 in the morning", "at 4", "friday at 3",
		"in fifteen minutes", "in a couple of hours", "+2h", "2 hours", "within an hour",
		"tmrw 9am", "monday next week", "a week from friday", "this weekend at 10am",
		"Tuesday, December 1 at 9am", "in 30 minutes", "tomorrow morning",
		"next week at 10am", "Dec 25 at 7am", "in 3 days at 14:00", "noon UTC+1",
		"9am Europe/Paris", "friday at 5pm ET", "tomorrow at midnight", "2 days after tomorrow",
		"in twenty-five minutes", "at 9.15", "11 at night", "12/25 at 7am", "sunday at 6pm",
		"in an hour and a half", "next quarter", "2026-11-23T07:00:00+01:00",
		"in 1.5 hours"};
	const int nw = (int)(sizeof whens / sizeof *whens);
	struct err e;
	double rate = 0, t0, t1;
	for (int k = 0; k < 5; k++) { /* the best of five: other work on the machine only slows */
		long n = 0;
		t0 = now_s();
		do {
			for (int r = 0; r < 20; r++)
				for (int i = 0; i < nw; i++) {
					int64_t x;
					sink += when_parse(whens[i], start, z, &x, &e) + x;
				}
			n += 20 * nw;
			t1 = now_s();
		} while (t1 - t0 < secs / 5);
		if (n / (t1 - t0) > rate)
			rate = n / (t1 - t0);
	}
	printf("when-parse: %.0f expressions/s (%d expressions, one naming an IANA zone, best of 5; "
	    "target >= 1000000)\n", rate, nw);
}

/* the slowest time expression found: each of the table's rows (table)
 * and some crafted ones, its best of 5 timings of 20 calls */
static void
bench_when_worst(const char *table, struct tz *z)
{
	static const char *const crafted[] = {"9am america/new_york", "9am europe/pariss",
		"tomorrow at 9am Australia/Sydney", "9am America/Argentina/Buenos_Aires",
		"wensdayyy at 5", "thurzday", "feb 29 at 23:59:59", "the 31st at 23:59",
		"1h1m1s1h1m1s1h1m1s1h1m1s1h1m1s1h1m1s1h1m1s1h1m1s1h1m1s1h1m1s1h1m1s",
		"in 1 hour 1 minute 1 second 1 hour 1 minute 1 second 1 hour 1 minute 1 second 1 "
		"hour 1 minute 1 second 1 hour 1 minute 1 second 1 hour 1 minute 1 second",
		"2027-03-28 01:30", "9999-12-31T23:59:59Z", "in 7973 years"};
	struct err e;
	char worst_text[256] = "";
	double worst_ns = 0;
	FILE *tf = table ? fopen(table, "r") : NULL;
	char line[1024];
	size_t ci = 0;
	for (;;) {
		const char *w;
		if (tf && fgets(line, sizeof line, tf)) {
			line[strcspn(line, "\n")] = 0;
			if (!line[0] || line[0] == '#' || line[0] == '@' || strstr(line, "\\"))
				continue;
			w = line + (line[0] == '!');
			line[strcspn(line, "\t")] = 0;
		} else if (ci < sizeof crafted / sizeof *crafted) {
			w = crafted[ci++];
		} else {
			break;
		}
		double best = 1e18;
		for (int k = 0; k < 5; k++) {
			double a = now_s();
			for (int r = 0; r < 20; r++) {
				int64_t x;
				sink += when_parse(w, start, z, &x, &e);
			}
			double ns = (now_s() - a) / 20 * 1e9;
			if (ns < best)
				best = ns;
		}
		if (best > worst_ns) {
			worst_ns = best;
			snprintf(worst_text, sizeof worst_text, "%s", w);
		}
	}
	if (tf)
		fclose(tf);
	printf("when-worst: '%s' %.1f us/call (the slowest expression found; target < 50)\n",
	    worst_text, worst_ns / 1e3);
}

/* worst cases: rare expressions searched from many starts */
static void
bench_worst(double secs, struct tz *z)
{
	static const char *const worst[] = {"0 0 29 2 */7", "0 0 29 2 1", "59 23 31 12 */7",
		"0 0 31 */2 *", "0 0 13 * */5", "30 2 * 3 0", "0 0 29 2 *",
		"* 2 8 3 */7" /* never fires in New York: a 400-year search to say so */};
	struct err e;
	for (size_t w = 0; w < sizeof worst / sizeof *worst; w++) {
		struct cron x;
		cron_parse(worst[w], &x, &e);
		int64_t gap = 0, tt = start;
		long n = 0;
		double t0 = now_s(), t1;
		do {
			for (int r = 0; r < 1000; r++) {
				int64_t nx = cron_next(&x, z, tt);
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
}

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
	bench_next(secs, c, z);
	bench_parse(secs);
	bench_when(secs, z[2]);
	bench_when_worst(argc > 2 ? argv[2] : NULL, z[2]);
	bench_worst(secs, z[1]);
	for (int k = 0; k < 4; k++)
		tz_free(z[k]);
	return 0;
}
