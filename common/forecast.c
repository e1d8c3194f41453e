/* forecast.c: a task's expected runs and spend (forecast.h).  Nothing is
 * written: the schedule is walked in memory, the store only read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "config.h"
#include "forecast.h"
#include "store.h"
#include "task.h"
#include "tz.h"

long
forecast_prompt_tokens(const char *prompt, const char *system_prompt)
{
	size_t bytes = (prompt ? strlen(prompt) : 0) + (system_prompt ? strlen(system_prompt) : 0);
	return (long)((bytes + FORECAST_BYTES_PER_TOKEN - 1) / FORECAST_BYTES_PER_TOKEN);
}

void
forecast_price(struct forecast *f)
{
	f->tokens = (double)f->runs * (f->in_tokens + f->out_tokens);
	f->run_dollars = f->dollars = 0;
	if (!f->priced)
		return;
	f->run_dollars = (f->in_tokens * f->price_in + f->out_tokens * f->price_out) / 1e6;
	f->dollars = (double)f->runs * f->run_dollars;
}

/* The start of the budget window after the one starting at w. */
static int64_t
next_window(int period, const struct tz *z, int64_t w)
{
	int64_t ahead = period == PERIOD_DAY ? 26 * 3600 : period == PERIOD_WEEK ? 8 * 86400
	    : 32 * 86400;
	return budget_window(period, z, w + ahead);
}

void
forecast_weigh(const struct forecast_fire *fires, size_t n, const struct tz *z,
    struct forecast_budget *fb)
{
	fb->worst = fb->own = 0;
	fb->worst_runs = 0;
	fb->worst_at = TIME_NONE;
	fb->worst_from[0] = 0;
	fb->over = 0;
	double own_all = 0;
	for (size_t k = 0; k < n; k++)
		own_all += fires[k].own ? fires[k].cost : 0;
	size_t i = 0;
	for (int64_t w = n ? budget_window(fb->b.period, z, fires[0].at) : 0; i < n;) {
		int64_t next = next_window(fb->b.period, z, w);
		long runs = 0;
		double sum = 0, own = 0;
		for (; i < n && fires[i].at < next; i++) {
			runs++;
			sum += fires[i].cost;
			own += fires[i].own ? fires[i].cost : 0;
		}
		/* The costliest window; among equals the earliest, and a window
		 * of runs that cost nothing known still names the busiest. */
		if (sum > fb->worst || (fb->worst == 0 && runs > fb->worst_runs)) {
			fb->worst = sum;
			fb->own = own;
			fb->worst_runs = runs;
			fb->worst_at = w;
		}
		if (next <= w)
			break;
		w = i < n ? budget_window(fb->b.period, z, fires[i].at) : next;
	}
	if (fb->worst_at != TIME_NONE)
		tz_fmt_local(z, fb->worst_at, fb->worst_from, sizeof fb->worst_from);
	/* As budgets count: reached is over (a hair of float noise aside), and
	 * only when the task itself spends: others alone are not its doing. */
	fb->over = fb->known && fb->worst > 0 && own_all > 0 &&
	    fb->worst >= fb->b.amount * (1 - 1e-9);
}

void
forecast_budget_check(const struct forecast *f, const int64_t *dues, size_t n,
    const struct tz *z, struct forecast_budget *fb)
{
	double per_run = fb->b.dollars ? f->run_dollars : f->in_tokens + f->out_tokens;
	fb->known = !fb->b.dollars || f->priced;
	struct forecast_fire *fires = n ? xmalloc(n * sizeof *fires) : NULL;
	for (size_t i = 0; i < n; i++)
		fires[i] = (struct forecast_fire){dues[i], per_run, 1};
	forecast_weigh(fires, n, z, fb);
	fb->tasks = n > 0;
	free(fires);
}

