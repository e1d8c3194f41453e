/* The OneClaw profile, after RFC-027 "Scheduled Task Management Tools"
 * (seeds/oneclaw-rfc027-scheduled-task-tools.txt): create_scheduled_task,
 * list_scheduled_tasks, run_scheduled_task, update_scheduled_task and
 * delete_scheduled_task, with its one_time/daily/weekly schedules seen as
 * our at and cron kinds, its messages and its "Next trigger" times. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools_impl.h"

enum { OC_OTHER = -1, OC_ONE_TIME, OC_DAILY, OC_WEEKLY };
static const char *const oc_types[] = {"one_time", "daily", "weekly", NULL};
static const char *const oc_days[] = {"sunday", "monday", "tuesday", "wednesday", "thursday",
	"friday", "saturday"};

/* A task seen as OneClaw's fields. */
struct oc_view {
	int type, hour, minute, dow; /* dow 0 = Sunday, -1 none */
	char date[16];               /* YYYY-MM-DD, or "" */
};

static void
oc_view_of(struct tools *tl, const struct task *t, struct oc_view *v)
{
	int m, h, n = 0;
	char day[16];
	memset(v, 0, sizeof *v);
	v->type = OC_OTHER;
	v->hour = -1;
	v->dow = -1;
	if (t->kind == KIND_CRON && t->cron) {
		if (sscanf(t->cron, "%d %d * * *%n", &m, &h, &n) == 2 && n && !t->cron[n]) {
			v->type = OC_DAILY;
		} else if (n = 0, sscanf(t->cron, "%d %d * * %15[a-zA-Z0-9]%n", &m, &h, day, &n) == 3 &&
		    n && !t->cron[n] && (v->dow = sched_day_parse(day)) >= 0) {
			v->type = OC_WEEKLY;
		} else {
			v->dow = -1;
			return;
		}
		v->hour = h;
		v->minute = m;
	} else if (t->kind == KIND_AT && t->nplan) {
		const struct tz *z;
		struct civil c;
		struct err e;
		if (tools_zone(tl, t->tz, &z, &e))
			return;
		tz_to_civil(z, t->plan[0], &c);
		v->type = OC_ONE_TIME;
		v->hour = c.hour;
		v->minute = c.min;
		snprintf(v->date, sizeof v->date, "%04lld-%02d-%02d", (long long)c.year, c.month, c.day);
	}
}

static void
oc_describe(struct tools *tl, const struct task *t, struct buf *out)
{
	char d[256];
	if (t->kind == KIND_AT && t->nplan) {
		task_fmt_time(t, tl->zs, t->plan[0], TIME_WALL, d, sizeof d);
		buf_printf(out, "One-time on %.10s at %s", d, d + 11);
		return;
	}
	task_describe(t, tl->zs, d, sizeof d);
	buf_puts(out, d);
}

static void
oc_next(struct tools *tl, const struct task *t, char *buf, size_t n)
{
	if (!t->enabled || t->status != STATUS_PENDING || t->next_run_at == TIME_NONE)
		snprintf(buf, n, "None");
	else
		task_fmt_time(t, tl->zs, t->next_run_at, TIME_WALL, buf, n);
}

/* Fill t's schedule from a OneClaw view; ST_INVALID with OneClaw's kind of
 * message when the view is incomplete. */
