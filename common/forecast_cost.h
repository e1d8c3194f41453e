/* forecast_cost.h: task-when --cost ID|SCHEDULE: the forecast (forecast.h)
 * of a stored task, or of a schedule alone (task-add's flags, an
 * interval, a cron expression or one instant), printed as text or JSON;
 * and how task-when reads a schedule to preview it. */
#ifndef AC_FORECAST_COST_H
#define AC_FORECAST_COST_H

#include <stdint.h>

#include "util.h"

struct task;
struct task_args;
struct tz;

/* What task-when's command line asks of --cost. */
struct cost_query {
	const char *zone, *from;
	const char *id;            /* --id: the task */
	const char *model;         /* --model, or NULL */
	int stagger, json;         /* the config's stagger; --json */
	struct task_args *sched;   /* task-add's schedule flags, when given */
};

/* The forecast of the task r->id, or sched when it is one word naming a
 * task (words: the operands), else of the schedule sched. */
int forecast_cost(struct cost_query *r, const char *sched, int words, struct tz *z, int64_t now,
    unsigned flags, struct err *e);
/* When neither reading works, a cron error is worth reporting rather than
 * a time error: a nickname, a '*', or four or more words from a cron field. */
int schedule_looks_like_cron(const char *s);
/* A task to preview: what a task needs besides its schedule, in zone z. */
void schedule_preview_init(struct task *t, const struct tz *z);

#endif