int
forecast_dues(const struct task *t, struct zones *zs, int64_t from, int64_t secs,
    int64_t **dues, size_t *n, struct err *e)
{
	*dues = NULL;
	*n = 0;
	if (!t->enabled || t->status != STATUS_PENDING || t->kind == KIND_MANUAL ||
	    t->kind == KIND_HEARTBEAT || t->next_run_at == TIME_NONE)
		return ST_OK;
	int64_t until = from + secs, slot = t->next_run_at;
	size_t cap = 0;
	int rc = ST_OK;
	if (slot < from) {
		*dues = xmalloc((cap = 64) * sizeof **dues);
		(*dues)[(*n)++] = from;
		rc = task_next_slot(t, zs, from, &slot, e);
	}
	while (!rc && slot != TIME_NONE && slot < until) {
		int64_t due = slot + task_delay(t, zs, slot);
		if (due >= from && due < until) {
			if (*n == cap)
				*dues = xrealloc(*dues, (cap = cap ? 2 * cap : 64) * sizeof **dues);
			(*dues)[(*n)++] = due;
		}
		rc = task_next_slot(t, zs, slot, &slot, e);
	}
	if (rc) {
		free(*dues);
		*dues = NULL;
		*n = 0;
	} else if (*n > 1) {
		qsort(*dues, *n, sizeof **dues, cmp_int64); /* a delay may pass the next slot */
	}
	return rc;
}

/* The task's last runs, newest first: the mean of their tokens. */
struct recent {
	char runs[FORECAST_RUNS][37];
	int nruns;
	double in, out;
};

static int
take_run_call(const struct llm_call *c, void *arg)
{
	struct recent *r = arg;
	if (!c->run_id)
		return 0;
	int i;
	for (i = 0; i < r->nruns && strcmp(r->runs[i], c->run_id) != 0; i++)
		;
	if (i == r->nruns) {
		if (r->nruns == FORECAST_RUNS)
			return 1;
		snprintf(r->runs[r->nruns++], sizeof r->runs[0], "%s", c->run_id);
	}
	r->in += c->input_tokens > 0 ? (double)c->input_tokens : 0;
	r->out += c->output_tokens > 0 ? (double)c->output_tokens : 0;
	return 0;
}

/* The model's calls in the log: the mean of their tokens. */
struct typical {
	const char *model;     /* "": any */
	long calls;
	double in, out;
};

static int
take_model_call(const struct call_usage *u, void *arg)
{
	struct typical *ty = arg;
	if (*ty->model && (!u->model || strcmp(u->model, ty->model) != 0))
		return 0;
	if (u->input_tokens < 0 && u->output_tokens < 0)
		return 0;
	ty->calls++;
	ty->in += u->input_tokens > 0 ? (double)u->input_tokens : 0;
	ty->out += u->output_tokens > 0 ? (double)u->output_tokens : 0;
	return 0;
}

/* A command of its own, not llm-call: what it spends shows only in its runs. */
static int
own_command(const struct task *t)
{
	if (str_empty(t->exec))
		return 0;
	const char *p = t->exec + strspn(t->exec, " \t");
	size_t len = strcspn(p, " \t");
	const char *base = p;
	for (const char *q = p; q < p + len; q++)
		if (*q == '/')
			base = q + 1;
	return (size_t)(p + len - base) != strlen("llm-call") || strncmp(base, "llm-call", 8) != 0;
}

/* What forecast_task reads once and holds for every task it weighs. */
struct fc_ctx {
	struct store *st;
	const struct config *cf;
	struct zones *zs;
	int64_t now;
	const struct task *self;   /* the task as given, in place of its stored self */
	struct typical *typicals;  /* the call log's mean call, a model at a time */
	size_t ntypicals;
	struct err *e;
};

static int
typical_of(struct fc_ctx *x, const char *model, const struct typical **out)
{
	for (size_t i = 0; i < x->ntypicals; i++)
		if (strcmp(x->typicals[i].model, model) == 0) {
			*out = &x->typicals[i];
			return ST_OK;
		}
	struct typical ty = {.model = model};
	int rc = store_call_usage(x->st, x->now - (int64_t)FORECAST_LOG_DAYS * 86400, take_model_call,
	    &ty, x->e);
	if (rc)
		return rc;
	ty.model = xstrdup(model);
	x->typicals = xrealloc(x->typicals, (x->ntypicals + 1) * sizeof *x->typicals);
	x->typicals[x->ntypicals] = ty;
	*out = &x->typicals[x->ntypicals++];
	return ST_OK;
}