static int
oc_apply(struct tools *tl, struct task *t, const struct oc_view *v, struct err *e)
{
	char cron[64];
	if (v->type == OC_OTHER)
		return err_set(e, ST_INVALID, "task '%s' has a schedule that is not daily, weekly or "
		    "one-time; give schedule_type with hour and minute", t->name);
	if (v->hour < 0)
		return err_set(e, ST_INVALID, "Hour is required.");
	free(t->plan);
	t->plan = NULL;
	t->nplan = 0;
	set_str(&t->cron, NULL);
	if (v->type == OC_DAILY || v->type == OC_WEEKLY) {
		if (v->type == OC_WEEKLY && v->dow < 0)
			return err_set(e, ST_INVALID, "Day of week is required for weekly tasks.");
		snprintf(cron, sizeof cron, v->type == OC_DAILY ? "%d %d * * *" : "%d %d * * %d",
		    v->minute, v->hour, v->dow);
		t->kind = KIND_CRON;
		set_str(&t->cron, cron);
		return ST_OK;
	}
	if (!v->date[0])
		return err_set(e, ST_INVALID, "Date is required for one-time tasks.");
	const struct tz *z;
	char iso[40];
	int64_t at;
	int rc = tools_zone(tl, t->tz, &z, e);
	if (rc)
		return rc;
	snprintf(iso, sizeof iso, "%.10sT%02d:%02d", v->date, v->hour, v->minute);
	if (tz_parse_iso(z, iso, &at))
		return err_set(e, ST_INVALID, "Date must be in YYYY-MM-DD format.");
	t->kind = KIND_AT;
	t->plan = xcalloc(1, sizeof *t->plan);
	t->plan[0] = at;
	t->nplan = 1;
	return ST_OK;
}

/* Read the schedule arguments into v; which ones were given in *given. */
static int
oc_args(const cJSON *args, struct oc_view *v, int *given, struct err *e)
{
	long n;
	const char *s;
	*given = 0;
	if ((s = tools_arg_str(args, "schedule_type"))) {
		for (v->type = 0; strcasecmp(oc_types[v->type], s) != 0; v->type++)
			;
		*given = 1;
	}
	if (tools_arg_int(args, "hour", &n)) {
		if (n < 0 || n > 23)
			return err_set(e, ST_INVALID, "Hour must be between 0 and 23.");
		v->hour = (int)n;
		*given = 1;
	}
	if (tools_arg_int(args, "minute", &n)) {
		if (n < 0 || n > 59)
			return err_set(e, ST_INVALID, "Minute must be between 0 and 59.");
		v->minute = (int)n;
		*given = 1;
	}
	if ((s = tools_arg_str(args, "day_of_week"))) {
		if ((v->dow = sched_day_parse(s)) < 0)
			return err_set(e, ST_INVALID, "Day of week must be a day name such as 'monday'.");
		*given = 1;
	}
	if ((s = tools_arg_str(args, "date"))) {
		int y, mo, d, k = 0;
		if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &k) != 3 || k != 10 || s[k] || mo < 1 ||
		    mo > 12 || d < 1 || d > days_in_month(y, (unsigned)mo))
			return err_set(e, ST_INVALID, "Date must be in YYYY-MM-DD format.");
		snprintf(v->date, sizeof v->date, "%s", s);
		*given = 1;
	}
	return ST_OK;
}

static int
oc_create(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	char next[64];
	const struct tz *z;
	struct task t;
	struct oc_view v = {OC_OTHER, -1, 0, -1, ""};
	int rc, given, enabled, dup;
	char dup_id[37];
	task_init(&t);
	set_str(&t.name, tools_arg_str(args, "name"));
	set_str(&t.prompt, tools_arg_str(args, "prompt"));
	if (tools_arg_bool(args, "enabled", &enabled))
		t.enabled = enabled;
	if ((rc = tools_local_zone(tl, &t, &z, e)) || (rc = oc_args(args, &v, &given, e)) ||
	    (rc = oc_apply(tl, &t, &v, e)))
		goto out;
	tools_seed_rules(&t);
	if ((rc = tools_task_add(tl, &t, 0, &dup, dup_id, e)))
		goto out;
	oc_next(tl, &t, next, sizeof next);
	buf_printf(out, "Task '%s' created successfully (ID: %s). Schedule: ", t.name, t.id);
	oc_describe(tl, &t, out);
	buf_printf(out, ". Next trigger: %s.", next);
out:
	task_free(&t);
	return rc;
}

struct oc_list {
	struct tools *tl;
	struct buf *out;
	long n;
};

