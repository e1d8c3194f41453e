/* simulate.c: task-when --simulate.  Every enabled task's slots are walked
 * with the code task-tick arms them with (task_next_slot, task_delay), so
 * the herd at 09:00 is the one a ticker would meet; nothing is written. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "forecast.h"
#include "simulate.h"
#include "spend.h"
#include "store.h"
#include "task.h"
#include "taskargs.h"
#include "tz.h"

#define SIM_BUSIEST 5      /* minutes listed */
#define SIM_TASKS_SHOWN 20 /* tasks listed on text, the busiest first */

struct sim_task {
	char id[37];
	char *name;
	long fires;
	double cost;           /* dollars a fire is expected to cost; -1: no priced call */
	double calls_dollars;  /* of its priced calls in the last SIM_COST_DAYS */
	long calls;
	struct budget budget;
	const struct tz *bz;   /* its budget's zone (its own) */
	int64_t *dues;         /* with a dollar budget: when it fires */
	size_t ndues;
	double worst;          /* its most expensive budget window */
	int64_t worst_at;
};

struct sim_dst {
	char *tz;
	int64_t at;
	int32_t before, after;
};

struct sim {
	const struct tz *z;
	int64_t from, until;
	long fires;
	uint32_t *minutes;     /* fires per minute from `from` */
	double *dollars;       /* expected dollars per minute */
	size_t nminutes;
	struct sim_task *tasks;
	size_t ntasks, cap;
	struct sim_dst *dst;
	size_t ndst;
	struct budget global;
	const struct tz *gz;   /* the global budget's zone */
	double gworst;
	int64_t gworst_at;
	struct zones *zs;
	int stagger;
};

static int
take_task(const struct task *t, void *arg)
{
	struct sim *s = arg;
	/* A follower runs after its upstream whatever its own schedule. */
	int follows = !str_empty(t->after);
	if (!follows && (t->status != STATUS_PENDING || t->kind == KIND_MANUAL ||
	    t->kind == KIND_HEARTBEAT))
		return 0;
	if (s->ntasks == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->tasks = xrealloc(s->tasks, s->cap * sizeof *s->tasks);
	}
	struct sim_task *st = &s->tasks[s->ntasks];
	memset(st, 0, sizeof *st);
	memcpy(st->id, t->id, sizeof st->id);
	st->name = xstrdup(t->name ? t->name : "");
	st->cost = -1;
	struct err e;
	if (t->budget && budget_parse(t->budget, &st->budget, &e) == ST_OK && st->budget.set &&
	    st->budget.dollars && zones_get(s->zs, t->tz, &st->bz, &e) != ST_OK)
		st->budget.set = 0;
	s->ntasks++;
	return 0;
}

static int
by_id(const void *a, const void *b)
{
	return strcmp(((const struct sim_task *)a)->id, ((const struct sim_task *)b)->id);
}

/* The mean of each task's priced calls is what a fire is expected to cost. */
static int
take_call(const struct call_usage *u, void *arg)
{
	struct sim *s = arg;
	if (!u->task_id || u->cost < 0)
		return 0;
	struct sim_task key;
	snprintf(key.id, sizeof key.id, "%s", u->task_id);
	struct sim_task *t = s->ntasks ? bsearch(&key, s->tasks, s->ntasks, sizeof *s->tasks, by_id)
	    : NULL;
	if (t) {
		t->calls_dollars += u->cost;
		t->calls++;
	}
	return 0;
}

static void
count_fire(struct sim *s, struct sim_task *t, int64_t due)
{
	size_t m = (size_t)((due - s->from) / 60);
	s->minutes[m]++;
	s->fires++;
	t->fires++;
	if (t->cost > 0)
		s->dollars[m] += t->cost;
	if (t->budget.set && t->cost > 0) {
		t->dues = xrealloc(t->dues, (t->ndues + 1) * sizeof *t->dues);
		t->dues[t->ndues++] = due;
	}
}

/* Its runs, walked from the slot the store holds as task-tick takes it (a
 * task already due fires at the next pass, counted at `from`), and one at
 * each run of a task it follows on success or any, in that run's minute:
 * the rule --cost forecasts with (forecast_runs). */
static int
walk_task(struct sim *s, struct store *st, struct sim_task *sk, const struct task *t,
    struct err *e)
{
	int64_t *dues;
	size_t n;
	int rc = forecast_runs(st, s->zs, NULL, t, s->from, s->until - s->from, &dues, &n, NULL, e);
	for (size_t i = 0; !rc && i < n; i++)
		count_fire(s, sk, dues[i]);
	free(dues);
	return rc;
}

