/* schedule_list.h: a schedule's next instants as task-when lists them,
 * one a line (RFC 3339, in the zone or UTC) or one JSON object a line,
 * with the schedule's description (task_describe) when asked: of a cron
 * expression, one time expression, an interval, or task-add's flags. */
#ifndef AC_SCHEDULE_LIST_H
#define AC_SCHEDULE_LIST_H

#include <stdint.h>
#include <stdio.h>

#include "cron.h"
#include "taskargs.h"
#include "tz.h"
#include "util.h"

/* What task-when's command line asks for. */
struct schedule_request {
	const char *zone, *from, *until;
	const char *id;           /* --id: the task whose stagger and jitter apply */
	int stagger;              /* the config's */
	long count, runs; /* -n; --count (0: none) */
	int count_given, utc, describe, json, simulate, cost;
	const char *model;        /* --cost --model */
	struct task_args sched; /* task-add's schedule flags, when given */
	FILE *out;                /* where the instants go */
};

/* Instants past 9999-12-31T23:59:59 (in UTC or in z): 1, nothing could
 * read them back. */
int schedule_past_9999(const struct tz *z, int64_t t);
/* Instant t to f; slot, when t is later, is the instant it was put off from. */
void schedule_list_instant(FILE *f, const struct tz *z, int64_t t, int64_t slot, int utc, int json,
    const char *desc);
/* The instants of a cron expression after now, up to r->count or its end. */
int schedule_list_cron(const struct schedule_request *r, const struct cron *cr, const char *sched,
    struct tz *z, int64_t now, unsigned flags, struct err *e);
/* The one instant of a time expression; when it is not one either, the
 * cron error ce is given if sched looks like cron. */
int schedule_list_once(const struct schedule_request *r, const char *sched, const struct err *ce,
    struct tz *z, int64_t now, unsigned flags, struct err *e);
/* A schedule given with task-add's flags (r->sched), read and checked
 * as task-add reads them. */
int schedule_list_flags(struct schedule_request *r, struct tz *z, int64_t now, unsigned flags,
    struct err *e);
/* "every 90 minutes [from TIME]": *done set and the instants listed, or
 * *done 0 when sched is no interval. */
int schedule_list_every(struct schedule_request *r, const char *sched, struct tz *z, int64_t now,
    unsigned flags, int *done, struct err *e);

#endif