static int
tokens_per_run(struct fc_ctx *x, const struct task *t, int with_task, struct forecast *f)
{
	int rc;
	if (with_task && t->id[0]) {
		struct recent r = {0};
		if ((rc = store_call_list(x->st, NULL, t->id, FORECAST_RUNS * 50, take_run_call, &r,
		    x->e)))
			return rc;
		if (r.nruns) {
			f->basis = FC_RUNS;
			f->basis_count = r.nruns;
			f->in_tokens = r.in / r.nruns;
			f->out_tokens = r.out / r.nruns;
			return ST_OK;
		}
	}
	if (with_task && own_command(t)) {
		f->basis = FC_EXEC;
		return ST_OK;
	}
	const struct typical *ty;
	if ((rc = typical_of(x, f->model, &ty)))
		return rc;
	f->basis_count = ty->calls;
	if (with_task) {
		f->basis = FC_PROMPT;
		f->in_tokens = (double)forecast_prompt_tokens(t->prompt, t->system_prompt);
		f->out_tokens = ty->calls ? ty->out / (double)ty->calls : 0;
	} else if (ty->calls) {
		f->basis = FC_MODEL;
		f->in_tokens = ty->in / (double)ty->calls;
		f->out_tokens = ty->out / (double)ty->calls;
	}
	return ST_OK;
}

/* The model, tokens of a run and price of t (model overriding its own). */
static int
cost_of_run(struct fc_ctx *x, const struct task *t, const char *model, int with_task,
    struct forecast *f)
{
	const char *m = !str_empty(model) ? model : !str_empty(t->model) ? t->model
	    : x->cf ? config_get(x->cf, "model") : NULL;
	snprintf(f->model, sizeof f->model, "%s", m ? m : "");
	int rc = tokens_per_run(x, t, with_task, f);
	if (rc)
		return rc;
	if (*f->model) {
		int p = price_of(x->cf, f->model, &f->price_in, &f->price_out, x->e);
		if (p < 0)
			return ST_INVALID;
		f->priced = p == 1 && f->basis != FC_EXEC && f->basis != FC_NONE;
	}
	return ST_OK;
}

static void
dues_append(int64_t **dues, size_t *n, const int64_t *more, size_t nmore)
{
	if (!nmore)
		return;
	*dues = xrealloc(*dues, (*n + nmore) * sizeof **dues);
	memcpy(*dues + *n, more, nmore * sizeof *more);
	*n += nmore;
}

/* The chain rule of forecast_runs (forecast.h), depth tasks up already. */
static int
runs_from(struct store *st, struct zones *zs, const struct task *self, const struct task *t,
    int depth, int64_t from, int64_t secs, int64_t **dues, size_t *n, size_t *chained,
    struct err *e)
{
	int rc = forecast_dues(t, zs, from, secs, dues, n, e);
	struct chain_link links[CHAIN_MAX];
	size_t nl = 0, own = *n;
	struct err le;
	if (rc || !t->enabled || depth >= FORECAST_CHAIN_DEPTH ||
	    chain_links(t->after, links, CHAIN_MAX, &nl, &le))
		nl = 0;
	for (size_t i = 0; !rc && i < nl; i++) {
		if (links[i].on == CHAIN_FAILURE)
			continue;
		struct task up;
		const struct task *u = &up;
		if (self && self->id[0] && strcmp(links[i].ref, self->id) == 0) {
			u = self;
		} else if ((rc = store_task_get(st, links[i].ref, &up, e))) {
			if (rc == ST_NOTFOUND)
				rc = ST_OK; /* deleted: it runs no more */
			continue;
		}
		int64_t *ud;
		size_t un, uc;
		if (!(rc = runs_from(st, zs, self, u, depth + 1, from, secs, &ud, &un, &uc, e))) {
			dues_append(dues, n, ud, un);
			free(ud);
		}
		if (u == &up)
			task_free(&up);
	}
	if (rc) {
		free(*dues);
		*dues = NULL;
		*n = 0;
	} else if (*n > own) {
		qsort(*dues, *n, sizeof **dues, cmp_int64);
	}
	if (chained)
		*chained = rc ? 0 : *n - own;
	return rc;
}

