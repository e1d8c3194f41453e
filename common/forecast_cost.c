/* forecast_cost.c: task-when --cost (forecast_cost.h): a stored task or
 * a schedule read as task-add reads it, forecast and printed. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "cron.h"
#include "forecast.h"
#include "forecast_cost.h"
#include "store.h"
#include "task.h"
#include "taskargs.h"
#include "tz.h"
#include "utf8.h"
#include "when.h"

/* When neither reading works, worth reporting as a cron error rather than a
 * time error: a nickname, or a string with a '*' or of four or more words
 * starting with a cron field. */
int
schedule_looks_like_cron(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '@' || strchr(s, '*'))
		return 1;
	int words = 0, first_ok = 1;
	for (const char *p = s; *p;) {
		const char *w = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (words == 0)
			for (const char *q = w; q < p; q++)
				if (!isdigit((unsigned char)*q) && !strchr(",-/", *q))
					first_ok = 0;
		words++;
		while (isspace((unsigned char)*p))
			p++;
	}
	return words >= 4 && first_ok;
}

/* A task to preview: what a task needs besides its schedule. */
void
schedule_preview_init(struct task *t, const struct tz *z)
{
	task_init(t);
	t->name = xstrdup("preview");
	t->prompt = xstrdup("preview");
	t->tz = xstrdup(tz_name(z));
}

/* A schedule alone as --cost reads it, into t (preview_init'd): task-add's
 * flags, else an interval, a cron expression or one instant. */
static int
cost_schedule(struct cost_query *r, const char *sched, struct task *t, struct tz *z,
    struct zones *zs, int64_t now, unsigned flags, struct err *e)
{
	int changed, rc;
	if (r->sched->nkinds) {
		r->sched->tz = r->zone;
		r->sched->when_flags = flags;
		r->sched->creating = 1;
		if (r->sched->every && r->from)
			r->sched->from = r->from;
		return taskargs_apply(r->sched, t, now, zs, &changed, e);
	}
	int64_t secs, anchor, at;
	struct cron cr;
	struct err ce = {{0}};
	if ((rc = when_every(sched, now, z, flags, &secs, &anchor, e)) != ST_NOTFOUND) {
		t->kind = KIND_EVERY;
		t->every = secs > INT32_MAX ? INT32_MAX : (int)secs;
		t->anchor = anchor != TIME_NONE ? anchor : now - (now % 60 + 60) % 60;
		return rc;
	}
	if (cron_parse(sched, &cr, &ce) == ST_OK) {
		t->kind = KIND_CRON;
		t->cron = xstrdup(sched);
		return ST_OK;
	}
	if ((rc = when_read(sched, now, z, flags, &at, e))) {
		if (schedule_looks_like_cron(sched))
			*e = ce;
		return rc;
	}
	t->kind = KIND_AT;
	t->plan = xmalloc(sizeof *t->plan);
	t->plan[0] = at;
	t->nplan = 1;
	return ST_OK;
}

/* --cost: the forecast of a stored task (--id, or a word that names one)
 * or of a schedule, read as task-add would read it. */
int
forecast_cost(struct cost_query *r, const char *sched, int words, struct tz *z, int64_t now, unsigned flags,
    struct err *e)
{
	struct store *st = NULL;
	struct config *cf = NULL;
	struct zones *zs = zones_new();
	struct task t;
	struct forecast f;
	int with_task = 0;
	char id[37], desc[768], from[64];
	struct err sub;
	task_init(&t);
	int rc = config_load(&cf, e) ? ST_ERR : ST_OK;
	if (!rc)
		rc = store_open(NULL, STORE_READ, &st, e);
	if (!rc && (r->id || (words == 1 && !r->sched->nkinds &&
	    store_task_resolve(st, sched, 0, id, &sub) == ST_OK))) {
		with_task = 1;
		if (r->id)
			rc = store_task_resolve(st, r->id, 0, id, e);
		/* t holds nothing yet; a failed read leaves nothing to free. */
		if (!rc && (rc = store_task_get(st, id, &t, e)))
			task_init(&t);
		zones_set_stagger(zs, r->stagger);
	} else if (!rc) {
		schedule_preview_init(&t, z);
		rc = cost_schedule(r, sched, &t, z, zs, now, flags, e);
		if (rc && words == 1 && !r->sched->nkinds && id_prefix_ok(sched))
			err_set(e, rc, "no task '%.40s', and no schedule", sched);
		if (!rc)
			rc = task_finalize(&t, 1, 1, now, zs, e);
	}
	if (!rc)
		rc = forecast_task(st, cf, &t, r->model, with_task, zs, now, &f, e);
	if (rc)
		goto out;
	task_describe(&t, zs, desc, sizeof desc);
	task_fmt_time(&t, zs, now, TIME_WALL_ZONE, from, sizeof from);
	if (r->json) {
		cJSON *o = forecast_json(&f);
		if (with_task) {
			cJSON_AddStringToObject(o, "id", t.id);
			cJSON_AddStringToObject(o, "name", t.name);
		}
		cJSON_AddStringToObject(o, "description", desc);
		cJSON_AddStringToObject(o, "tz", t.tz);
		char *text = cJSON_PrintUnformatted(o);
		if (text)
			puts(text);
		free(text);
		cJSON_Delete(o);
	} else {
		char line[1024], q[112];
		if (with_task)
			snprintf(line, sizeof line, "task %.8s %s: %s (%s)", t.id,
			    utf8_quote(q, 104, t.name, strlen(t.name)), desc, t.tz);
		else
			snprintf(line, sizeof line, "%s (%s)", desc, t.tz);
		forecast_print(&f, line, from, stdout);
	}
out:
	task_free(&t);
	zones_free(zs);
	store_close(st);
	config_free(cf);
	return rc;
}