/* The start of the budget window after the one starting at w. */
static int64_t
next_window(int period, const struct tz *z, int64_t w)
{
	int64_t ahead = period == PERIOD_DAY ? 26 * 3600 : period == PERIOD_WEEK ? 8 * 86400
	    : 32 * 86400;
	return budget_window(period, z, w + ahead);
}

/* The window of budget b (in zone z) in which the dues cost most. */
static void
worst_window(const struct sim *s, const struct budget *b, const struct tz *z,
    const int64_t *dues, size_t n, double cost, double *worst, int64_t *at)
{
	*worst = 0;
	*at = TIME_NONE;
	for (int64_t w = budget_window(b->period, z, s->from); w < s->until;) {
		int64_t next = next_window(b->period, z, w);
		double sum = 0;
		if (dues) {
			for (size_t i = 0; i < n; i++)
				if (dues[i] >= w && dues[i] < next)
					sum += cost;
		} else {
			int64_t a = w < s->from ? s->from : w, end = next < s->until ? next : s->until;
			for (int64_t m = (a - s->from) / 60; m < (end - s->from + 59) / 60; m++)
				sum += s->dollars[m];
		}
		if (sum > *worst) {
			*worst = sum;
			*at = w;
		}
		if (next <= w)
			break;
		w = next;
	}
}

/* The clock changes of zone z in the span, once per zone. */
static void
zone_changes(struct sim *s, const struct tz *z)
{
	for (size_t i = 0; i < s->ndst; i++)
		if (strcmp(s->dst[i].tz, tz_name(z)) == 0)
			return;
	struct tz_segment seg;
	for (int64_t t = s->from; t < s->until;) {
		tz_segment(z, t, &seg);
		if (seg.end >= s->until || seg.end <= t)
			break;
		int32_t before = seg.off;
		tz_segment(z, seg.end, &seg);
		s->dst = xrealloc(s->dst, (s->ndst + 1) * sizeof *s->dst);
		s->dst[s->ndst++] = (struct sim_dst){xstrdup(tz_name(z)), seg.start, before, seg.off};
		t = seg.start;
	}
}

static int
walk_all(struct sim *s, struct store *st, struct err *e)
{
	int rc = ST_OK;
	for (size_t i = 0; !rc && i < s->ntasks; i++) {
		struct sim_task *sk = &s->tasks[i];
		struct task t;
		if (sk->calls)
			sk->cost = sk->calls_dollars / (double)sk->calls;
		if ((rc = store_task_get(st, sk->id, &t, e)))
			break;
		const struct tz *z;
		if (!(rc = zones_get(s->zs, t.tz, &z, e))) {
			zone_changes(s, z);
			rc = walk_task(s, st, sk, &t, e);
		}
		task_free(&t);
		if (!rc && sk->budget.set && sk->cost > 0)
			worst_window(s, &sk->budget, sk->bz, sk->dues, sk->ndues, sk->cost, &sk->worst,
			    &sk->worst_at);
	}
	if (!rc && s->global.set && s->global.dollars)
		worst_window(s, &s->global, s->gz, NULL, 0, 0, &s->gworst, &s->gworst_at);
	return rc;
}

int
sim_run(struct store *st, const struct config *cf, const struct tz *z, int64_t from,
    int64_t secs, struct sim **out, struct err *e)
{
	struct sim *s = xcalloc(1, sizeof *s);
	s->z = z;
	from -= (from % 60 + 60) % 60; /* whole minutes, as passes claim */
	s->from = from;
	s->until = from + secs;
	s->nminutes = (size_t)((secs + 59) / 60);
	s->minutes = xcalloc(s->nminutes, sizeof *s->minutes);
	s->dollars = xcalloc(s->nminutes, sizeof *s->dollars);
	s->zs = zones_new();
	struct spend_check sc;
	struct task_filter f;
	task_filter_init(&f);
	f.enabled = 1;
	int rc = config_stagger(cf, &s->stagger, e);
	if (!rc)
		rc = spend_check_init(&sc, cf, e);
	if (!rc) {
		zones_set_stagger(s->zs, s->stagger);
		s->global = sc.global;
		rc = zones_get(s->zs, sc.tz, &s->gz, e);
	}
	if (!rc)
		rc = store_task_list(st, &f, take_task, s, e);
	if (!rc) {
		if (s->ntasks) /* no array at all when there is no task */
			qsort(s->tasks, s->ntasks, sizeof *s->tasks, by_id);
		rc = store_call_usage(st, from - (int64_t)SIM_COST_DAYS * 86400, take_call, s, e);
	}
	if (!rc)
		rc = walk_all(s, st, e);
	if (rc) {
		sim_free(s);
		return rc;
	}
	*out = s;
	return ST_OK;
}

