/* The agent-zero profile, after its task scheduler's tools
 * (seeds/agent-zero-task-scheduler.txt): scheduler:list_tasks, :show_task,
 * :run_task, :delete_task and the three creates (scheduled is our cron,
 * planned a plan, adhoc manual), answering in agent-zero's JSON shapes
 * with its states and its dedicated or shared contexts. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cron.h"
#include "tools_impl.h"

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
	task_fmt_time(t, tl->zs, when, TIME_RFC3339, buf, sizeof buf);
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
	if (++c->n <= TOOLS_LIST_CAP)
		cJSON_AddItemToArray(c->arr, az_task(c->tl, t, 0));
	return 0;
}

static int
az_list(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const cJSON *types = tools_arg(args, "type"), *it;
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
	if ((rc = tools_arg_minutes(args, "next_run_within", &f.due_within, e)) ||
	    (rc = tools_arg_minutes(args, "next_run_after", &f.due_after, e)))
		return rc;
	struct az_list c = {tl, tools_arg(args, "state"), cJSON_CreateArray(), 0};
	if ((rc = tools_task_list(tl, &f, az_list_one, &c, e)) == ST_OK) {
		json_pretty(c.arr, 0, out);
		if (c.n > TOOLS_LIST_CAP)
			buf_printf(out, "\n(%ld tasks match; the first %d are shown. Narrow the filters.)",
			    c.n, TOOLS_LIST_CAP);
	}
	cJSON_Delete(c.arr);
	return rc;
}

static int
az_get(struct tools *tl, const cJSON *args, struct task *t, struct buf *out, struct err *e)
{
	const char *id = tools_arg_str(args, "uuid");
	int rc = tools_task_get(tl, id, t, e);
	if (rc == ST_NOTFOUND)
		buf_printf(out, "Task not found: %.*s", utf8_cut(id, 64), id);
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
	} else if ((rc = tools_task_queue(tl, &t, e)) == ST_OK) {
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
	if ((rc = tools_task_trash(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task deleted: %s", t.id);
	task_free(&t);
	return rc;
}

/* The fields every create shares: names, prompts, attachments, and the
 * context: not dedicated means the chat the task was created in, which is
 * TASK_CONTEXT when an agent creates it during a run, else one shared
 * conversation named "agent-zero". */
static void
az_common(struct tools *tl, const cJSON *args, struct task *t)
{
	int dedicated = 0;
	const cJSON *att = tools_arg(args, "attachments");
	set_str(&t->name, tools_arg_str(args, "name"));
	set_str(&t->prompt, tools_arg_str(args, "prompt"));
	const char *sys = tools_arg_str(args, "system_prompt");
	set_str(&t->system_prompt, sys && *sys ? sys : NULL);
	if (cJSON_IsString(att)) {
		cJSON *a = cJSON_CreateArray();
		cJSON_AddItemToArray(a, cJSON_CreateString(att->valuestring));
		t->attachments = cJSON_PrintUnformatted(a);
		cJSON_Delete(a);
	} else if (cJSON_GetArraySize(att) > 0) {
		t->attachments = cJSON_PrintUnformatted(att);
	}
	tools_arg_bool(args, "dedicated_context", &dedicated);
	if (!dedicated) {
		const char *chat = getenv("TASK_CONTEXT");
		set_str(&t->context, chat && *chat ? chat : "agent-zero");
	}
	set_str(&t->tz, zones_local(tl->zs));
}

static int
az_add(struct tools *tl, struct task *t, const char *label, struct buf *out, struct err *e)
{
	int dup, rc;
	char dup_id[37];
	tools_seed_rules(t);
	if ((rc = tools_task_add(tl, t, 0, &dup, dup_id, e)) == ST_OK)
		buf_printf(out, "%s task '%s' created: %s", label, t->name, t->id);
	return rc;
}

static int
az_create_scheduled(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	static const char *const keys[] = {"minute", "hour", "day", "month", "weekday"};
	const cJSON *sched = tools_arg(args, "schedule"), *it;
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
			buf_printf(out, "Invalid schedule key '%.*s': the schedule takes minute, hour, "
			    "day, month, weekday (cron field strings) and timezone.",
			    utf8_cut(it->string, 32), it->string);
			return ST_INVALID;
		}
	}
	for (int i = 0; i < 5; i++) {
		const char *v = tools_arg_str(sched, keys[i]);
		snprintf(f[i], sizeof f[i], "%s", v && *v ? v : "*");
	}
	task_init(&t);
	az_common(tl, args, &t);
	t.kind = KIND_CRON;
	t.cron = xasprintf("%s %s %s %s %s", f[0], f[1], f[2], f[3], f[4]);
	if (cron_parse(t.cron, &c, &ce)) {
		buf_printf(out, "Invalid cron expression: %s (%s).", t.cron, ce.msg);
		rc = ST_INVALID;
		goto out;
	}
	const char *zone = tools_arg_str(sched, "timezone");
	const struct tz *z;
	if (zone && *zone) {
		if ((rc = tools_zone(tl, zone, &z, e)))
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
	az_common(tl, args, &t);
	rc = az_add(tl, &t, "Adhoc", out, e);
	task_free(&t);
	return rc;
}

static int
az_create_planned(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const cJSON *plan = tools_arg(args, "plan"), *it;
	const struct tz *z;
	struct task t;
	int rc;
	task_init(&t);
	t.kind = KIND_PLAN;
	az_common(tl, args, &t);
	if ((rc = tools_zone(tl, t.tz, &z, e)))
		goto out;
	t.plan = xcalloc((size_t)cJSON_GetArraySize(plan) + 1, sizeof *t.plan);
	const cJSON *items = cJSON_IsArray(plan) ? plan : NULL;
	cJSON_ArrayForEach(it, items) {
		if (tz_parse_iso(z, it->valuestring, &t.plan[t.nplan])) {
			buf_printf(out, "Invalid datetime: %.*s", utf8_cut(it->valuestring, 64),
			    it->valuestring);
			rc = ST_INVALID;
			goto out;
		}
		t.nplan++;
	}
	if (cJSON_IsString(plan) && tz_parse_iso(z, plan->valuestring, &t.plan[t.nplan++])) {
		buf_printf(out, "Invalid datetime: %.*s", utf8_cut(plan->valuestring, 64),
		    plan->valuestring);
		rc = ST_INVALID;
		goto out;
	}
	if (!t.nplan) {
		buf_puts(out, "The plan needs at least one datetime.");
		rc = ST_INVALID;
		goto out;
	}
	qsort(t.plan, t.nplan, sizeof *t.plan, cmp_int64);
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

/* ---- the tools ---- */

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

const struct tool_def tools_agentzero_defs[] = {
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
