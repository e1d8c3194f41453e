/* t-sched-ref: cron_next against a brute-force reference that walks real
 * time minute by minute, reads each minute's wall time with tz_offset and
 * applies cronie's DST rules literally:
 *   - a wildcard job fires at every minute whose wall time matches;
 *   - a fixed-time job fires at a minute whose wall time matches and has not
 *     been seen before (the first pass of a fall-back), and at the first
 *     minute after a spring-forward gap that swallowed a matching wall time.
 * Random expressions (parsed from text, so the parser is exercised too) x 10
 * zones x windows around the DST changes of 2026-2030; cron_next must agree
 * with the walk at every fire and at random instants between them.  The
 * sanitizer build runs a quarter of the cases.
 *
 * Then the schedules built on it: several expressions (cron_list_next
 * against the merged walks of each, every instant once) and intervals
 * (task_next_slot against anchor + k * every counted out, with
 * --not-before and an end), and the stagger of each instant (task_delay). */
#include <stdlib.h>
#include <string.h>

#include "cron.h"
#include "task.h"
#include "tap.h"
#include "tz.h"

static const char *const zones[] = {"America/New_York", "Europe/London",
	"Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kolkata", "Australia/Sydney",
	"America/Santiago", "Europe/Berlin", "UTC", "America/St_Johns"};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}
static int
pick(int n)
{
	return (int)(rnd() % (uint64_t)n);
}

static const char *const mon_names[] = {"jan", "feb", "mar", "apr", "may", "jun", "jul",
	"aug", "sep", "oct", "nov", "dec"};
