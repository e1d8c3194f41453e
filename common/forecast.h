/* forecast.h: what a task is expected to cost before it runs (task-add,
 * task-edit, task-when --cost).  Its runs in the next FORECAST_DAYS come
 * from its schedule, walked as task-tick walks it (stagger and jitter
 * applied); the tokens of a run from its last FORECAST_RUNS runs on
 * record, else its prompt (a token per FORECAST_BYTES_PER_TOKEN bytes)
 * and the model's mean answer in the call log, else the model's mean call;
 * dollars at the model's price (spend.h).  A task that follows others
 * (chain.h) also runs after each of their runs on success or any, so its
 * runs include theirs.  Its own budget is held against the most it spends
 * in one of the budget's windows; the global one against the most all
 * enabled tasks spend in one, this task as given with the others as they
 * are stored, each at its own cost of a run (a task whose cost is not
 * known counts nothing). */
#ifndef AC_FORECAST_H
#define AC_FORECAST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spend.h"
#include "util.h"

struct config;
struct store;
struct task;
struct tz;
struct zones;

#define FORECAST_DAYS 30          /* "a month" */
#define FORECAST_RUNS 10          /* recent runs a run's tokens are the mean of */
#define FORECAST_BYTES_PER_TOKEN 4
#define FORECAST_LOG_DAYS 30      /* the call log read for a model's typical call */
#define FORECAST_CHAIN_DEPTH 16   /* upstream tasks followed back, at most */

enum {
	FC_NONE,    /* nothing on record: no tokens known */
	FC_RUNS,    /* the task's recent runs */
	FC_PROMPT,  /* its prompt, and the model's mean answer */
	FC_MODEL,   /* the model's mean call (a schedule without a task) */
	FC_EXEC,    /* a command of its own: its calls are not known before it runs */
};

struct forecast_budget {
	struct budget b;
	int global;
	long tasks;            /* tasks weighed that spend: 1, or more for the global one */
	int known;             /* 0: a dollar budget and no price */
	double worst;          /* dollars or tokens in its busiest window */
	double own;            /* of which this task's */
	long worst_runs;
	int64_t worst_at;      /* that window's start; TIME_NONE when no run falls in one */
	char worst_from[64];   /* worst_at in the budget's zone, "2026-12-01 00:00" */
	int over;              /* worst reaches the budget, and this task spends */
};

/* A run of some task at `at` and what it costs (dollars or tokens). */
struct forecast_fire {
	int64_t at;
	double cost;
	int own;               /* the forecast task's */
};

struct forecast {
	long runs;             /* in the FORECAST_DAYS from `from` */
	long chained;          /* of which after the tasks it follows */
	int disabled;          /* so no runs */
	int64_t from;
	int basis;             /* FC_* */
	long basis_count;      /* runs or calls averaged */
	char model[160];       /* "" when none is named */
	double in_tokens, out_tokens; /* a run */
	int priced;
	double price_in, price_out;   /* dollars per million tokens */
	double run_dollars, dollars;  /* a run, and all runs (when priced) */
	double tokens;                /* all runs */
	struct forecast_budget budgets[2];
	int nbudgets;
};

/* forecast.c: the arithmetic, with no store */
long forecast_prompt_tokens(const char *prompt, const char *system_prompt);
/* Fills run_dollars, dollars and tokens from runs, the tokens of a run
 * and the price. */
void forecast_price(struct forecast *f);
/* The window of b (in zone z) from `from` on in which the runs at dues
 * (sorted) cost most: fills fb's worst, worst_runs, worst_at and over,
 * from f's cost of a run. */
void forecast_budget_check(const struct forecast *f, const int64_t *dues, size_t n,
    const struct tz *z, struct forecast_budget *fb);
/* The window of fb->b (in zone z) in which the fires (sorted by at) cost
 * most: fills fb's worst, own, worst_runs, worst_at and over (fb->known
 * set by the caller). */
void forecast_weigh(const struct forecast_fire *fires, size_t n, const struct tz *z,
    struct forecast_budget *fb);
/* The instants t fires at in [from, from + secs): an enabled pending task
 * from its next run (one already due counts at `from`), delays included.  *dues is
 * malloc'd (NULL when there is none). */
int forecast_dues(const struct task *t, struct zones *zs, int64_t from, int64_t secs,
    int64_t **dues, size_t *n, struct err *e);

/* The instants t runs at in [from, from + secs): its own (forecast_dues)
 * and, while it is enabled, one at each instant a task it follows runs,
 * when its link is on success or any (a failure is not expected), down
 * the chain FORECAST_CHAIN_DEPTH tasks up at most; a deleted upstream adds
 * none.  self, when not NULL, stands in for its stored self.  *dues is
 * sorted and malloc'd (NULL when none); *chained (when not NULL): how many
 * are after an upstream.  Reads the store, never writes it. */
int forecast_runs(struct store *st, struct zones *zs, const struct task *self,
    const struct task *t, int64_t from, int64_t secs, int64_t **dues, size_t *n,
    size_t *chained, struct err *e);

/* All of it for t: model overrides its model (NULL: the task's, else the
 * config's); with_task 0 for a schedule alone (FC_MODEL: no prompt).
 * Reads the store (its runs' calls, the call log), never writes it. */
int forecast_task(struct store *st, const struct config *cf, const struct task *t,
    const char *model, int with_task, struct zones *zs, int64_t now, struct forecast *f,
    struct err *e);
/* "22 runs in 30 days: $0.05 (33000 tokens), from its last 3 runs" */
void forecast_line(const struct forecast *f, char *buf, size_t n);
/* A line per budget expected over, "PROG: warning: WHO is expected to
 * spend $0.96 in the day from 2026-12-01 00:00, over its budget of $0.50
 * a day"; the number of them. */
int forecast_warnings(const struct forecast *f, const char *prog, const char *who, FILE *out);
/* task-when --cost: the forecast of the schedule desc, runs counted from
 * `from` (as people read it), a field a line. */
void forecast_print(const struct forecast *f, const char *desc, const char *from, FILE *out);
struct cJSON;
struct cJSON *forecast_json(const struct forecast *f);

#endif