static int
oc_list_one(const struct task *t, void *arg)
{
	struct oc_list *c = arg;
	char when[64];
	buf_printf(c->out, "\n%ld. [id: %s] %s\n   Schedule: ", ++c->n, t->id, t->name);
	oc_describe(c->tl, t, c->out);
	buf_printf(c->out, "\n   Enabled: %s\n   Last execution: ", t->enabled ? "true" : "false");
	if (t->last_run_at == TIME_NONE) {
		buf_puts(c->out, "Never");
	} else {
		task_fmt_time(t, c->tl->zs, t->last_run_at, TIME_WALL, when, sizeof when);
		buf_printf(c->out, "%s - ", when);
		for (const char *p = t->last_status ? t->last_status : "unknown"; *p; p++)
			buf_printf(c->out, "%c", toupper((unsigned char)*p));
	}
	oc_next(c->tl, t, when, sizeof when);
	buf_printf(c->out, "\n   Next trigger: %s\n", when);
	return 0;
}

static int
oc_list(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	(void)args;
	struct task_filter f;
	struct buf body = {0};
	struct oc_list c = {tl, &body, 0};
	long total;
	int rc;
	task_filter_init(&f);
	if ((rc = tools_task_count(tl, &f, &total, e)))
		return rc;
	f.limit = TOOLS_LIST_CAP;
	if ((rc = tools_task_list(tl, &f, oc_list_one, &c, e)) == ST_OK) {
		if (!c.n)
			buf_puts(out, "No scheduled tasks configured.");
		else
			buf_printf(out, "Found %ld scheduled task%s:\n%s", total, total == 1 ? "" : "s",
			    body.data);
		if (total > c.n)
			buf_printf(out, "\n(%ld more not shown.)\n", total - c.n);
	}
	buf_free(&body);
	return rc;
}

static int
oc_get(struct tools *tl, const cJSON *args, struct task *t, struct buf *out, struct err *e)
{
	const char *id = tools_arg_str(args, "task_id");
	int rc = tools_task_get(tl, id, t, e);
	if (rc == ST_NOTFOUND)
		buf_printf(out, "Task not found with ID '%.*s'.", utf8_cut(id, 64), id);
	return rc;
}