int
forecast_runs(struct store *st, struct zones *zs, const struct task *self, const struct task *t,
    int64_t from, int64_t secs, int64_t **dues, size_t *n, size_t *chained, struct err *e)
{
	return runs_from(st, zs, self, t, 0, from, secs, dues, n, chained, e);
}

static int
all_dues(struct fc_ctx *x, const struct task *t, int64_t secs, int64_t **dues, size_t *n,
    size_t *chained)
{
	return forecast_runs(x->st, x->zs, x->self, t, x->now, secs, dues, n, chained, x->e);
}

struct ids {
	char (*id)[37];
	size_t n;
	const char *skip;
};

static int
take_id(const struct task *t, void *arg)
{
	struct ids *l = arg;
	if (l->skip && strcmp(t->id, l->skip) == 0)
		return 0;
	l->id = xrealloc(l->id, (l->n + 1) * sizeof *l->id);
	memcpy(l->id[l->n++], t->id, 37);
	return 0;
}

static int
by_at(const void *a, const void *b)
{
	const struct forecast_fire *x = a, *y = b;
	return (x->at > y->at) - (x->at < y->at);
}

/* The global budget: every enabled task's runs but this one's stored self,
 * each at its own cost of a run, with this task's (own) runs. */
static int
weigh_all(struct fc_ctx *x, const struct forecast *f, const int64_t *dues, size_t n,
    const struct tz *z, struct forecast_budget *fb)
{
	struct ids l = {NULL, 0, x->self->id[0] ? x->self->id : NULL};
	struct task_filter tf;
	task_filter_init(&tf);
	tf.enabled = 1;
	int rc = store_task_list(x->st, &tf, take_id, &l, x->e);
	double per_run = fb->b.dollars ? f->run_dollars : f->in_tokens + f->out_tokens;
	struct forecast_fire *fires = n ? xmalloc(n * sizeof *fires) : NULL;
	size_t nf = n;
	long tasks = n > 0;
	for (size_t i = 0; i < n; i++)
		fires[i] = (struct forecast_fire){dues[i], per_run, 1};
	for (size_t i = 0; !rc && i < l.n; i++) {
		struct task t;
		struct forecast g = {0};
		int64_t *td;
		size_t tn;
		if ((rc = store_task_get(x->st, l.id[i], &t, x->e))) {
			if (rc == ST_NOTFOUND)
				rc = ST_OK;
			continue;
		}
		rc = all_dues(x, &t, (int64_t)FORECAST_DAYS * 86400, &td, &tn, NULL);
		if (!rc && tn && (rc = cost_of_run(x, &t, NULL, 1, &g)) == ST_INVALID)
			rc = ST_OK; /* its model's price is bad: its cost is not known */
		task_free(&t);
		if (rc || !tn) {
			free(td);
			continue;
		}
		double cost = fb->b.dollars ? (g.priced ? (g.in_tokens * g.price_in + g.out_tokens *
		    g.price_out) / 1e6 : 0) : g.basis == FC_EXEC || g.basis == FC_NONE ? 0
		    : g.in_tokens + g.out_tokens;
		if (cost > 0) {
			fires = xrealloc(fires, (nf + tn) * sizeof *fires);
			for (size_t k = 0; k < tn; k++)
				fires[nf++] = (struct forecast_fire){td[k], cost, 0};
			tasks++;
		}
		free(td);
	}
	if (!rc) {
		if (nf)
			qsort(fires, nf, sizeof *fires, by_at);
		forecast_weigh(fires, nf, z, fb);
		fb->tasks = tasks;
	}
	free(fires);
	free(l.id);
	return rc;
}

