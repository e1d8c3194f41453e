/* Compatibility profiles, part one: OneClaw RFC-027 and agent-zero's
 * scheduler tools, with the tool names, arguments and return formats their
 * documents give, on the one store.  Each builds a struct task and goes
 * through the shared steps of tools.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cron.h"
#include "tools_impl.h"
#include "tz.h"

#define LIST_CAP 50 /* tasks shown by the listings that have no limit of their own */

/* ---- OneClaw RFC-027 ---- */

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
		if (tool_zone(tl, t->tz, &z, &e))
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
		fmt_local(tl, t, t->plan[0], d, sizeof d);
		buf_printf(out, "One-time on %.10s at %s", d, d + 11);
		return;
	}
	task_describe(t, tl->zs, d, sizeof d);
	buf_puts(out, d);
}

static void
oc_next(struct tools *tl, const struct task *t, char *buf, size_t n)
{
	if (!t->enabled || t->status != STATUS_PENDING)
		snprintf(buf, n, "None");
	else
		fmt_local(tl, t, t->next_run_at, buf, n);
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
	int rc = tool_zone(tl, t->tz, &z, e);
	if (rc)
		return rc;
	snprintf(iso, sizeof iso, "%.10sT%02d:%02d", v->date, v->hour, v->minute);
	if (iso_parse(iso, z, &at))
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
	if ((s = arg_str(args, "schedule_type"))) {
		for (v->type = 0; strcasecmp(oc_types[v->type], s) != 0; v->type++)
			;
		*given = 1;
	}
	if (arg_int(args, "hour", &n)) {
		if (n < 0 || n > 23)
			return err_set(e, ST_INVALID, "Hour must be between 0 and 23.");
		v->hour = (int)n;
		*given = 1;
	}
	if (arg_int(args, "minute", &n)) {
		if (n < 0 || n > 59)
			return err_set(e, ST_INVALID, "Minute must be between 0 and 59.");
		v->minute = (int)n;
		*given = 1;
	}
	if ((s = arg_str(args, "day_of_week"))) {
		if ((v->dow = sched_day_parse(s)) < 0)
			return err_set(e, ST_INVALID, "Day of week must be a day name such as 'monday'.");
		*given = 1;
	}
	if ((s = arg_str(args, "date"))) {
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
	struct task t;
	struct oc_view v = {OC_OTHER, -1, 0, -1, ""};
	int rc, given, enabled, dup;
	char dup_id[37];
	task_init(&t);
	set_str(&t.name, arg_str(args, "name"));
	set_str(&t.prompt, arg_str(args, "prompt"));
	if (arg_bool(args, "enabled", &enabled))
		t.enabled = enabled;
	char local[128];
	tool_local_zone(local, sizeof local);
	set_str(&t.tz, local);
	if ((rc = oc_args(args, &v, &given, e)) || (rc = oc_apply(tl, &t, &v, e)) ||
	    (rc = tool_task_add(tl, &t, 0, &dup, dup_id, e)))
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
		fmt_local(c->tl, t, t->last_run_at, when, sizeof when);
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
	if ((rc = store_task_count(tl->st, &f, &total, e)))
		return rc;
	f.limit = LIST_CAP;
	if ((rc = store_task_list(tl->st, &f, oc_list_one, &c, e)) == ST_OK) {
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
	const char *id = arg_str(args, "task_id");
	int rc = tool_task_get(tl, id, t, e);
	if (rc == ST_NOTFOUND)
		buf_printf(out, "Task not found with ID '%.64s'.", id);
	return rc;
}

static int
oc_run(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc = oc_get(tl, args, &t, out, e);
	if (rc)
		return rc;
	if ((rc = tool_task_queue(tl, &t, e)) == ST_OK)
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
	if ((rc = tool_task_trash(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task '%s' has been deleted. Its alarm has been cancelled.", t.name);
	task_free(&t);
	return rc;
}

static void
oc_value(struct buf *b, int field, const struct task *t, const struct oc_view *v)
{
	switch (field) {
	case 0: buf_puts(b, t->name); break;
	case 1: buf_printf(b, "%.40s%s", t->prompt, strlen(t->prompt) > 40 ? "..." : ""); break;
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
	if ((s = arg_str(args, "name")) && str_empty(s)) {
		rc = err_set(e, ST_INVALID, "Task name is required.");
		goto out;
	}
	if ((s = arg_str(args, "prompt")) && str_empty(s)) {
		rc = err_set(e, ST_INVALID, "Task prompt is required.");
		goto out;
	}
	if ((s = arg_str(args, "name")))
		set_str(&t.name, s);
	if ((s = arg_str(args, "prompt")))
		set_str(&t.prompt, s);
	if (arg_bool(args, "enabled", &enabled))
		t.enabled = enabled;
	oc_view_of(tl, &old, &vo);
	v = vo;
	if ((rc = oc_args(args, &v, &given, e)) || (given && (rc = oc_apply(tl, &t, &v, e))))
		goto out;
	if (given && t.status != STATUS_PENDING) {
		t.status = STATUS_PENDING; /* a new time re-arms a finished one-time task */
		t.consecutive_failures = 0;
	}
	if ((rc = tool_task_save(tl, &t, given || (t.enabled && !old.enabled), e)))
		goto out;
	buf_printf(out, "Task '%s' updated successfully. Changed fields: ", t.name);
	int n = 0;
	for (int i = 0; i < 8; i++) {
		struct buf a = {0}, b = {0};
		if (!arg_get(args, fields[i]))
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

/* ---- agent-zero ---- */

static const char *const az_states[] = {"idle", "running", "disabled", "error", NULL};
static const char *const az_types[] = {"adhoc", "planned", "scheduled", NULL};

/* Its state from our status and enabled flag: a failed last run is an
 * error until the next good one, as in agent-zero. */
static const char *
az_state(const struct task *t)
{
	if (t->status == STATUS_RUNNING)
		return "running";
	if (t->status == STATUS_CANCELLED || !t->enabled)
		return "disabled";
	if (t->status == STATUS_FAILED || (t->last_status && strcmp(t->last_status, "success") != 0))
		return "error";
	return "idle";
}

static const char *
az_type(const struct task *t)
{
	return t->kind == KIND_CRON || t->kind == KIND_HEARTBEAT ? "scheduled"
	    : t->kind == KIND_MANUAL ? "adhoc" : "planned";
}

static cJSON *
az_time(struct tools *tl, const struct task *t, int64_t when)
{
	char buf[64];
	if (when == TIME_NONE)
		return cJSON_CreateNull();
	fmt_rfc3339(tl, t, when, buf, sizeof buf);
	return cJSON_CreateString(buf);
}

static cJSON *
az_schedule(struct tools *tl, const struct task *t)
{
	static const char *const keys[] = {"minute", "hour", "day", "month", "weekday"};
	if (t->kind == KIND_CRON && t->cron) {
		cJSON *o = cJSON_CreateObject();
		char f[5][64] = {"", "", "", "", ""};
		if (sscanf(t->cron, "%63s %63s %63s %63s %63s", f[0], f[1], f[2], f[3], f[4]) == 5) {
			for (int i = 0; i < 5; i++)
				cJSON_AddStringToObject(o, keys[i], f[i]);
		} else {
			cJSON_AddStringToObject(o, "cron", t->cron); /* @daily and friends */
		}
		cJSON_AddStringToObject(o, "timezone", t->tz);
		return o;
	}
	if (t->kind == KIND_AT || t->kind == KIND_PLAN) {
		cJSON *a = cJSON_CreateArray();
		for (size_t i = 0; i < t->nplan; i++)
			cJSON_AddItemToArray(a, az_time(tl, t, t->plan[i]));
		return a;
	}
	return cJSON_CreateNull();
}

static cJSON *
az_task(struct tools *tl, const struct task *t, int full)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "uuid", t->id);
	cJSON_AddStringToObject(o, "name", t->name);
	cJSON_AddStringToObject(o, "type", az_type(t));
	cJSON_AddStringToObject(o, "state", az_state(t));
	cJSON_AddItemToObject(o, strcmp(az_type(t), "planned") == 0 ? "plan" : "schedule",
	    az_schedule(tl, t));
	cJSON_AddItemToObject(o, "next_run", az_time(tl, t, t->enabled &&
	    t->status == STATUS_PENDING ? t->next_run_at : TIME_NONE));
	if (!full)
		return o;
	cJSON_AddStringToObject(o, "system_prompt", t->system_prompt ? t->system_prompt : "");
	cJSON_AddStringToObject(o, "prompt", t->prompt);
	cJSON *att = t->attachments ? cJSON_Parse(t->attachments) : NULL;
	cJSON_AddItemToObject(o, "attachments", att ? att : cJSON_CreateArray());
	if (t->context)
		cJSON_AddStringToObject(o, "context_id", t->context);
	else
		cJSON_AddNullToObject(o, "context_id");
	cJSON_AddBoolToObject(o, "dedicated_context", !t->context);
	cJSON_AddItemToObject(o, "last_run", az_time(tl, t, t->last_run_at));
	if (t->last_result)
		cJSON_AddStringToObject(o, "last_result", t->last_result);
	else
		cJSON_AddNullToObject(o, "last_result");
	cJSON_AddItemToObject(o, "created_at", az_time(tl, t, t->created_at));
	cJSON_AddItemToObject(o, "updated_at", az_time(tl, t, t->updated_at));
	return o;
}

/* JSON as agent-zero prints it (Python's json.dumps with indent=4). */
static void
json_pretty(const cJSON *j, int depth, struct buf *out)
{
	int obj = cJSON_IsObject(j);
	if (!obj && !cJSON_IsArray(j)) {
		char *s = cJSON_PrintUnformatted(j);
		buf_puts(out, s ? s : "null");
		free(s);
		return;
	}
	if (!j->child) {
		buf_puts(out, obj ? "{}" : "[]");
		return;
	}
	buf_puts(out, obj ? "{\n" : "[\n");
	for (const cJSON *it = j->child; it; it = it->next) {
		buf_printf(out, "%*s", (depth + 1) * 4, "");
		if (obj) {
			cJSON *key = cJSON_CreateString(it->string);
			char *k = cJSON_PrintUnformatted(key);
			buf_printf(out, "%s: ", k);
			free(k);
			cJSON_Delete(key);
		}
		json_pretty(it, depth + 1, out);
		buf_puts(out, it->next ? ",\n" : "\n");
	}
	buf_printf(out, "%*s%c", depth * 4, "", obj ? '}' : ']');
}

struct az_list {
	struct tools *tl;
	const cJSON *states;
	cJSON *arr;
	long n;
};

static int
az_list_one(const struct task *t, void *arg)
{
	struct az_list *c = arg;
	const cJSON *it;
	if (c->states) {
		int keep = cJSON_IsString(c->states) &&
		    strcasecmp(c->states->valuestring, az_state(t)) == 0;
		cJSON_ArrayForEach(it, c->states) keep |= strcasecmp(it->valuestring, az_state(t)) == 0;
		if (!keep)
			return 0;
	}
	if (++c->n <= LIST_CAP)
		cJSON_AddItemToArray(c->arr, az_task(c->tl, t, 0));
	return 0;
}

static int
az_list(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const cJSON *types = arg_get(args, "type"), *it;
	struct task_filter f;
	int rc;
	task_filter_init(&f);
	f.now = tl->now;
	const cJSON *tlist = cJSON_IsArray(types) ? types : NULL;
	for (int i = 0; types && i < 3; i++) {
		int want = cJSON_IsString(types) && strcasecmp(types->valuestring, az_types[i]) == 0;
		cJSON_ArrayForEach(it, tlist)
			want |= strcasecmp(it->valuestring, az_types[i]) == 0;
		if (want)
			f.kinds |= i == 0 ? 1u << KIND_MANUAL : i == 1 ? (1u << KIND_AT | 1u << KIND_PLAN)
			    : (1u << KIND_CRON | 1u << KIND_HEARTBEAT);
	}
	if (types && !f.kinds)
		f.kinds = 1u << KIND_COUNT; /* an empty list of types matches nothing */
	if ((rc = arg_minutes(args, "next_run_within", &f.due_within, e)) ||
	    (rc = arg_minutes(args, "next_run_after", &f.due_after, e)))
		return rc;
	struct az_list c = {tl, arg_get(args, "state"), cJSON_CreateArray(), 0};
	if ((rc = store_task_list(tl->st, &f, az_list_one, &c, e)) == ST_OK) {
		json_pretty(c.arr, 0, out);
		if (c.n > LIST_CAP)
			buf_printf(out, "\n(%ld tasks match; the first %d are shown. Narrow the filters.)",
			    c.n, LIST_CAP);
	}
	cJSON_Delete(c.arr);
	return rc;
}

static int
az_get(struct tools *tl, const cJSON *args, struct task *t, struct buf *out, struct err *e)
{
	const char *id = arg_str(args, "uuid");
	int rc = tool_task_get(tl, id, t, e);
	if (rc == ST_NOTFOUND)
		buf_printf(out, "Task not found: %.64s", id);
	return rc;
}

static int
az_show(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc = az_get(tl, args, &t, out, e);
	if (rc)
		return rc;
	cJSON *o = az_task(tl, &t, 1);
	json_pretty(o, 0, out);
	cJSON_Delete(o);
	task_free(&t);
	return ST_OK;
}

static int
az_run(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc = az_get(tl, args, &t, out, e);
	if (rc)
		return rc;
	if (t.status == STATUS_RUNNING) {
		buf_printf(out, "Task is already running: %s", t.id);
		rc = ST_REFUSED;
	} else if ((rc = tool_task_queue(tl, &t, e)) == ST_OK) {
		buf_printf(out, "Task queued: %s (it starts at the scheduler's next pass)", t.id);
	}
	task_free(&t);
	return rc;
}

static int
az_delete(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc = az_get(tl, args, &t, out, e);
	if (rc)
		return rc;
	if ((rc = tool_task_trash(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task deleted: %s", t.id);
	task_free(&t);
	return rc;
}

/* The fields every create shares: names, prompts, attachments, and the
 * context: not dedicated means the chat the task was created in, which is
 * TASK_CONTEXT when an agent creates it during a run, else one shared
 * conversation named "agent-zero". */
static void
az_common(const cJSON *args, struct task *t)
{
	char local[128];
	int dedicated = 0;
	const cJSON *att = arg_get(args, "attachments");
	set_str(&t->name, arg_str(args, "name"));
	set_str(&t->prompt, arg_str(args, "prompt"));
	const char *sys = arg_str(args, "system_prompt");
	set_str(&t->system_prompt, sys && *sys ? sys : NULL);
	if (cJSON_IsString(att)) {
		cJSON *a = cJSON_CreateArray();
		cJSON_AddItemToArray(a, cJSON_CreateString(att->valuestring));
		t->attachments = cJSON_PrintUnformatted(a);
		cJSON_Delete(a);
	} else if (cJSON_GetArraySize(att) > 0) {
		t->attachments = cJSON_PrintUnformatted(att);
	}
	arg_bool(args, "dedicated_context", &dedicated);
	if (!dedicated) {
		const char *chat = getenv("TASK_CONTEXT");
		set_str(&t->context, chat && *chat ? chat : "agent-zero");
	}
	tool_local_zone(local, sizeof local);
	set_str(&t->tz, local);
}

static int
az_add(struct tools *tl, struct task *t, const char *label, struct buf *out, struct err *e)
{
	int dup, rc;
	char dup_id[37];
	if ((rc = tool_task_add(tl, t, 0, &dup, dup_id, e)) == ST_OK)
		buf_printf(out, "%s task '%s' created: %s", label, t->name, t->id);
	return rc;
}

static int
az_create_scheduled(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	static const char *const keys[] = {"minute", "hour", "day", "month", "weekday"};
	const cJSON *sched = arg_get(args, "schedule"), *it;
	char f[5][64];
	struct task t;
	struct cron c;
	struct err ce;
	int rc;
	cJSON_ArrayForEach(it, sched) {
		int known = strcmp(it->string, "timezone") == 0;
		for (int i = 0; i < 5; i++)
			known |= strcmp(it->string, keys[i]) == 0;
		if (!known || !(cJSON_IsString(it) || cJSON_IsNumber(it))) {
			buf_printf(out, "Invalid schedule key '%.32s': the schedule takes minute, hour, "
			    "day, month, weekday (cron field strings) and timezone.", it->string);
			return ST_INVALID;
		}
	}
	for (int i = 0; i < 5; i++) {
		const char *v = arg_str(sched, keys[i]);
		snprintf(f[i], sizeof f[i], "%s", v && *v ? v : "*");
	}
	task_init(&t);
	az_common(args, &t);
	t.kind = KIND_CRON;
	t.cron = xasprintf("%s %s %s %s %s", f[0], f[1], f[2], f[3], f[4]);
	if (cron_parse(t.cron, &c, &ce)) {
		buf_printf(out, "Invalid cron expression: %s (%s).", t.cron, ce.msg);
		rc = ST_INVALID;
		goto out;
	}
	const char *zone = arg_str(sched, "timezone");
	const struct tz *z;
	if (zone && *zone) {
		if ((rc = tool_zone(tl, zone, &z, e)))
			goto out;
		set_str(&t.tz, tz_name(z));
	}
	rc = az_add(tl, &t, "Scheduled", out, e);
out:
	task_free(&t);
	return rc;
}

static int
az_create_adhoc(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc;
	task_init(&t);
	t.kind = KIND_MANUAL;
	az_common(args, &t);
	rc = az_add(tl, &t, "Adhoc", out, e);
	task_free(&t);
	return rc;
}

static int
cmp_time(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int
az_create_planned(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const cJSON *plan = arg_get(args, "plan"), *it;
	const struct tz *z;
	struct task t;
	int rc;
	task_init(&t);
	t.kind = KIND_PLAN;
	az_common(args, &t);
	if ((rc = tool_zone(tl, t.tz, &z, e)))
		goto out;
	t.plan = xcalloc((size_t)cJSON_GetArraySize(plan) + 1, sizeof *t.plan);
	const cJSON *items = cJSON_IsArray(plan) ? plan : NULL;
	cJSON_ArrayForEach(it, items) {
		if (iso_parse(it->valuestring, z, &t.plan[t.nplan])) {
			buf_printf(out, "Invalid datetime: %.64s", it->valuestring);
			rc = ST_INVALID;
			goto out;
		}
		t.nplan++;
	}
	if (cJSON_IsString(plan) && iso_parse(plan->valuestring, z, &t.plan[t.nplan++])) {
		buf_printf(out, "Invalid datetime: %.64s", plan->valuestring);
		rc = ST_INVALID;
		goto out;
	}
	if (!t.nplan) {
		buf_puts(out, "The plan needs at least one datetime.");
		rc = ST_INVALID;
		goto out;
	}
	qsort(t.plan, t.nplan, sizeof *t.plan, cmp_time);
	size_t w = 0; /* the same instant twice is one run */
	for (size_t i = 0; i < t.nplan; i++)
		if (!w || t.plan[i] != t.plan[w - 1])
			t.plan[w++] = t.plan[i];
	t.nplan = w;
	rc = az_add(tl, &t, "Planned", out, e);
out:
	task_free(&t);
	return rc;
}

/* ---- the tables ---- */

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

#define AZ_UUID(what) {"uuid", "string", "The uuid of the task to " what ". Can be retrieved " \
	"for example from \"scheduler:list_tasks\".", NULL, 1, "Task UUID is required", NULL}
#define AZ_HEAD \
	{"name", "string", "The name of the task, will also be displayed when listing tasks.", \
	    NULL, 1, NULL, NULL}, \
	{"system_prompt", "string", "The system prompt to be used when executing the task.", NULL, \
	    0, NULL, NULL}, \
	{"prompt", "string", "The actual prompt with the task definition.", NULL, 1, NULL, NULL}
#define AZ_TAIL \
	{"attachments", "array", "Message attachments: filesystem paths and internet urls.", NULL, \
	    0, NULL, NULL}, \
	{"dedicated_context", "boolean", "If false (the default), the task runs in the context it " \
	    "was created in, with its history. If true, the task has its own context.", NULL, 0, \
	    NULL, NULL}

static const struct tool_param az_schedule_props[] = {
	{"minute", "string", "Cron minute field, e.g. \"*/20\".", NULL, 0, NULL, NULL},
	{"hour", "string", "Cron hour field.", NULL, 0, NULL, NULL},
	{"day", "string", "Cron day-of-month field.", NULL, 0, NULL, NULL},
	{"month", "string", "Cron month field.", NULL, 0, NULL, NULL},
	{"weekday", "string", "Cron day-of-week field (0 = Sunday).", NULL, 0, NULL, NULL},
	{"timezone", "string", "IANA time zone the fields are read in. Default: local.", NULL, 0,
	    NULL, NULL},
	{0},
};
static const struct tool_param az_list_params[] = {
	{"state", "array", "Only tasks in these states.", az_states, 0, NULL, NULL},
	{"type", "array", "Only tasks of these types.", az_types, 0, NULL, NULL},
	{"next_run_within", "integer", "The next run of the task must be within this many minutes.",
	    NULL, 0, NULL, NULL},
	{"next_run_after", "integer", "The next run of the task must be at least this many minutes "
	    "away.", NULL, 0, NULL, NULL},
	{0},
};
static const struct tool_param az_show_params[] = {AZ_UUID("display"), {0}};
static const struct tool_param az_run_params[] = {AZ_UUID("run"), {0}};
static const struct tool_param az_delete_params[] = {AZ_UUID("delete"), {0}};
static const struct tool_param az_scheduled_params[] = {AZ_HEAD,
	{"schedule", "object", "The cron schedule values; the keys are minute, hour, day, month, "
	    "weekday, each a cron syntax field (missing ones are \"*\").", NULL, 1, NULL,
	    az_schedule_props},
	AZ_TAIL, {0}};
static const struct tool_param az_adhoc_params[] = {AZ_HEAD, AZ_TAIL, {0}};
static const struct tool_param az_planned_params[] = {AZ_HEAD,
	{"plan", "array", "All execution timestamps, ISO format \"%Y-%m-%dT%H:%M:%S\" (24 hour), in "
	    "local time unless an offset is given.", NULL, 1, NULL, NULL},
	AZ_TAIL, {0}};

const struct tool_def compat_tools[] = {
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
	{"scheduler:list_tasks", TOOLS_AGENTZERO, "List all tasks with their uuid, name, type, "
	    "state, schedule and next_run; all filters are optional.", az_list_params, az_list,
	    TOOL_READS},
	{"scheduler:show_task", TOOLS_AGENTZERO, "Show task details for the scheduler task with the "
	    "given uuid.", az_show_params, az_show, TOOL_READS},
	{"scheduler:run_task", TOOLS_AGENTZERO, "Execute a task manually which is not in \"running\" "
	    "state. Normally run only \"idle\" tasks, and best only \"adhoc\" ones.", az_run_params,
	    az_run, 0},
	{"scheduler:delete_task", TOOLS_AGENTZERO, "Delete the task with the given uuid from the "
	    "system.", az_delete_params, az_delete, 0},
	{"scheduler:create_scheduled_task", TOOLS_AGENTZERO, "Create a task of type \"scheduled\", "
	    "run by the cron schedule you provide.", az_scheduled_params, az_create_scheduled, 0},
	{"scheduler:create_adhoc_task", TOOLS_AGENTZERO, "Create a task of type \"adhoc\", run "
	    "manually by \"scheduler:run_task\" or by the user.", az_adhoc_params, az_create_adhoc, 0},
	{"scheduler:create_planned_task", TOOLS_AGENTZERO, "Create a task of type \"planned\", run "
	    "at each datetime of the plan you provide.", az_planned_params, az_create_planned, 0},
	{0},
};