static int
oc_run(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc = oc_get(tl, args, &t, out, e);
	if (rc)
		return rc;
	if ((rc = tools_task_queue(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task '%s' has been queued for execution. You will receive a "
		    "notification when it completes.", t.name);
	task_free(&t);
	return rc;
}

static int
oc_delete(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc = oc_get(tl, args, &t, out, e);
	if (rc)
		return rc;
	if ((rc = tools_task_trash(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task '%s' has been deleted. Its alarm has been cancelled.", t.name);
	task_free(&t);
	return rc;
}

static void
oc_value(struct buf *b, int field, const struct task *t, const struct oc_view *v)
{
	switch (field) {
	case 0: buf_puts(b, t->name); break;
	case 1:
		buf_printf(b, "%.*s%s", utf8_cut(t->prompt, 40), t->prompt,
		    strlen(t->prompt) > 40 ? "..." : "");
		break;
	case 2: buf_puts(b, v->type == OC_OTHER ? "other" : oc_types[v->type]); break;
	case 3: buf_printf(b, v->hour < 0 ? "none" : "%d", v->hour); break;
	case 4: buf_printf(b, v->hour < 0 ? "none" : "%d", v->minute); break;
	case 5: buf_puts(b, v->dow < 0 ? "none" : oc_days[v->dow]); break;
	case 6: buf_puts(b, v->date[0] ? v->date : "none"); break;
	default: buf_puts(b, t->enabled ? "true" : "false"); break;
	}
}

static int
oc_update(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	static const char *const fields[] = {"name", "prompt", "schedule_type", "hour", "minute",
		"day_of_week", "date", "enabled"};
	char next[64];
	const char *s;
	struct task old, t;
	struct oc_view vo, v;
	int rc, given, enabled;
	if ((rc = oc_get(tl, args, &old, out, e)))
		return rc;
	task_copy(&t, &old);
	if (old.status == STATUS_RUNNING) {
		rc = err_set(e, ST_REFUSED, "task '%s' is running now; update it when the run has "
		    "finished", old.name);
		goto out;
	}
	if ((s = tools_arg_str(args, "name")) && str_empty(s)) {
		rc = err_set(e, ST_INVALID, "Task name is required.");
		goto out;
	}
	if ((s = tools_arg_str(args, "prompt")) && str_empty(s)) {
		rc = err_set(e, ST_INVALID, "Task prompt is required.");
		goto out;
	}
	if ((s = tools_arg_str(args, "name")))
		set_str(&t.name, s);
	if ((s = tools_arg_str(args, "prompt")))
		set_str(&t.prompt, s);
	if (tools_arg_bool(args, "enabled", &enabled))
		t.enabled = enabled;
	oc_view_of(tl, &old, &vo);
	v = vo;
	if ((rc = oc_args(args, &v, &given, e)) || (given && (rc = oc_apply(tl, &t, &v, e))))
		goto out;
	if (given && t.status != STATUS_PENDING) {
		t.status = STATUS_PENDING; /* a new time re-arms a finished one-time task */
		t.consecutive_failures = 0;
	}
	if ((rc = tools_task_save(tl, &t, given || (t.enabled && !old.enabled), e)))
		goto out;
	buf_printf(out, "Task '%s' updated successfully. Changed fields: ", t.name);
	int n = 0;
	for (int i = 0; i < 8; i++) {
		struct buf a = {0}, b = {0};
		if (!tools_arg(args, fields[i]))
			continue;
		oc_value(&a, i, &old, &vo);
		oc_value(&b, i, &t, &v);
		if (strcmp(a.data, b.data) != 0)
			buf_printf(out, "%s%s (%s -> %s)", n++ ? ", " : "", fields[i], a.data, b.data);
		buf_free(&a);
		buf_free(&b);
	}
	oc_next(tl, &t, next, sizeof next);
	buf_printf(out, "%s. Next trigger: %s.", n ? "" : "none", next);
out:
	task_free(&old);
	task_free(&t);
	return rc;
}

/* ---- the tools ---- */

#define OC_ID {"task_id", "string", "ID of the task (from list_scheduled_tasks).", NULL, 1, \
	"Task ID is required.", NULL}
#define OC_FIELDS(req) \
	{"name", "string", "Task name.", NULL, req, "Task name is required.", NULL}, \
	{"prompt", "string", "The prompt message the agent runs at the trigger time.", NULL, req, \
	    "Task prompt is required.", NULL}, \
	{"schedule_type", "string", "\"one_time\", \"daily\", or \"weekly\".", oc_types, req, \
	    "Schedule type is required: one_time, daily or weekly.", NULL}, \
	{"hour", "integer", "Hour (0-23), local time.", NULL, req, "Hour is required.", NULL}, \
	{"minute", "integer", "Minute (0-59). Default 0.", NULL, 0, NULL, NULL}, \
	{"day_of_week", "string", "Day name for weekly (e.g., \"monday\").", NULL, 0, NULL, NULL}, \
	{"date", "string", "Date for one-time in YYYY-MM-DD format.", NULL, 0, NULL, NULL}, \
	{"enabled", "boolean", "Enable or disable the task.", NULL, 0, NULL, NULL}

static const struct tool_param oc_create_params[] = {OC_FIELDS(1), {0}};
static const struct tool_param oc_update_params[] = {OC_ID, OC_FIELDS(0), {0}};
static const struct tool_param oc_id_params[] = {OC_ID, {0}};
static const struct tool_param no_params[] = {{0}};

const struct tool_def tools_oneclaw_defs[] = {
	{"create_scheduled_task", TOOLS_ONECLAW, "Create a scheduled task that runs a prompt once "
	    "(one_time: date, hour, minute), every day (daily: hour, minute) or every week (weekly: "
	    "day_of_week, hour, minute).", oc_create_params, oc_create, 0},
	{"list_scheduled_tasks", TOOLS_ONECLAW, "List all scheduled tasks with their id, schedule, "
	    "enabled state, last execution and next trigger.", no_params, oc_list, TOOL_READS},
	{"run_scheduled_task", TOOLS_ONECLAW, "Trigger immediate asynchronous execution of a "
	    "scheduled task (also a disabled one).", oc_id_params, oc_run, 0},
	{"update_scheduled_task", TOOLS_ONECLAW, "Update one or more fields of a scheduled task; "
	    "omitted fields keep their current values.", oc_update_params, oc_update, 0},
	{"delete_scheduled_task", TOOLS_ONECLAW, "Permanently remove a scheduled task, cancelling "
	    "its alarm.", oc_id_params, oc_delete, 0},
	{0},
};