int
forecast_task(struct store *st, const struct config *cf, const struct task *t,
    const char *model, int with_task, struct zones *zs, int64_t now, struct forecast *f,
    struct err *e)
{
	memset(f, 0, sizeof *f);
	f->from = now;
	f->disabled = !t->enabled;
	struct fc_ctx x = {st, cf, zs, now, t, NULL, 0, e};
	int64_t *dues = NULL;
	size_t n = 0, chained = 0;
	int rc = cost_of_run(&x, t, model, with_task, f);
	if (!rc)
		rc = all_dues(&x, t, (int64_t)FORECAST_DAYS * 86400, &dues, &n, &chained);
	f->runs = (long)n;
	f->chained = (long)chained;
	if (!rc)
		forecast_price(f);
	/* The task's budget in its zone, the global one in the config's. */
	struct err pe;
	const char *bs[2] = {with_task ? t->budget : NULL, cf ? config_get(cf, "budget") : NULL};
	const char *zone[2] = {t->tz, cf && config_get(cf, "tz") ? config_get(cf, "tz") : zones_local(zs)};
	for (int i = 0; !rc && i < 2; i++) {
		struct forecast_budget *fb = &f->budgets[f->nbudgets];
		const struct tz *z;
		if (str_empty(bs[i]) || budget_parse(bs[i], &fb->b, &pe) || !fb->b.set)
			continue;
		if (f->basis == FC_EXEC || f->basis == FC_NONE)
			continue;
		if ((rc = zones_get(zs, zone[i], &z, e)))
			break;
		fb->global = i == 1;
		if (fb->global) {
			fb->known = !fb->b.dollars || f->priced;
			rc = weigh_all(&x, f, dues, n, z, fb);
		} else {
			forecast_budget_check(f, dues, n, z, fb);
		}
		f->nbudgets += !rc;
	}
	free(dues);
	for (size_t i = 0; i < x.ntypicals; i++)
		free((char *)x.typicals[i].model);
	free(x.typicals);
	return rc;
}

/* "$0.05, 33000 tokens" or "33000 tokens, no price for M". */
static void
spend_fmt(const struct forecast *f, double dollars, double tokens, char *buf, size_t n)
{
	char money[32];
	money_fmt(dollars, money, sizeof money);
	if (f->priced)
		snprintf(buf, n, "%s, %.0f tokens", money, tokens);
	else if (*f->model)
		snprintf(buf, n, "%.0f tokens, no price for %.60s", tokens, f->model);
	else
		snprintf(buf, n, "%.0f tokens, no model named", tokens);
}

static void
basis_fmt(const struct forecast *f, char *buf, size_t n)
{
	const char *m = *f->model ? f->model : "any model";
	switch (f->basis) {
	case FC_RUNS:
		if (f->basis_count == 1)
			snprintf(buf, n, "its last run");
		else
			snprintf(buf, n, "the mean of its last %ld runs", f->basis_count);
		break;
	case FC_PROMPT:
		if (f->basis_count)
			snprintf(buf, n, "its prompt, and the mean answer of %ld call%s of %.60s",
			    f->basis_count, f->basis_count == 1 ? "" : "s", m);
		else
			snprintf(buf, n, "its prompt; no answer of %.60s on record", m);
		break;
	case FC_MODEL:
		snprintf(buf, n, "the mean of %ld call%s of %.60s", f->basis_count,
		    f->basis_count == 1 ? "" : "s", m);
		break;
	default:
		snprintf(buf, n, "nothing");
	}
}