void
sim_free(struct sim *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ntasks; i++) {
		free(s->tasks[i].name);
		free(s->tasks[i].dues);
	}
	for (size_t i = 0; i < s->ndst; i++)
		free(s->dst[i].tz);
	free(s->tasks);
	free(s->dst);
	free(s->minutes);
	free(s->dollars);
	zones_free(s->zs);
	free(s);
}

/* ---- printing ---- */

/* Minute indexes, the busiest first (earliest first among equals). */
static size_t
busiest(const struct sim *s, size_t *top, size_t n)
{
	size_t k = 0;
	for (size_t m = 0; m < s->nminutes; m++) {
		if (!s->minutes[m])
			continue;
		size_t i = k < n ? k++ : n;
		if (i == n && s->minutes[m] <= s->minutes[top[n - 1]])
			continue;
		if (i == n)
			i = n - 1;
		while (i > 0 && s->minutes[top[i - 1]] < s->minutes[m]) {
			top[i] = top[i - 1];
			i--;
		}
		top[i] = m;
	}
	return k;
}

static int
by_fires(const void *a, const void *b)
{
	const struct sim_task *x = a, *y = b;
	if (x->fires != y->fires)
		return x->fires < y->fires ? 1 : -1;
	return strcmp(x->id, y->id);
}

static void
offset_fmt(int32_t off, char *buf, size_t n)
{
	int a = off < 0 ? -off : off;
	snprintf(buf, n, "%c%02d:%02d", off < 0 ? '-' : '+', a / 3600, a / 60 % 60);
}

/* "$0.0120 a fire", or that nothing tells. */
static void
cost_fmt(double d, char *buf, size_t n)
{
	char m[32];
	if (d < 0) {
		snprintf(buf, n, "no priced call in %d days", SIM_COST_DAYS);
		return;
	}
	money_fmt(d, m, sizeof m);
	snprintf(buf, n, "%s a fire", m);
}

/* Where a day's line goes. */
struct day_out {
	const struct sim *s;
	FILE *f;
	cJSON *days;
};

/* Expected dollars per day, days ending in the display zone. */
static void
per_day(const struct sim *s, void (*fn)(int64_t day, double dollars, long fires,
    struct day_out *out), struct day_out *out)
{
	int64_t day = budget_window(PERIOD_DAY, s->z, s->from);
	while (day < s->until) {
		int64_t next = next_window(PERIOD_DAY, s->z, day);
		int64_t a = day < s->from ? s->from : day, end = next < s->until ? next : s->until;
		double d = 0;
		long fires = 0;
		for (int64_t m = (a - s->from) / 60; m < (end - s->from + 59) / 60; m++) {
			d += s->dollars[m];
			fires += s->minutes[m];
		}
		fn(day, d, fires, out);
		if (next <= day)
			break;
		day = next;
	}
}

static void
day_text(int64_t day, double dollars, long fires, struct day_out *out)
{
	char date[64], money[32];
	tz_fmt_local(out->s->z, day, date, sizeof date);
	date[10] = 0;
	money_fmt(dollars, money, sizeof money);
	fprintf(out->f, "  %s  %6ld fires  %s\n", date, fires, money);
}

static void
histogram(const struct sim *s, FILE *f)
{
	long hours = (long)((s->nminutes + 59) / 60), most = 0;
	for (long h = 0; h < hours; h++) {
		long n = 0;
		for (size_t m = (size_t)h * 60; m < (size_t)(h + 1) * 60 && m < s->nminutes; m++)
			n += s->minutes[m];
		if (n > most)
			most = n;
	}
	fprintf(f, "fires per hour:\n");
	for (long h = 0; most && h < hours; h++) {
		long n = 0;
		for (size_t m = (size_t)h * 60; m < (size_t)(h + 1) * 60 && m < s->nminutes; m++)
			n += s->minutes[m];
		if (!n)
			continue;
		char at[64];
		tz_fmt_local(s->z, s->from + h * 3600, at, sizeof at);
		fprintf(f, "  %s  %6ld  ", at, n);
		for (long i = 0; i < (n * 50 + most - 1) / most; i++)
			fputc('#', f);
		fputc('\n', f);
	}
}

