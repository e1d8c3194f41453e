/* spend.h: what model calls cost and what tasks may spend.  Prices come
 * from the configuration file (`price.MODEL = IN OUT`, US dollars per
 * million input and output tokens); a budget is AMOUNT/PERIOD, dollars
 * (`$2`, `2usd`) or tokens (`200000`, `200k`, `1.5M`) per day, week
 * (from Monday) or month, counted in a zone from the start of the period
 * that holds "now".  What was spent is read from the store's spend
 * ledger, which pruning does not touch, so every host sharing a store
 * counts the same; a run in flight counts what it reserved until it has
 * spent more. */
#ifndef AC_SPEND_H
#define AC_SPEND_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct config;
struct store;
struct task;
struct tz;
struct zones;

enum { PERIOD_DAY, PERIOD_WEEK, PERIOD_MONTH };

struct budget {
	int set;               /* 0: no budget */
	int dollars;           /* 1: amount is dollars, 0: tokens */
	double amount;
	int period;            /* PERIOD_* */
};

/* Spent in a window: dollars of the calls that have a price, and tokens of
 * all of them (input and output). */
struct spend {
	double dollars;
	long long tokens;
};

#define SPEND_LEFT_ENV "TASK_BUDGET_LEFT" /* what a run may still spend */

/* budget.c */
/* "$2/day", "2usd/week", "200k/month", "1.5M/day"; "none" (or "") is no
 * budget.  ST_INVALID with what was expected. */
int budget_parse(const char *s, struct budget *b, struct err *e);
void budget_fmt(const struct budget *b, char *buf, size_t n); /* "$2/day", "200000/month" */
/* The price of model in cf: 1 with *in and *out set, 0 when it has none;
 * ST_INVALID (negative) for a price line that does not read. */
int price_of(const struct config *cf, const char *model, double *in, double *out, struct err *e);
double price_cost(double in, double out, long in_tokens, long out_tokens);
void money_fmt(double dollars, char *buf, size_t n);          /* "$2.03", "$0.0004", "$0.000012" */
/* A budget as a person typed it, before budget_parse: ST_INVALID for what
 * reads wrong though it parses ("5/day": tokens, not dollars) or a shell
 * ate ("/day": "$5/day" in double quotes), the message saying what to write. */
int budget_check_input(const char *s, struct err *e);
void budget_describe(const struct budget *b, char *buf, size_t n); /* "$5.00 a day" */
/* The first instant of the period of b that holds now, in zone z. */
int64_t budget_window(int period, const struct tz *z, int64_t now);
/* Over its budget: what was spent reached the amount. */
int budget_over(const struct budget *b, const struct spend *s);
/* "budget: $2.03 of $2.00 this day", with " (all tasks)" when global. */
void budget_reason(const struct budget *b, const struct spend *s, int global, char *buf, size_t n);
/* SPEND_LEFT_ENV's value ("$0.37", "12000", "$0.37,12000") into what is
 * left in dollars and in tokens (-1: no bound); -1 if it does not read. */
int spend_left_parse(const char *s, double *dollars, double *tokens);

/* spend.c */
/* A task's budget and the global one (config `budget`, counted in the
 * config's or local zone), checked against the store. */
struct spend_check {
	struct budget global;
	const char *tz;        /* the global budget's zone: the config's, else NULL (local) */
	/* What all tasks spent, read once per claim (nothing is recorded
	 * inside one): valid while gwindow is the window until
	 * spend_check_fresh; after it, still valid while the store says no
	 * other connection wrote (gversion; model calls are recorded by the
	 * programs that make them, never by the one that checks). */
	int64_t gwindow, gversion;
	int gstale;
	struct spend gspent;
	const char *except_run; /* a run whose own reservation is not counted, or NULL */
	/* The last reservations made since the global read (in gspent), so
	 * that a run's own can be left out without reading again: a ring of
	 * nrs, the next at rs_next. */
	struct { char run[37]; double dollars; long long tokens; } rs[64];
	int nrs, rs_next;
	/* Whether one since the read reserved more than nothing: its end
	 * changes what is spent, so the next round reads again. */
	int settles;
	/* What a run of any task spent lately, the expectation of a task's
	 * first run: read again once RECENT_MS old (mono_ms; 0: never read). */
	int64_t recent_at;
	struct spend recent;
	int recent_known;
};
void spend_check_fresh(struct spend_check *c);
int spend_check_init(struct spend_check *c, const struct config *cf, struct err *e);
/* Is t over its budget or the global one?  *over = 1 with why (the
 * reason on record), *window and *until (may be NULL) the start and the
 * end of the window that is over;
 * left (nleft bytes): what a run may still spend, for SPEND_LEFT_ENV: ""
 * when no budget applies, else "$0.37", "12000" or both, comma-separated. */
int spend_check_task(struct spend_check *c, struct store *st, const struct task *t,
    struct zones *zs, int64_t now, int *over, char *why, size_t nwhy, int64_t *window,
    int64_t *until, char *left, size_t nleft, struct err *e);
/* Run run_id of t, just claimed, reserves what t's recent runs spent (else
 * any task's) against its budget and the global one: the store counts it
 * while the run is in flight, and so does c until its next fresh read. */
int spend_reserve(struct spend_check *c, struct store *st, const struct task *t, const char *run_id,
    struct err *e);

#endif