void
forecast_line(const struct forecast *f, char *buf, size_t n)
{
	char spend[128], basis[160];
	int l = snprintf(buf, n, "%ld run%s in %d days", f->runs, f->runs == 1 ? "" : "s",
	    FORECAST_DAYS);
	if (l < 0 || (size_t)l >= n)
		return;
	if (f->disabled) {
		snprintf(buf + l, n - l, ": it is disabled");
		return;
	}
	if (f->basis == FC_EXEC) {
		snprintf(buf + l, n - l, "; its command's spend is known only from its runs");
		return;
	}
	if (f->basis == FC_NONE) {
		snprintf(buf + l, n - l, "; no call of %.60s on record to count a run by",
		    *f->model ? f->model : "any model");
		return;
	}
	spend_fmt(f, f->dollars, f->tokens, spend, sizeof spend);
	basis_fmt(f, basis, sizeof basis);
	snprintf(buf + l, n - l, ": %s (a run: %.0f token%s in, %.0f out, from %s)", spend,
	    f->in_tokens, llround(f->in_tokens) == 1 ? "" : "s", f->out_tokens, basis);
}

/* An amount in a budget's unit: dollars, or whole tokens. */
static void
amount_fmt(const struct budget *b, double v, char *buf, size_t n)
{
	if (b->dollars)
		money_fmt(v, buf, n);
	else
		snprintf(buf, n, "%.0f tokens", v);
}

void
forecast_print(const struct forecast *f, const char *desc, const char *from, FILE *out)
{
	static const char *const period[] = {"day", "week", "month"};
	char a[160], b[48];
	fprintf(out, "schedule: %s\n", desc);
	fprintf(out, "runs:     %ld in %d days from %s", f->runs, FORECAST_DAYS, from);
	if (f->chained)
		fprintf(out, " (%ld after the tasks it follows)", f->chained);
	fputc('\n', out);
	if (f->basis == FC_EXEC || f->basis == FC_NONE) {
		forecast_line(f, a, sizeof a);
		fprintf(out, "a run:    unknown%s\n", strchr(a, ';') ? strchr(a, ';') : "");
		return;
	}
	basis_fmt(f, a, sizeof a);
	fprintf(out, "a run:    %.0f token%s in, %.0f out, from %s\n", f->in_tokens,
	    llround(f->in_tokens) == 1 ? "" : "s", f->out_tokens, a);
	if (f->priced) {
		money_fmt(f->run_dollars, a, sizeof a);
		money_fmt(f->dollars, b, sizeof b);
		fprintf(out, "model:    %s at $%g in, $%g out a million tokens\n", f->model, f->price_in,
		    f->price_out);
		fprintf(out, "expected: %s and %.0f tokens in %d days (%s a run)\n", b, f->tokens,
		    FORECAST_DAYS, a);
	} else {
		fprintf(out, "model:    %s\n", *f->model ? f->model : "none named (--model, or the config's model)");
		spend_fmt(f, 0, f->tokens, a, sizeof a);
		fprintf(out, "expected: %s in %d days\n", a, FORECAST_DAYS);
	}
	for (int i = 0; i < f->nbudgets; i++) {
		const struct forecast_budget *fb = &f->budgets[i];
		budget_describe(&fb->b, a, sizeof a);
		fprintf(out, "budget:   %s (%s): ", a, fb->global ? "all tasks" : "its own");
		if (!fb->known) {
			fprintf(out, "no price to hold it against\n");
			continue;
		}
		if (fb->worst_at == TIME_NONE) {
			fprintf(out, "nothing expected\n");
			continue;
		}
		amount_fmt(&fb->b, fb->worst, b, sizeof b);
		fprintf(out, "at most %s in the %s from %s", b, period[fb->b.period], fb->worst_from);
		if (fb->global && fb->tasks > 1) {
			char own[48];
			amount_fmt(&fb->b, fb->own, own, sizeof own);
			fprintf(out, " (%ld tasks; %s of it this one's)", fb->tasks, own);
		}
		fprintf(out, "%s\n", fb->over ? ": OVER" : "");
	}
}

