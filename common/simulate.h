/* simulate.h: the days ahead of every enabled task, counted without
 * firing anything (task-when --simulate): fires per minute after stagger
 * and jitter (and a follower's runs in its upstream's minute, as
 * forecast_runs counts them), the busiest minutes, fires per task, the
 * zones' clock changes met, and the spend expected from each task's
 * recent model calls against the budgets. */
#ifndef AC_SIMULATE_H
#define AC_SIMULATE_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct config;
struct store;
struct tz;
struct sim;

#define SIM_MAX_SECS (366 * 86400) /* a year at most: a count per minute is kept */
#define SIM_COST_DAYS 30           /* a fire costs the mean of the calls of these last days */

/* Counts the fires of the enabled tasks in [from, from + secs), days
 * ending in zone z (not owned, kept for printing). */
int sim_run(struct store *st, const struct config *cf, const struct tz *z, int64_t from,
    int64_t secs, struct sim **out, struct err *e);
void sim_print_text(const struct sim *s, FILE *f, int histogram);
void sim_print_json(const struct sim *s, FILE *f);
void sim_free(struct sim *s);
/* task-when --simulate [DURATION] (default 7d): the store and config
 * opened, the span counted and printed (a histogram on a terminal). */
int sim_command(const char *duration, const struct tz *z, int64_t now, int json, struct err *e);

#endif
