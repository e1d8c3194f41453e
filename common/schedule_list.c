/* A schedule's next instants as task-when lists them (schedule_list.h):
 * read as task-add reads a schedule, so what is listed is what a stored
 * task would do, stagger and jitter included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forecast_cost.h"
#include "schedule_list.h"
#include "task.h"
#include "utf8.h"
#include "when.h"

/* Instants past 9999-12-31T23:59:59, in UTC or in the zone, have no
 * four-digit year: nothing could read them back. */
int
schedule_past_9999(const struct tz *z, int64_t t)
{
	const int64_t last = 253402300799;
	return t > last || t + tz_offset(z, t) > last;
}

static void
json_str(FILE *f, const char *k, const char *v, int comma)
{
	fprintf(f, "%s\"%s\":\"", comma ? "," : "", k);
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Instant t; slot, when t is later, is the instant it was put off from. */
void
schedule_list_instant(FILE *f, const struct tz *z, int64_t t, int64_t slot, int utc, int json,
    const char *desc)
{
	char at[64], local[64], nominal[64];
	time_fmt_utc(t, at, sizeof at);
	tz_fmt_rfc3339(z, t, local, sizeof local);
	if (!json) {
		fprintf(f, "%s\n", utc ? at : local);
		return;
	}
	fputc('{', f);
	json_str(f, "at", at, 0);
	json_str(f, "local", local, 1);
	json_str(f, "tz", tz_name(z), 1);
	if (slot != t) {
		time_fmt_utc(slot, nominal, sizeof nominal);
		json_str(f, "slot", nominal, 1);
	}
	if (desc)
		json_str(f, "description", desc, 1);
	fputs("}\n", f);
}

/* The end of a recurrence read as task-add reads it: --until in the zone
 * at --from, armed from arm (--from, or just before an interval's anchor
 * that task-when lists from).  Errors carry the flag. */
static int
ends(struct task *t, const char *until, int64_t now, int64_t arm, unsigned flags, struct err *e)
{
	const struct tz *z;
	struct err sub;
	struct zones *zs = zones_new();
	int rc = zones_get(zs, t->tz, &z, e);
	if (!rc && until && (rc = when_read(until, now, z, flags, &t->until_at, &sub)))
		err_set(e, rc, "--until: %s", sub.msg);
	if (!rc)
		rc = task_arm_end(t, zs, arm, e);
	zones_free(zs);
	return rc;
}

/* The instants of a cron schedule after now, up to -n or its end. */
int
schedule_list_cron(const struct schedule_request *r, const struct cron *cr, const char *sched,
    struct tz *z, int64_t now, unsigned flags, struct err *e)
{
	struct task task;
	task_init(&task);
	task.kind = KIND_CRON;
	task.cron = xstrdup(sched);
	task.tz = xstrdup(tz_name(z));
	task.count = (int)r->runs;
	int rc = ends(&task, r->until, now, now, flags, e);
	char desc[256];
	task_describe(&task, NULL, desc, sizeof desc);
	int64_t end_at = task.ends_at;
	task_free(&task);
	if (rc)
		return rc;
	long count = r->count;
	if (!r->count_given && end_at != TIME_NONE)
		count = TASK_COUNT_MAX;
	if (r->describe && !r->json)
		fprintf(r->out, "%s\n", desc);
	int64_t t = now;
	for (long i = 0; i < count; i++) {
		t = cron_next(cr, z, t);
		if (end_at != TIME_NONE && t > end_at)
			break;
		if (t < 0 || schedule_past_9999(z, t)) {
			if (i > 0)
				break;
			char f[64], q[112];
			tz_fmt_rfc3339(z, now, f, sizeof f);
			return err_set(e, ST_INVALID, "'%s' never fires after %s%s",
			    utf8_quote(q, 104, sched, strlen(sched)), f,
			    t < 0 ? "" : " before the year 10000");
		}
		schedule_list_instant(r->out, z, t, t, r->utc, r->json, r->describe ? desc : NULL);
	}
	return ST_OK;
}

/* The one instant of a time expression; when it is not one either, the
 * cron error ce is the useful one if sched looks like cron. */
int
schedule_list_once(const struct schedule_request *r, const char *sched, const struct err *ce,
    struct tz *z, int64_t now, unsigned flags, struct err *e)
{
	int64_t t;
	if (when_read(sched, now, z, flags | WHEN_PAST_OK, &t, e) != ST_OK &&
	    schedule_looks_like_cron(sched)) {
		*e = *ce;
		return ST_INVALID;
	}
	int rc = when_read(sched, now, z, flags, &t, e);
	if (rc)
		return rc;
	if (r->until || r->runs) {
		char q[112];
		return err_set(e, ST_INVALID, "--until and --count end a cron schedule; '%s' is "
		    "one instant", utf8_quote(q, 104, sched, strlen(sched)));
	}
	char local[64], desc[256];
	tz_fmt_local(z, t, local, sizeof local);
	char *sp = strchr(local, ' ');
	if (sp)
		*sp = 0;
	snprintf(desc, sizeof desc, "Once on %s at %s", local, sp ? sp + 1 : "");
	if (r->describe && !r->json)
		fprintf(r->out, "%s\n", desc);
	schedule_list_instant(r->out, z, t, t, r->utc, r->json, r->describe ? desc : NULL);
	return ST_OK;
}

/* The instants of task t (its schedule read, not yet checked), strictly
 * after `after`, up to -n or its end. */
/* The delays task-tick would add, as task-add arms them: the config's
 * stagger for the task --id names (without it, the description says what
 * it may be), and --jitter.  desc gets the description. */
static int
preview_delays(const struct schedule_request *r, struct task *t, struct zones *zs, int64_t after,
    char *desc, size_t n, struct err *e)
{
	int64_t first;
	task_describe(t, zs, desc, n);
	if (r->id && (size_t)snprintf(t->id, sizeof t->id, "%s", r->id) >= sizeof t->id)
		return err_set(e, ST_INVALID, "--id '%.40s...' is no task id", r->id);
	zones_set_stagger(zs, r->id ? r->stagger : 0);
	if (r->id || r->stagger <= 0 || t->jitter > 0 || t->stagger == 0 ||
	    task_next_slot(t, zs, after, &first, e) || first == TIME_NONE || !task_staggered(t, zs, first))
		return ST_OK;
	size_t l = strlen(desc);
	if (r->stagger % 60)
		snprintf(desc + l, n - l, ", staggered under %ds per task", r->stagger);
	else
		snprintf(desc + l, n - l, ", staggered under %dm per task", r->stagger / 60);
	return ST_OK;
}

static int
schedule_list_task(struct schedule_request *r, struct task *t, struct zones *zs, struct tz *z,
    int64_t now, int64_t after, unsigned flags, struct err *e)
{
	char desc[256];
	int rc = task_validate(t, zs, e);
	int once = t->kind == KIND_AT || t->kind == KIND_PLAN;
	const char *what = r->sched.nkinds ? r->sched.kinds[0] : "the schedule";
	if (!rc && once && (r->until || r->runs))
		rc = err_set(e, ST_INVALID, "--until and --count end a recurring schedule; %s is not one",
		    what);
	if (!rc && !once) {
		t->count = (int)r->runs;
		rc = ends(t, r->until, now, after, flags, e);
	}
	if (rc)
		return rc;
	if ((rc = preview_delays(r, t, zs, after, desc, sizeof desc, e)))
		return rc;
	if (r->describe && !r->json)
		fprintf(r->out, "%s\n", desc);
	long count = r->count_given || (!once && t->ends_at == TIME_NONE) ? r->count : TASK_COUNT_MAX;
	int64_t s = after;
	long i;
	for (i = 0; i < count; i++) {
		if ((rc = task_next_slot(t, zs, s, &s, e)))
			return rc;
		if (s == TIME_NONE || schedule_past_9999(z, s))
			break;
		schedule_list_instant(r->out, z, s + task_delay(t, zs, s), s, r->utc, r->json,
		    r->describe ? desc : NULL);
	}
	if (i == 0) {
		char f[64];
		tz_fmt_rfc3339(z, now, f, sizeof f);
		rc = err_set(e, ST_INVALID, "%s never fires after %s", what, f);
	}
	return rc;
}

/* The instants of a schedule given with task-add's flags, read and
 * checked as task-add reads them, up to -n or its end.  With --every,
 * --from is its anchor, the first instant listed. */
int
schedule_list_flags(struct schedule_request *r, struct tz *z, int64_t now, unsigned flags,
    struct err *e)
{
	struct task t;
	struct zones *zs = zones_new();
	int changed, rc;
	schedule_preview_init(&t, z);
	r->sched.tz = r->zone;
	r->sched.when_flags = flags;
	r->sched.creating = 1;
	if (r->sched.every && r->from)
		r->sched.from = r->from;
	rc = taskargs_apply(&r->sched, &t, now, zs, &changed, e);
	if (!rc && t.kind == KIND_EVERY && t.anchor == TIME_NONE)
		t.anchor = now - (now % 60 + 60) % 60; /* as task-add: the minute it is made */
	/* A one-shot within the last minute still fires, as task-add takes it. */
	int64_t after = t.kind == KIND_AT || t.kind == KIND_PLAN ? now - 61
	    : t.kind == KIND_EVERY && r->from ? t.anchor - 1 : now;
	if (!rc)
		rc = schedule_list_task(r, &t, zs, z, now, after, flags, e);
	task_free(&t);
	zones_free(zs);
	return rc;
}

/* "every 90 minutes [from TIME]": 1 and the instants listed, 0 when the
 * schedule is no interval, or an error. */
int
schedule_list_every(struct schedule_request *r, const char *sched, struct tz *z, int64_t now,
    unsigned flags, int *done, struct err *e)
{
	int64_t secs, anchor;
	int rc = when_every(sched, now, z, flags, &secs, &anchor, e);
	*done = rc != ST_NOTFOUND;
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	struct task t;
	struct zones *zs = zones_new();
	schedule_preview_init(&t, z);
	t.kind = KIND_EVERY;
	t.every = secs > INT32_MAX ? INT32_MAX : (int)secs;
	t.anchor = anchor != TIME_NONE ? anchor : now - (now % 60 + 60) % 60;
	struct err sub;
	if (r->sched.not_before && (rc = when_read(r->sched.not_before, now, z, flags,
	    &t.not_before, &sub)))
		err_set(e, rc, "--not-before: %s", sub.msg);
	if (!rc)
		rc = schedule_list_task(r, &t, zs, z, now, now, flags, e);
	task_free(&t);
	zones_free(zs);
	return rc;
}