static void
budget_text(const char *who, const struct budget *b, double worst, int64_t at, const struct tz *z,
    FILE *f)
{
	char have[64], spent[32], when[64];
	budget_describe(b, have, sizeof have);
	money_fmt(worst, spent, sizeof spent);
	if (at == TIME_NONE) {
		fprintf(f, "  %s: %s; nothing expected\n", who, have);
		return;
	}
	tz_fmt_local(z, at, when, sizeof when);
	fprintf(f, "  %s: %s; at most %s expected in the %s from %s%s\n", who, have, spent,
	    b->period == PERIOD_DAY ? "day" : b->period == PERIOD_WEEK ? "week" : "month", when,
	    llround(worst * 1e6) >= llround(b->amount * 1e6) ? ": OVER" : "");
}

void
sim_print_text(const struct sim *s, FILE *f, int hist)
{
	char a[64], b[64];
	tz_fmt_local(s->z, s->from, a, sizeof a);
	tz_fmt_local(s->z, s->until, b, sizeof b);
	fprintf(f, "from %s to %s (%s): %zu tasks fire %ld times\n", a, b, tz_name(s->z), s->ntasks,
	    s->fires);
	size_t top[SIM_BUSIEST], n = busiest(s, top, SIM_BUSIEST);
	fprintf(f, "busiest minutes:%s\n", n ? "" : " none");
	for (size_t i = 0; i < n; i++) {
		tz_fmt_local(s->z, s->from + (int64_t)top[i] * 60, a, sizeof a);
		fprintf(f, "  %s  %u\n", a, s->minutes[top[i]]);
	}
	struct sim_task *sorted = xmalloc((s->ntasks ? s->ntasks : 1) * sizeof *sorted);
	if (s->ntasks) {
		memcpy(sorted, s->tasks, s->ntasks * sizeof *sorted);
		qsort(sorted, s->ntasks, sizeof *sorted, by_fires);
	}
	fprintf(f, "fires per task:%s\n", s->ntasks ? "" : " none");
	for (size_t i = 0; i < s->ntasks && i < SIM_TASKS_SHOWN; i++) {
		cost_fmt(sorted[i].cost, a, sizeof a);
		fprintf(f, "  %6ld  %.8s  %s  (%s)\n", sorted[i].fires, sorted[i].id, sorted[i].name, a);
	}
	if (s->ntasks > SIM_TASKS_SHOWN)
		fprintf(f, "  and %zu more (--json lists them all)\n", s->ntasks - SIM_TASKS_SHOWN);
	fprintf(f, "clock changes:%s\n", s->ndst ? "" : " none");
	for (size_t i = 0; i < s->ndst; i++) {
		const struct sim_dst *d = &s->dst[i];
		offset_fmt(d->before, a, sizeof a);
		offset_fmt(d->after, b, sizeof b);
		char at[64];
		time_fmt_utc(d->at, at, sizeof at);
		fprintf(f, "  %s  %s  %s -> %s\n", d->tz, at, a, b);
	}
	fprintf(f, "expected spend per day:\n");
	struct day_out out = {s, f, NULL};
	per_day(s, day_text, &out);
	if (s->global.set && s->global.dollars)
		budget_text("all tasks", &s->global, s->gworst, s->gworst_at, s->gz, f);
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct sim_task *t = &sorted[i];
		if (t->budget.set && t->cost > 0) {
			char who[80];
			snprintf(who, sizeof who, "task %.8s", t->id);
			budget_text(who, &t->budget, t->worst, t->worst_at, t->bz, f);
		}
	}
	free(sorted);
	if (hist)
		histogram(s, f);
}

/* Dollars to the micro-dollar, as budgets compare them: no float noise. */
static double
micro(double dollars)
{
	return (double)llround(dollars * 1e6) / 1e6;
}

static void
day_json(int64_t day, double dollars, long fires, struct day_out *out)
{
	char date[64];
	tz_fmt_local(out->s->z, day, date, sizeof date);
	date[10] = 0;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "date", date);
	cJSON_AddNumberToObject(o, "fires", (double)fires);
	cJSON_AddNumberToObject(o, "dollars", micro(dollars));
	cJSON_AddItemToArray(out->days, o);
}

static cJSON *
budget_json(const struct budget *b, double worst, int64_t at)
{
	char have[64], when[64];
	budget_fmt(b, have, sizeof have);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "budget", have);
	cJSON_AddNumberToObject(o, "worst", micro(worst));
	if (at != TIME_NONE) {
		time_fmt_utc(at, when, sizeof when);
		cJSON_AddStringToObject(o, "worst_from", when);
	}
	cJSON_AddBoolToObject(o, "over", llround(worst * 1e6) >= llround(b->amount * 1e6));
	return o;
}

