/* The forecast's arithmetic against figures worked out by hand: a prompt's
 * tokens, a month's runs of a few schedules (counted on a calendar), the
 * dollars at a price, and the busiest window of each kind of budget. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forecast.h"
#include "tap.h"
#include "task.h"
#include "tz.h"

#define NOV30 1795996800  /* 2026-11-30T00:00:00Z, a Monday */
#define MONTH (30 * 86400)

static void
test_prompt_tokens(void)
{
	static const struct { const char *prompt, *system; long want; } cases[] = {
		{"", NULL, 0},
		{"abcd", NULL, 1},
		{"abcde", NULL, 2},          /* 5 bytes: a token started counts */
		{"abcde", "xyz", 2},         /* 8 bytes with the system prompt */
		{"abcdefghi", "", 3},
		{"\xc3\xa9t\xc3\xa9", NULL, 2}, /* "été": 5 bytes, not 3 characters */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_int(forecast_prompt_tokens(cases[i].prompt, cases[i].system), cases[i].want,
		    "prompt tokens of '%s' + '%s'", cases[i].prompt,
		    cases[i].system ? cases[i].system : "(none)");
}

static int
by_at(const void *a, const void *b)
{
	const struct forecast_fire *x = a, *y = b;
	return (x->at > y->at) - (x->at < y->at);
}

/* Micro-dollars, whole: what the budgets compare. */
static long long
micro(double d)
{
	return llround(d * 1e6);
}

static void
test_price(void)
{
	struct forecast f = {.runs = 22, .in_tokens = 1000, .out_tokens = 500, .priced = 1,
	    .price_in = 0.15, .price_out = 0.60};
	forecast_price(&f);
	/* 1000 x 0.15 + 500 x 0.60 = 450 dollars a million runs' worth: $0.00045 a run. */
	check_int(micro(f.run_dollars), 450, "a run at $0.15/$0.60: $0.00045");
	check_int(micro(f.dollars), 9900, "22 runs: $0.0099");
	check_int(llround(f.tokens), 33000, "22 runs of 1500 tokens");
	f.priced = 0;
	forecast_price(&f);
	check_int(micro(f.dollars), 0, "no price: no dollars");
	check_int(llround(f.tokens), 33000, "no price: the tokens still");
}

/* A cron task armed at NOV30, next_run_at moved to `next` unless TIME_NONE. */
static void
cron_task(struct task *t, const char *expr, const char *zone, struct zones *zs)
{
	struct err e;
	task_init(t);
	t->kind = KIND_CRON;
	t->cron = xstrdup(expr);
	t->name = xstrdup("t");
	t->prompt = xstrdup("p");
	t->tz = xstrdup(zone);
	snprintf(t->id, sizeof t->id, "00000000-0000-4000-8000-000000000001");
	if (task_finalize(t, 1, 1, NOV30, zs, &e))
		printf("# %s\n", e.msg);
}

static void
test_dues(void)
{
	static const struct { const char *cron, *zone; int64_t next; long want; const char *why; } cases[] = {
		/* Nov 30 - Dec 4, 7-11, 14-18, 21-25, 28-29. */
		{"0 9 * * 1-5", "UTC", TIME_NONE, 22, "weekdays at 09:00: 22 in 30 days"},
		/* 48 a day for 30 days, less 00:00 on the first, which is not after now. */
		{"*/30 * * * *", "UTC", TIME_NONE, 1439, "every half hour: 1439"},
		{"0 9 * * *", "UTC", TIME_NONE, 30, "daily: 30"},
		/* Due an hour ago: once at now, then its 30 days. */
		{"0 9 * * *", "UTC", NOV30 - 3600, 31, "daily, one due already: 31"},
		/* 09:00 in New York is 14:00Z: Dec 29's is still inside. */
		{"0 9 * * *", "America/New_York", TIME_NONE, 30, "daily in New York: 30"},
		{"0 9 1 * *", "UTC", TIME_NONE, 1, "the first of the month: 1 (Dec 1)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct zones *zs = zones_new();
		struct task t;
		struct err e;
		int64_t *dues;
		size_t n = 0;
		cron_task(&t, cases[i].cron, cases[i].zone, zs);
		if (cases[i].next != TIME_NONE)
			t.next_run_at = cases[i].next;
		check_int(forecast_dues(&t, zs, NOV30, MONTH, &dues, &n, &e), ST_OK, "%s: read", cases[i].why);
		check_int((long)n, cases[i].want, "%s", cases[i].why);
		free(dues);
		task_free(&t);
		zones_free(zs);
	}
	struct zones *zs = zones_new();
	struct task t;
	struct err e;
	int64_t *dues;
	size_t n = 1;
	cron_task(&t, "0 9 * * *", "UTC", zs);
	t.enabled = 0;
	check_int(forecast_dues(&t, zs, NOV30, MONTH, &dues, &n, &e), ST_OK, "disabled: read");
	check_int((long)n, 0, "a disabled task fires no more");
	t.enabled = 1;
	t.kind = KIND_MANUAL;
	check_int(forecast_dues(&t, zs, NOV30, MONTH, &dues, &n, &e), ST_OK, "manual: read");
	check_int((long)n, 0, "a manual task fires on no schedule");
	check(dues == NULL, "manual: no list");
	task_free(&t);
	zones_free(zs);
}

static void
test_budgets(void)
{
	static const struct {
		const char *budget, *zone;
		int priced;
		long runs;              /* in the busiest window */
		long long worst;        /* micro-dollars, or tokens */
		const char *from;
		int over;
		const char *why;
	} cases[] = {
		{"$0.0004/day", "UTC", 1, 1, 450, "2026-11-30 00:00", 1, "a day of one run, over"},
		{"$0.00045/day", "UTC", 1, 1, 450, "2026-11-30 00:00", 1, "reached is over"},
		{"$0.0005/day", "UTC", 1, 1, 450, "2026-11-30 00:00", 0, "a day within"},
		{"$0.002/week", "UTC", 1, 5, 2250, "2026-11-30 00:00", 1, "a week of five, over"},
		{"$0.01/month", "UTC", 1, 21, 9450, "2026-12-01 00:00", 0, "December's 21 runs, within"},
		{"30000/month", "UTC", 0, 21, 31500, "2026-12-01 00:00", 1, "21 runs of 1500 tokens, over"},
		{"$0.0001/day", "UTC", 0, 1, 0, "2026-11-30 00:00", 0, "no price: a dollar budget unknown"},
		/* 09:00Z is 10:00 in Berlin; the day from Berlin's midnight. */
		{"$0.0004/day", "Europe/Berlin", 1, 1, 450, "2026-11-30 00:00", 1, "in Berlin's days"},
		/* Monday 09:00Z is Monday 04:00 in New York: its weeks hold five too. */
		{"$0.003/week", "America/New_York", 1, 5, 2250, "2026-11-30 00:00", 0, "New York's weeks"},
	};
	struct zones *zs = zones_new();
	struct task t;
	struct err e;
	int64_t *dues;
	size_t n;
	cron_task(&t, "0 9 * * 1-5", "UTC", zs);
	if (forecast_dues(&t, zs, NOV30, MONTH, &dues, &n, &e))
		n = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct forecast f = {.runs = (long)n, .in_tokens = 1000, .out_tokens = 500,
		    .priced = cases[i].priced, .price_in = 0.15, .price_out = 0.60};
		forecast_price(&f);
		struct forecast_budget fb = {0};
		const struct tz *z;
		if (budget_parse(cases[i].budget, &fb.b, &e) || zones_get(zs, cases[i].zone, &z, &e)) {
			check(0, "%s: %s", cases[i].why, e.msg);
			continue;
		}
		forecast_budget_check(&f, dues, n, z, &fb);
		check_int(fb.worst_runs, cases[i].runs, "%s: runs in the busiest window", cases[i].why);
		check_int(fb.b.dollars ? micro(fb.worst) : llround(fb.worst), cases[i].worst, "%s: its spend",
		    cases[i].why);
		check_str(fb.worst_from, cases[i].from, "%s: its start", cases[i].why);
		check_int(fb.over, cases[i].over, "%s: over", cases[i].why);
	}
	free(dues);
	task_free(&t);
	zones_free(zs);
}

/* The global budget: several tasks' runs, each at its own cost, against
 * one budget.  The task's own runs (weekdays at 09:00, $0.00045 each) with
 * another's: every day at 12:00 at $0.001, and a follower's run after each
 * of those (same instant) at $0.0002, all counted by hand. */
static void
test_weigh(void)
{
	static const struct {
		const char *budget;
		int others;             /* 0: the task alone, 1: with the daily task, 2: and its follower */
		long runs;
		long long worst, own;   /* micro-dollars, or tokens */
		const char *from;
		int over;
		const char *why;
	} cases[] = {
		{"$0.002/day", 0, 1, 450, 450, "2026-11-30 00:00", 0, "alone, a day of one run within"},
		/* 450 + 1000 = 1450 on a weekday. */
		{"$0.0014/day", 1, 2, 1450, 450, "2026-11-30 00:00", 1, "with the daily task, over"},
		{"$0.0015/day", 1, 2, 1450, 450, "2026-11-30 00:00", 0, "with the daily task, within"},
		/* And 200 for the follower: 1650. */
		{"$0.0015/day", 2, 3, 1650, 450, "2026-11-30 00:00", 1, "and the follower's run, over"},
		/* Weeks: 5 x 450 + 7 x 1000 + 7 x 200 = 10650 in Nov 30 - Dec 6. */
		{"$0.01/week", 2, 19, 10650, 2250, "2026-11-30 00:00", 1, "a week of all three, over"},
		/* Tokens: 1500 a run of the task, 2000 of the daily, 100 of the follower. */
		{"4000/day", 2, 3, 3600, 1500, "2026-11-30 00:00", 0, "tokens, within"},
		{"3600/day", 2, 3, 3600, 1500, "2026-11-30 00:00", 1, "tokens, reached is over"},
	};
	struct zones *zs = zones_new();
	struct task t, d;
	struct err e;
	int64_t *mine, *daily;
	size_t nmine = 0, ndaily = 0;
	cron_task(&t, "0 9 * * 1-5", "UTC", zs);
	cron_task(&d, "0 12 * * *", "UTC", zs);
	if (forecast_dues(&t, zs, NOV30, MONTH, &mine, &nmine, &e) ||
	    forecast_dues(&d, zs, NOV30, MONTH, &daily, &ndaily, &e))
		nmine = ndaily = 0;
	check_int((long)ndaily, 30, "the daily task: 30 runs");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct forecast_budget fb = {0};
		const struct tz *z;
		if (budget_parse(cases[i].budget, &fb.b, &e) || zones_get(zs, "UTC", &z, &e)) {
			check(0, "%s: %s", cases[i].why, e.msg);
			continue;
		}
		int dollars = fb.b.dollars;
		struct forecast_fire *fires = xmalloc((nmine + 2 * ndaily) * sizeof *fires);
		size_t n = 0;
		for (size_t k = 0; k < nmine; k++)
			fires[n++] = (struct forecast_fire){mine[k], dollars ? 0.00045 : 1500, 1};
		for (size_t k = 0; cases[i].others && k < ndaily; k++) {
			fires[n++] = (struct forecast_fire){daily[k], dollars ? 0.001 : 2000, 0};
			if (cases[i].others > 1)
				fires[n++] = (struct forecast_fire){daily[k], dollars ? 0.0002 : 100, 0};
		}
		qsort(fires, n, sizeof *fires, by_at);
		fb.known = 1;
		forecast_weigh(fires, n, z, &fb);
		check_int(fb.worst_runs, cases[i].runs, "%s: runs in the busiest window", cases[i].why);
		check_int(dollars ? micro(fb.worst) : llround(fb.worst), cases[i].worst, "%s: all spend",
		    cases[i].why);
		check_int(dollars ? micro(fb.own) : llround(fb.own), cases[i].own, "%s: its share",
		    cases[i].why);
		check_str(fb.worst_from, cases[i].from, "%s: its start", cases[i].why);
		check_int(fb.over, cases[i].over, "%s: over", cases[i].why);
		free(fires);
	}
	/* Others over the budget, this task spending nothing: not its warning. */
	struct forecast_fire others[] = {{NOV30 + 3600, 5, 0}, {NOV30 + 7200, 0, 1}};
	struct forecast_budget fb = {0};
	const struct tz *z;
	if (!budget_parse("$1/day", &fb.b, &e) && !zones_get(zs, "UTC", &z, &e)) {
		fb.known = 1;
		forecast_weigh(others, 2, z, &fb);
		check_int(micro(fb.worst), 5000000, "others alone: $5 in the day");
		check_int(fb.over, 0, "others alone over: not this task's warning");
	}
	free(mine);
	free(daily);
	task_free(&t);
	task_free(&d);
	zones_free(zs);
}

int
main(void)
{
	test_prompt_tokens();
	test_price();
	test_dues();
	test_budgets();
	test_weigh();
	return tap_done();
}