int
forecast_warnings(const struct forecast *f, const char *prog, const char *who, FILE *out)
{
	static const char *const period[] = {"day", "week", "month"};
	int count = 0;
	for (int i = 0; i < f->nbudgets; i++) {
		const struct forecast_budget *fb = &f->budgets[i];
		char have[64], worst[48];
		if (!fb->over)
			continue;
		budget_describe(&fb->b, have, sizeof have);
		amount_fmt(&fb->b, fb->worst, worst, sizeof worst);
		if (fb->global && fb->tasks > 1) {
			char own[48];
			amount_fmt(&fb->b, fb->own, own, sizeof own);
			fprintf(out, "%s: warning: with %s, the %ld tasks that spend are expected to spend"
			    " %s in the %s from %s (%s of it this task's), over the global budget of %s\n",
			    prog, who, fb->tasks, worst, period[fb->b.period], fb->worst_from, own, have);
		} else {
			fprintf(out, "%s: warning: %s is expected to spend %s in the %s from %s, over %s"
			    " budget of %s\n", prog, who, worst, period[fb->b.period], fb->worst_from,
			    fb->global ? "the global" : "its", have);
		}
		count++;
	}
	return count;
}

/* Dollars to the micro-dollar and tokens whole: no float noise. */
static double
micro(double v)
{
	return (double)llround(v * 1e6) / 1e6;
}

static const char *const basis_names[] = {"none", "runs", "prompt", "model", "command"};

cJSON *
forecast_json(const struct forecast *f)
{
	char at[64];
	cJSON *o = cJSON_CreateObject(), *x;
	cJSON_AddNumberToObject(o, "days", FORECAST_DAYS);
	time_fmt_utc(f->from, at, sizeof at);
	cJSON_AddStringToObject(o, "from", at);
	cJSON_AddNumberToObject(o, "runs", (double)f->runs);
	if (f->chained)
		cJSON_AddNumberToObject(o, "chained_runs", (double)f->chained);
	if (f->disabled)
		cJSON_AddBoolToObject(o, "disabled", 1);
	cJSON_AddStringToObject(o, "basis", basis_names[f->basis]);
	cJSON_AddNumberToObject(o, "basis_count", (double)f->basis_count);
	if (*f->model)
		cJSON_AddStringToObject(o, "model", f->model);
	else
		cJSON_AddNullToObject(o, "model");
	if (f->basis == FC_EXEC || f->basis == FC_NONE)
		return o;
	cJSON_AddNumberToObject(o, "input_tokens_per_run", (double)llround(f->in_tokens));
	cJSON_AddNumberToObject(o, "output_tokens_per_run", (double)llround(f->out_tokens));
	cJSON_AddNumberToObject(o, "tokens", (double)llround(f->tokens));
	if (f->priced) {
		cJSON_AddItemToObject(o, "price", x = cJSON_CreateObject());
		cJSON_AddNumberToObject(x, "input", f->price_in);
		cJSON_AddNumberToObject(x, "output", f->price_out);
		cJSON_AddNumberToObject(o, "dollars_per_run", micro(f->run_dollars));
		cJSON_AddNumberToObject(o, "dollars", micro(f->dollars));
	}
	cJSON_AddItemToObject(o, "budgets", x = cJSON_CreateArray());
	for (int i = 0; i < f->nbudgets; i++) {
		const struct forecast_budget *fb = &f->budgets[i];
		char have[64];
		cJSON *b = cJSON_CreateObject();
		budget_fmt(&fb->b, have, sizeof have);
		cJSON_AddStringToObject(b, "budget", have);
		cJSON_AddBoolToObject(b, "global", fb->global);
		if (fb->known) {
			cJSON_AddNumberToObject(b, "worst", fb->b.dollars ? micro(fb->worst)
			    : (double)llround(fb->worst));
			cJSON_AddNumberToObject(b, "worst_runs", (double)fb->worst_runs);
			if (fb->global) {
				cJSON_AddNumberToObject(b, "tasks", (double)fb->tasks);
				cJSON_AddNumberToObject(b, "own", fb->b.dollars ? micro(fb->own)
				    : (double)llround(fb->own));
			}
			if (fb->worst_at != TIME_NONE) {
				time_fmt_utc(fb->worst_at, at, sizeof at);
				cJSON_AddStringToObject(b, "worst_from", at);
			}
		}
		cJSON_AddBoolToObject(b, "over", fb->over);
		cJSON_AddItemToArray(x, b);
	}
	return o;
}