void
sim_print_json(const struct sim *s, FILE *f)
{
	char at[64];
	cJSON *o = cJSON_CreateObject(), *a;
	time_fmt_utc(s->from, at, sizeof at);
	cJSON_AddStringToObject(o, "from", at);
	time_fmt_utc(s->until, at, sizeof at);
	cJSON_AddStringToObject(o, "until", at);
	cJSON_AddStringToObject(o, "tz", tz_name(s->z));
	cJSON_AddNumberToObject(o, "tasks", (double)s->ntasks);
	cJSON_AddNumberToObject(o, "fires", (double)s->fires);
	cJSON_AddItemToObject(o, "minutes", a = cJSON_CreateArray());
	for (size_t m = 0; m < s->nminutes; m++) {
		if (!s->minutes[m])
			continue;
		cJSON *x = cJSON_CreateObject();
		time_fmt_utc(s->from + (int64_t)m * 60, at, sizeof at);
		cJSON_AddStringToObject(x, "at", at);
		cJSON_AddNumberToObject(x, "fires", s->minutes[m]);
		cJSON_AddItemToArray(a, x);
	}
	size_t top[SIM_BUSIEST], n = busiest(s, top, SIM_BUSIEST);
	cJSON_AddItemToObject(o, "busiest", a = cJSON_CreateArray());
	for (size_t i = 0; i < n; i++) {
		cJSON *x = cJSON_CreateObject();
		time_fmt_utc(s->from + (int64_t)top[i] * 60, at, sizeof at);
		cJSON_AddStringToObject(x, "at", at);
		cJSON_AddNumberToObject(x, "fires", s->minutes[top[i]]);
		cJSON_AddItemToArray(a, x);
	}
	cJSON_AddItemToObject(o, "per_task", a = cJSON_CreateArray());
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct sim_task *t = &s->tasks[i];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "id", t->id);
		cJSON_AddStringToObject(x, "name", t->name);
		cJSON_AddNumberToObject(x, "fires", (double)t->fires);
		if (t->cost >= 0)
			cJSON_AddNumberToObject(x, "cost_per_fire", micro(t->cost));
		if (t->budget.set && t->cost > 0)
			cJSON_AddItemToObject(x, "budget", budget_json(&t->budget, t->worst, t->worst_at));
		cJSON_AddItemToArray(a, x);
	}
	cJSON_AddItemToObject(o, "clock_changes", a = cJSON_CreateArray());
	for (size_t i = 0; i < s->ndst; i++) {
		char off[16];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "tz", s->dst[i].tz);
		time_fmt_utc(s->dst[i].at, at, sizeof at);
		cJSON_AddStringToObject(x, "at", at);
		offset_fmt(s->dst[i].before, off, sizeof off);
		cJSON_AddStringToObject(x, "before", off);
		offset_fmt(s->dst[i].after, off, sizeof off);
		cJSON_AddStringToObject(x, "after", off);
		cJSON_AddItemToArray(a, x);
	}
	struct day_out out = {s, f, cJSON_CreateArray()};
	per_day(s, day_json, &out);
	cJSON_AddItemToObject(o, "per_day", out.days);
	if (s->global.set && s->global.dollars)
		cJSON_AddItemToObject(o, "global_budget", budget_json(&s->global, s->gworst, s->gworst_at));
	char *text = cJSON_PrintUnformatted(o);
	if (text)
		fprintf(f, "%s\n", text);
	free(text);
	cJSON_Delete(o);
}

/* --simulate [DURATION]: every enabled task of the store, from now on. */
int
sim_command(const char *duration, const struct tz *z, int64_t now, int json, struct err *e)
{
	long secs = 7 * 86400;
	if (duration && (parse_duration(duration, &secs) != 0 || secs < 60 || secs > SIM_MAX_SECS))
		return err_set(e, ST_INVALID, "--simulate: bad duration '%.40s': expected 1m to 366d, "
		    "like 7d, 12h or 90m", duration);
	struct store *st = NULL;
	struct config *cf = NULL;
	struct sim *s = NULL;
	int rc = config_load(&cf, e) ? ST_ERR : ST_OK;
	if (!rc)
		rc = store_open(NULL, STORE_READ, &st, e);
	if (!rc)
		rc = sim_run(st, cf, z, now, secs, &s, e);
	if (!rc && json)
		sim_print_json(s, stdout);
	else if (!rc)
		sim_print_text(s, stdout, isatty(STDOUT_FILENO));
	sim_free(s);
	store_close(st);
	config_free(cf);
	return rc;
}