static const char *const dow_names[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

/* One random field: '*', a step, a value, a range, a list; hot values
 * (the DST hours, the days around them) come up often. */
static void
gen_field(char *out, size_t n, int lo, int hi, const int *hot, int nhot, int names,
    int star_weight)
{
	int r = pick(100);
	int a = nhot && pick(2) ? hot[pick(nhot)] : lo + pick(hi - lo + 1);
	int b = a + pick(hi - a + 1);
	char av[8], bv[8];
	if (names == 1 && pick(3) == 0)
		snprintf(av, sizeof av, "%s", mon_names[a - 1]), snprintf(bv, sizeof bv, "%s", mon_names[b - 1]);
	else if (names == 2 && pick(3) == 0 && b < 7)
		snprintf(av, sizeof av, "%s", dow_names[a % 7]), snprintf(bv, sizeof bv, "%s", dow_names[b]);
	else
		snprintf(av, sizeof av, "%d", a), snprintf(bv, sizeof bv, "%d", b);
	if (r < star_weight)
		snprintf(out, n, "*");
	else if (r < star_weight + 10)
		snprintf(out, n, "*/%d", 1 + pick(hi - lo < 12 ? hi - lo + 1 : 15));
	else if (r < star_weight + 40)
		snprintf(out, n, "%s", av);
	else if (r < star_weight + 55)
		snprintf(out, n, "%s-%s", av, bv);
	else if (r < star_weight + 65)
		snprintf(out, n, "%s-%s/%d", av, bv, 1 + pick(4));
	else {
		int c = lo + pick(hi - lo + 1), d = lo + pick(hi - lo + 1);
		snprintf(out, n, "%s,%d,%d", av, c, d);
	}
}

static void
gen_expr(char *out, size_t n, int rare)
{
	static const int hot_min[] = {0, 15, 30, 45, 59};
	static const int hot_hour[] = {0, 1, 2, 3, 2, 1};
	static const int hot_dom[] = {1, 4, 5, 8, 13, 25, 26, 27, 28, 29, 30, 31};
	char f[5][48];
	gen_field(f[0], sizeof f[0], 0, 59, hot_min, 5, 0, 25);
	gen_field(f[1], sizeof f[1], 0, 23, hot_hour, 6, 0, 25);
	gen_field(f[2], sizeof f[2], 1, 31, hot_dom, 12, 0, rare ? 10 : 60);
	gen_field(f[3], sizeof f[3], 1, 12, NULL, 0, 1, rare ? 20 : 70);
	gen_field(f[4], sizeof f[4], 0, 7, NULL, 0, 2, rare ? 30 : 60);
	snprintf(out, n, "%s %s %s %s %s", f[0], f[1], f[2], f[3], f[4]);
}

static int
matches(const struct cron *c, int64_t local)
{
	int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
	int64_t secs = local - days * 86400;
	int h = (int)(secs / 3600), mi = (int)(secs / 60 % 60);
	if (!(c->min >> mi & 1) || !(c->hour >> h & 1))
		return 0;
	int64_t y;
	unsigned m, d;
	civil_from_days(days, &y, &m, &d);
	if (!(c->mon >> m & 1))
		return 0;
	int dm = c->dom >> d & 1, wm = c->dow >> weekday_from_days(days) & 1;
	return (c->flags & (CRON_DOM_STAR | CRON_DOW_STAR)) ? dm && wm : dm || wm;
}

/* All firing instants in (from, to], walking from two days before. */
static size_t
reference(const struct cron *c, const struct tz *z, int64_t from, int64_t to, int64_t *fires,
    size_t max)
{
	int fixed = !(c->flags & (CRON_MIN_STAR | CRON_HOUR_STAR));
	int64_t t = (from - 2 * 86400) / 60 * 60, maxL = INT64_MIN, prevL = INT64_MIN;
	size_t n = 0;
	for (; t <= to; t += 60) {
		int64_t L = t + tz_offset(z, t);
		int fire = 0;
		if (fixed && prevL != INT64_MIN)
			for (int64_t g = prevL + 60; g < L && !fire; g += 60)
				fire = g > maxL && matches(c, g);
		if (matches(c, L) && (!fixed || L > maxL))
			fire = 1;
		if (L > maxL)
			maxL = L;
		prevL = L;
		if (fire && t > from && n < max)
			fires[n++] = t;
	}
	return n;
}

/* The spring-forward and fall-back instants of zone z in 2026-2030. */
static size_t
transitions(const struct tz *z, int64_t *out, size_t max)
{
	int64_t t = 1767225600; /* 2026-01-01 */
	size_t n = 0;
	while (n < max) {
		struct tz_segment s;
		tz_segment(z, t, &s);
		if (s.end == INT64_MAX || s.end >= 1924992000) /* 2031-01-01 */
			break;
		out[n++] = s.end;
		t = s.end;
	}
	return n;
}

static int
compare(const char *expr, const char *zone, const struct cron *c, const struct tz *z,
    int64_t from, int64_t to, int points)
{
	static int64_t fires[20000];
	size_t n = reference(c, z, from, to, fires, sizeof fires / sizeof *fires);
	if (n == sizeof fires / sizeof *fires)
		to = fires[n - 1]; /* full: compare up to the last one kept */
	/* every fire from the one before it, and random instants in between */
	int64_t prev = from;
	for (size_t i = 0; i <= n; i++) {
		int64_t want = i < n ? fires[i] : -1;
		int64_t got = cron_next(c, z, prev);
		if (i == n ? (got != -1 && got <= to) : got != want) {
			printf("# '%s' in %s after %lld: cron_next %lld, reference %lld%s\n", expr, zone,
			    (long long)prev, (long long)got, (long long)want, i == n ? " (none in window)" : "");
			return 0;
		}
		if (i == n)
			break;
		prev = fires[i];
	}
	for (int k = 0; k < points; k++) {
		int64_t t = from + (int64_t)(rnd() % (uint64_t)(to - from));
		if (pick(4) == 0)
			t -= t % 60; /* on a minute, where "strictly after" matters */
		size_t lo = 0, hi = n;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (fires[mid] <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		int64_t got = cron_next(c, z, t);
		if (lo < n ? got != fires[lo] : (got != -1 && got <= to)) {
			printf("# '%s' in %s after %lld: cron_next %lld, reference %lld\n", expr, zone,
			    (long long)t, (long long)got, lo < n ? (long long)fires[lo] : -1LL);
			return 0;
		}
	}
	return 1;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* One more random expression (again the list's first, if again) at the end
 * of the list text, "A; B; ..."; *c is it, parsed. */
static void
list_add(char *text, size_t size, struct cron *c, int again)
{
	char expr[320];
	struct err e;
	do
		gen_expr(expr, sizeof expr, 0);
	while (cron_parse(expr, c, &e) != ST_OK);
	if (again && *text) {
		snprintf(expr, sizeof expr, "%.*s", (int)strcspn(text, ";"), text);
		cron_parse(expr, c, &e);
	}
	snprintf(text + strlen(text), size - strlen(text), "%s%s", *text ? "; " : "", expr);
}

/* Two to four random expressions as one list, against the merged walks. */
static int
compare_union(const char *zone, const struct tz *z, int64_t from, int64_t to)
{
	static int64_t all[4 * 20000];
	char text[4 * 330] = "";
	struct cron c;
	struct err e;
	size_t n = 0;
	int k = 2 + pick(3);
	for (int i = 0; i < k; i++) {
		/* the same expression twice now and then: its instants once */
		list_add(text, sizeof text, &c, i && pick(6) == 0);
		n += reference(&c, z, from, to, all + n, 20000);
	}
	qsort(all, n, sizeof *all, cmp64);
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (!w || all[i] != all[w - 1])
			all[w++] = all[i];
	struct cron_list l;
	if (cron_list_parse(text, &l, &e) != ST_OK) {
		printf("# '%s': %s\n", text, e.msg);
		return 0;
	}
	int64_t prev = from;
	for (size_t i = 0; i <= w; i++) {
		int64_t got = cron_list_next(&l, z, prev);
		if (i == w ? got != -1 && got <= to : got != all[i]) {
			printf("# '%s' in %s after %lld: cron_list_next %lld, reference %lld\n", text, zone,
			    (long long)prev, (long long)got, i < w ? (long long)all[i] : -1LL);
			return 0;
		}
		if (i < w)
			prev = all[i];
	}
	return 1;
}

/* A random interval, anchor, start and end: task_next_slot at random
 * instants against the instants counted out one by one. */
static int
compare_every(const char *zone)
{
	struct task t;
	struct err e;
	task_init(&t);
	t.kind = KIND_EVERY;
	t.tz = xstrdup(zone);
	static const int lens[] = {60, 90 * 60, 3600, 86400, 7 * 86400, 2 * 3600 + 30 * 60};
	t.every = pick(2) ? lens[pick(6)] : 60 + pick(3 * 86400);
	t.anchor = 1767225600 + (int64_t)(rnd() % 157766400);
	if (pick(3) == 0)
		t.not_before = t.anchor + (int64_t)(rnd() % (uint64_t)(30 * (int64_t)t.every)) -
		    10 * t.every;
	if (pick(3) == 0)
		t.ends_at = t.anchor + (int64_t)(rnd() % (uint64_t)(40 * (int64_t)t.every));
	int ok = 1;
	for (int k = 0; k < 50 && ok; k++) {
		int64_t after = t.anchor + (int64_t)(rnd() % (uint64_t)(60 * (int64_t)t.every)) -
		    20 * t.every, want = TIME_NONE, got;
		if (pick(4) == 0)
			after = t.anchor + (int64_t)pick(40) * t.every - pick(2); /* on an instant */
		for (int64_t s = t.anchor; want == TIME_NONE; s += t.every) {
			if (t.ends_at != TIME_NONE && s > t.ends_at)
				break;
			if (s > after && (t.not_before == TIME_NONE || s >= t.not_before))
				want = s;
		}
		ok = task_next_slot(&t, NULL, after, &got, &e) == ST_OK && got == want;
		if (!ok)
			printf("# every %d from %lld (not before %lld, ends %lld) in %s after %lld: %lld, "
			    "reference %lld\n", t.every, (long long)t.anchor, (long long)t.not_before,
			    (long long)t.ends_at, zone, (long long)after, (long long)got, (long long)want);
	}
	task_free(&t);
	return ok;
}

/* The stagger of a random list (fixed-time and wildcard expressions) for
 * a random id and window: at each instant of the list the delay is one
 * offset under the window where a fixed-time expression names the instant
 * (by its own walk), and 0 where only wildcard ones do. */
static int
compare_stagger(const char *zone, const struct tz *z, int64_t from, int64_t to)
{
	static int64_t fixed[4 * 20000];
	char text[4 * 330] = "";
	struct cron c;
	struct err e;
	size_t nf = 0;
	int k = 1 + pick(3);
	for (int i = 0; i < k; i++) {
		list_add(text, sizeof text, &c, 0);
		if (!(c.flags & (CRON_MIN_STAR | CRON_HOUR_STAR)))
			nf += reference(&c, z, from, to, fixed + nf, 20000);
	}
	qsort(fixed, nf, sizeof *fixed, cmp64);
	struct task t;
	task_init(&t);
	t.kind = KIND_CRON;
	t.cron = xstrdup(text);
	t.tz = xstrdup(zone);
	snprintf(t.id, sizeof t.id, "%08llx-0000-4000-8000-%012llx", (unsigned long long)(rnd() >> 32),
	    (unsigned long long)(rnd() >> 16));
	struct zones *zs = zones_new();
	int window = 1 + pick(3600), ok = 1;
	int64_t offset = -1, s = from, d;
	zones_set_stagger(zs, window);
	while (ok && task_next_slot(&t, zs, s, &s, &e) == ST_OK && s != TIME_NONE && s <= to) {
		d = task_delay(&t, zs, s);
		if (bsearch(&s, fixed, nf, sizeof *fixed, cmp64)) {
			if (offset < 0)
				offset = d;
			ok = d == offset && d >= 0 && d < window;
		} else {
			ok = d == 0;
		}
		if (!ok)
			printf("# '%s' in %s at %lld, window %d: delay %lld (offset %lld)\n", text, zone,
			    (long long)s, window, (long long)d, (long long)offset);
	}
	zones_free(zs);
	task_free(&t);
	return ok;
}

static void
test_built_on(int per_zone)
{
	for (size_t zi = 0; zi < sizeof zones / sizeof *zones; zi++) {
		struct tz *z;
		struct err e;
		if (tz_load(zones[zi], &z, &e)) {
			check(0, "%s", e.msg);
			continue;
		}
		int64_t tr[64];
		size_t ntr = transitions(z, tr, 64);
		int ok = 1, k;
		for (k = 0; k < per_zone / 8 && ok; k++) {
			int64_t mid = ntr ? tr[pick((int)ntr)] : 1767225600 + (int64_t)(rnd() % 157766400);
			int64_t from = mid - 3 * 86400 - (int64_t)(rnd() % 86400);
			ok = compare_union(zones[zi], z, from, from + 7 * 86400);
		}
		check(ok, "%s: cron_list_next is the union of the walks, each instant once, on %d lists",
		    zones[zi], k);
		for (k = 0, ok = 1; k < per_zone / 4 && ok; k++)
			ok = compare_every(zones[zi]);
		check(ok, "%s: an interval's next slot is anchor + k * every, in its start and end, on "
		    "%d intervals", zones[zi], k);
		for (k = 0, ok = 1; k < per_zone / 20 && ok; k++) {
			int64_t mid = ntr ? tr[pick((int)ntr)] : 1767225600 + (int64_t)(rnd() % 157766400);
			ok = compare_stagger(zones[zi], z, mid - 2 * 86400, mid + 2 * 86400);
		}
		check(ok, "%s: the stagger is one offset under the window at fixed-time instants, none "
		    "at wildcard ones, on %d lists", zones[zi], k);
		tz_free(z);
	}
}

int
main(int argc, char **argv)
{
	int per_zone = argc > 1 ? atoi(argv[1]) : 400, long_cases = 3;
	if (argc > 2)
		rng = strtoull(argv[2], NULL, 0) | 1;
#ifdef __SANITIZE_ADDRESS__
	per_zone /= 4;
	long_cases = 1;
#endif
	long total = 0, cases = 0;
	for (size_t zi = 0; zi < sizeof zones / sizeof *zones; zi++) {
		struct tz *z;
		struct err e;
		if (tz_load(zones[zi], &z, &e)) {
			check(0, "%s", e.msg);
			continue;
		}
		int64_t tr[64];
		size_t ntr = transitions(z, tr, 64);
		int ok = 1, tried = 0;
		for (int k = 0; k < per_zone && ok; k++) {
			char expr[320];
			struct cron c;
			gen_expr(expr, sizeof expr, 0);
			if (cron_parse(expr, &c, &e) != ST_OK)
				continue;
			/* a week around a DST change (or a random week for zones without) */
			int64_t mid = ntr ? tr[pick((int)ntr)] : 1767225600 + (int64_t)(rnd() % 157766400);
			int64_t from = mid - 3 * 86400 - (int64_t)(rnd() % 86400);
			ok = compare(expr, zones[zi], &c, z, from, from + 7 * 86400, 30);
			tried++;
		}
		/* rarer expressions over a longer window */
		for (int k = 0; k < per_zone / 20 && ok; k++) {
			char expr[320];
			struct cron c;
			gen_expr(expr, sizeof expr, 1);
			if (cron_parse(expr, &c, &e) != ST_OK)
				continue;
			int64_t from = 1767225600 + (int64_t)(rnd() % 126230400);
			ok = compare(expr, zones[zi], &c, z, from, from + 60 * 86400, 40);
			tried++;
		}
		/* a few over two whole years */
		static const char *const long_exprs[] = {"0 0 29 2 *", "30 2 * 3,10 0", "0 0 31 * *",
			"0 12 13 * 5", "45 1 1-7 4,10 sun", "*/20 2 * * 0", "0 0 29 2 */7", "0 3 * * *"};
		for (int k = 0; k < long_cases && ok; k++) {
			const char *expr = long_exprs[pick(8)];
			struct cron c;
			cron_parse(expr, &c, &e);
			ok = compare(expr, zones[zi], &c, z, 1767225600, 1767225600 + 731 * 86400, 200);
			tried++;
		}
		check(ok, "%s: cron_next agrees with the minute-by-minute walk on %d expressions",
		    zones[zi], tried);
		total += tried;
		cases++;
		tz_free(z);
	}
	printf("# %ld expressions in %ld zones\n", total, cases);
	test_built_on(per_zone);
	return tap_done();
}
