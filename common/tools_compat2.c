/* Compatibility profiles, part two: Kai's schedule_task, list_tasks and
 * cancel_task; toolpack's scheduler.create, .list, .cancel and .update; and
 * Wooster's scheduleAgentTask, each with its document's validation rules and
 * messages. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools_impl.h"
#include "tz.h"
#include "when.h"

#define LIST_CAP 50

static int
local_zone(struct tools *tl, struct task *t, const struct tz **z, struct err *e)
{
	char local[128];
	tool_local_zone(local, sizeof local);
	set_str(&t->tz, local);
	return tool_zone(tl, local, z, e);
}

/* ---- Kai ---- */

static const char *const kai_statuses[] = {"PENDING", "COMPLETED", NULL};

static const char *
kai_status(const struct task *t)
{
	return t->status == STATUS_PENDING || t->status == STATUS_RUNNING ? "PENDING" : "COMPLETED";
}

static const char *
kai_trigger(const struct task *t)
{
	return t->kind == KIND_CRON ? "CRON" : t->kind == KIND_HEARTBEAT ? "HEARTBEAT"
	    : t->kind == KIND_MANUAL ? "MANUAL" : "TIME";
}

static int
kai_schedule(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	static const char *const triggers[] = {"execute_at", "cron", NULL};
	char when[64], nowbuf[64];
	const char *at = arg_str(args, "execute_at"), *cron = arg_str(args, "cron");
	const struct tz *z;
	struct task t;
	int hb = 0, rc, dup;
	char dup_id[37];
	arg_bool(args, "on_heartbeat", &hb);
	if (arg_count(args, triggers) + hb != 1) {
		buf_puts(out, "Exactly one of execute_at (ISO 8601), cron, or on_heartbeat: true must be "
		    "provided; they are mutually exclusive.");
		return ST_INVALID;
	}
	task_init(&t);
	set_str(&t.name, arg_str(args, "description"));
	set_str(&t.prompt, arg_str(args, "prompt"));
	if ((rc = local_zone(tl, &t, &z, e)))
		goto out;
	if (at) {
		t.kind = KIND_AT;
		t.plan = xcalloc(1, sizeof *t.plan);
		t.nplan = 1;
		rc = ST_INVALID;
		if (iso_parse(at, z, &t.plan[0])) {
			buf_printf(out, "execute_at must be an ISO 8601 date-time such as "
			    "2026-04-22T22:32:39+02:00 (preferred) or 2026-04-22T22:32:39 in local time, "
			    "not '%.64s'.", at);
			goto out;
		}
		if (t.plan[0] < tl->now - 60) {
			/* Most often a UTC/local sign flip the model can fix. */
			tz_fmt_local(z, t.plan[0], when, sizeof when);
			tz_fmt_local(z, tl->now, nowbuf, sizeof nowbuf);
			buf_printf(out, "execute_at '%.64s' is in the past: it is %s in %s, and the local "
			    "time is now %s (see the Local time line of the ## Context block). Naive values "
			    "are read in local time; check for a UTC/local mix-up and retry, preferably with "
			    "an offset such as +02:00.", at, when, tz_name(z), nowbuf);
			goto out;
		}
	} else if (cron) {
		t.kind = KIND_CRON;
		if ((rc = tool_cron_check(cron, out)))
			goto out;
		set_str(&t.cron, cron);
	} else {
		t.kind = KIND_HEARTBEAT;
	}
	if ((rc = tool_task_add(tl, &t, 0, &dup, dup_id, e)))
		goto out;
	buf_printf(out, "Task scheduled.\nid: %s\ndescription: %s\ntrigger: %s\nscheduled_at: ",
	    t.id, t.name, kai_trigger(&t));
	if (t.kind == KIND_HEARTBEAT) {
		buf_puts(out, "none (runs with every heartbeat)");
	} else {
		fmt_rfc3339(tl, &t, t.next_run_at, when, sizeof when);
		tz_fmt_local(z, t.next_run_at, nowbuf, sizeof nowbuf);
		buf_printf(out, "%s (%s local time, %s)", when, nowbuf, t.tz);
	}
	buf_printf(out, "\ncron: %s\n", t.cron ? t.cron : "none");
out:
	task_free(&t);
	return rc;
}

struct kai_list {
	struct tools *tl;
	struct buf *out;
	const char *status;
	long n;
};

static int
kai_list_one(const struct task *t, void *arg)
{
	struct kai_list *c = arg;
	char d[256], when[64];
	if (c->status && strcasecmp(c->status, kai_status(t)) != 0)
		return 0;
	if (++c->n > LIST_CAP)
		return 0;
	buf_printf(c->out, "- id: %s\n  description: %s\n  status: %s\n  trigger: %s\n", t->id,
	    t->name, kai_status(t), kai_trigger(t));
	if (t->kind == KIND_CRON) {
		task_describe(t, c->tl->zs, d, sizeof d);
		/* Kai writes hours without a leading zero: "Daily at 9:00". */
		for (char *p = d; (p = strstr(p, " at 0")) && p[5] >= '0' && p[5] <= '9' && p[6] == ':';)
			memmove(p + 4, p + 5, strlen(p + 5) + 1);
		buf_printf(c->out, "  schedule: %s (cron: %s)\n", d, t->cron);
	} else if (t->kind == KIND_AT || t->kind == KIND_PLAN) {
		fmt_local(c->tl, t, t->nplan ? t->plan[t->nplan - 1] : TIME_NONE, when, sizeof when);
		buf_printf(c->out, "  scheduled_at: %s (%s)\n", when, t->tz);
	}
	if (t->status == STATUS_PENDING && t->next_run_at != TIME_NONE && t->kind != KIND_AT) {
		fmt_local(c->tl, t, t->next_run_at, when, sizeof when);
		buf_printf(c->out, "  next: %s (%s)\n", when, t->tz);
	}
	if (t->consecutive_failures)
		buf_printf(c->out, "  consecutive_failures: %d\n", t->consecutive_failures);
	if (t->last_result || t->last_error)
		buf_printf(c->out, "  last_result: %.200s\n", t->last_error && *t->last_error
		    ? t->last_error : t->last_result);
	return 0;
}

static int
kai_list(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task_filter f;
	struct buf body = {0};
	struct kai_list c = {tl, &body, arg_str(args, "status"), 0};
	int rc;
	task_filter_init(&f);
	if ((rc = store_task_list(tl->st, &f, kai_list_one, &c, e)) == ST_OK) {
		if (!c.n)
			buf_printf(out, "No %s%stasks.", c.status ? c.status : "", c.status ? " " : "");
		else
			buf_printf(out, "%ld task%s:\n%s", c.n, c.n == 1 ? "" : "s", body.data);
		if (c.n > LIST_CAP)
			buf_printf(out, "(the first %d are shown)\n", LIST_CAP);
	}
	buf_free(&body);
	return rc;
}

static int
kai_cancel(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *id = arg_str(args, "id");
	struct task t;
	int rc = tool_task_get(tl, id, &t, e);
	if (rc == ST_NOTFOUND)
		buf_printf(out, "No task found with id '%.64s'.", id);
	if (rc)
		return rc;
	if ((rc = tool_task_trash(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task cancelled and removed: %s (%s).", t.id, t.name);
	task_free(&t);
	return rc;
}

/* ---- toolpack ---- */

static const char *const tp_statuses[] = {"pending", "running", "completed", "failed",
	"cancelled", "all", NULL};

static const char *
tp_type(const struct task *t)
{
	return t->kind == KIND_CRON ? "recurring" : t->kind == KIND_AT ? "one-shot"
	    : task_kind_name(t->kind);
}

static void
tp_next(struct tools *tl, const struct task *t, struct buf *out)
{
	char when[64];
	if (t->status != STATUS_PENDING || t->next_run_at == TIME_NONE) {
		buf_puts(out, "none");
		return;
	}
	fmt_rfc3339(tl, t, t->next_run_at, when, sizeof when);
	buf_puts(out, when);
}

/* run_at: ISO 8601 only; "next Tuesday" is refused as toolpack does. */
static int
tp_run_at(const char *s, const struct tz *z, int64_t *at, struct buf *out)
{
	if (iso_parse(s, z, at) == 0)
		return ST_OK;
	buf_printf(out, "Invalid run_at '%.64s': expected an ISO 8601 timestamp such as "
	    "2026-07-01T09:00:00Z (natural language is not accepted).", s);
	return ST_INVALID;
}

static int
tp_create(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	static const char *const when[] = {"cron", "run_at", NULL};
	char dup_id[37];
	const char *cron = arg_str(args, "cron"), *run_at = arg_str(args, "run_at");
	const char *msg = arg_str(args, "message"), *intent = arg_str(args, "intent");
	const cJSON *payload = arg_get(args, "payload");
	const struct tz *z;
	struct task t;
	int rc, dup;
	if (arg_count(args, when) != 1) {
		buf_puts(out, arg_count(args, when) ? "Provide either cron or run_at, not both."
		    : "Provide either cron (a recurring job) or run_at (a one-shot job).");
		return ST_INVALID;
	}
	if (str_empty(msg) && str_empty(intent)) {
		buf_puts(out, "Provide a message (or at least an intent) for the job.");
		return ST_INVALID;
	}
	task_init(&t);
	set_str(&t.prompt, str_empty(msg) ? intent : msg);
	set_str(&t.intent, str_empty(intent) ? NULL : intent);
	const char *ch = arg_str(args, "channel_name");
	set_str(&t.channel, str_empty(ch) ? NULL : ch);
	if (payload)
		t.payload = cJSON_PrintUnformatted(payload);
	if ((rc = local_zone(tl, &t, &z, e)))
		goto out;
	if (cron) {
		t.kind = KIND_CRON;
		if ((rc = tool_cron_check(cron, out)))
			goto out;
		set_str(&t.cron, cron);
	} else {
		t.kind = KIND_AT;
		t.plan = xcalloc(1, sizeof *t.plan);
		t.nplan = 1;
		if ((rc = tp_run_at(run_at, z, &t.plan[0], out)))
			goto out;
	}
	if ((rc = tool_task_add(tl, &t, 1, &dup, dup_id, e)))
		goto out;
	if (dup) {
		struct task old;
		if ((rc = store_task_get(tl->st, dup_id, &old, e)))
			goto out;
		buf_printf(out, "A pending job with the same intent, schedule and channel already "
		    "exists: %s (no duplicate was created). Next run: ", old.id);
		tp_next(tl, &old, out);
		task_free(&old);
	} else {
		buf_printf(out, "Created %s job %s", tp_type(&t), t.id);
		if (t.cron)
			buf_printf(out, " (cron: %s)", t.cron);
		buf_puts(out, ". Next run: ");
		tp_next(tl, &t, out);
	}
	buf_puts(out, ".");
out:
	task_free(&t);
	return rc;
}

struct tp_list {
	struct tools *tl;
	struct buf *out;
	long n;
};

static int
tp_list_one(const struct task *t, void *arg)
{
	struct tp_list *c = arg;
	c->n++;
	buf_printf(c->out, "- %s | %s | %s", t->id, task_status_name(t->status), tp_type(t));
	if (t->cron)
		buf_printf(c->out, " (%s)", t->cron);
	buf_puts(c->out, " | next run: ");
	tp_next(c->tl, t, c->out);
	if (t->intent)
		buf_printf(c->out, " | intent: %s", t->intent);
	if (t->channel)
		buf_printf(c->out, " | channel: %s", t->channel);
	if (t->last_error && *t->last_error)
		buf_printf(c->out, " | last error: %.200s", t->last_error);
	buf_puts(c->out, "\n");
	return 0;
}

static int
tp_list(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *status = arg_str(args, "status");
	struct task_filter f;
	struct buf body = {0};
	struct tp_list c = {tl, &body, 0};
	long limit = 10;
	int rc;
	task_filter_init(&f);
	if (!status)
		f.statuses = 1u << STATUS_PENDING;
	for (int i = 0; status && i < STATUS_COUNT; i++)
		if (strcasecmp(status, task_status_name(i)) == 0)
			f.statuses = 1u << i;
	f.channel = arg_str(args, "channel_name");
	if (arg_int(args, "limit", &limit) && limit < 1)
		return err_set(e, ST_INVALID, "limit must be at least 1");
	f.limit = limit > 50 ? 50 : limit;
	if ((rc = store_task_list(tl->st, &f, tp_list_one, &c, e)) == ST_OK) {
		if (!c.n)
			buf_puts(out, "No jobs found.");
		else
			buf_printf(out, "%ld job%s:\n%s", c.n, c.n == 1 ? "" : "s", body.data);
	}
	buf_free(&body);
	return rc;
}

static int
tp_get(struct tools *tl, const cJSON *args, struct task *t, struct buf *out, struct err *e)
{
	const char *id = arg_str(args, "job_id");
	int rc = tool_task_get(tl, id, t, e);
	if (rc == ST_NOTFOUND)
		buf_printf(out, "Job %.64s not found.", id);
	return rc;
}

static int
tp_cancel(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc = tp_get(tl, args, &t, out, e);
	if (rc)
		return rc;
	if (t.status != STATUS_PENDING) {
		buf_printf(out, "Job %s cannot be cancelled: it is %s, and only pending jobs can be "
		    "cancelled.", t.id, task_status_name(t.status));
		rc = ST_REFUSED;
	} else if ((rc = tool_task_cancel(tl, &t, e)) == ST_OK) {
		buf_printf(out, "Job %s cancelled.", t.id);
	}
	task_free(&t);
	return rc;
}

static int
tp_update(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *cron = arg_str(args, "cron"), *run_at = arg_str(args, "run_at");
	const char *s;
	const cJSON *payload = arg_get(args, "payload");
	const struct tz *z;
	struct task t;
	int rc;
	if (cron && run_at) {
		buf_puts(out, "Cannot provide both cron and run_at.");
		return ST_INVALID;
	}
	if ((rc = tp_get(tl, args, &t, out, e)))
		return rc;
	if (t.status != STATUS_PENDING) {
		buf_printf(out, "Cannot update job %s: it is %s, and only pending jobs can be updated.",
		    t.id, task_status_name(t.status));
		rc = ST_REFUSED;
		goto out;
	}
	if ((s = arg_str(args, "message")))
		set_str(&t.prompt, s);
	if ((s = arg_str(args, "intent")))
		set_str(&t.intent, *s ? s : NULL);
	if (payload) {
		free(t.payload);
		t.payload = cJSON_PrintUnformatted(payload); /* replaces the old one */
	}
	if (cron) {
		if ((rc = tool_cron_check(cron, out)))
			goto out;
		t.kind = KIND_CRON;
		set_str(&t.cron, cron);
		free(t.plan);
		t.plan = NULL;
		t.nplan = 0;
	} else if (run_at) {
		/* A one-shot time turns a recurring job into a one-shot one. */
		if ((rc = tool_zone(tl, t.tz, &z, e)))
			goto out;
		free(t.plan);
		t.plan = xcalloc(1, sizeof *t.plan);
		t.nplan = 1;
		if ((rc = tp_run_at(run_at, z, &t.plan[0], out)))
			goto out;
		t.kind = KIND_AT;
		set_str(&t.cron, NULL);
	}
	if ((rc = tool_task_save(tl, &t, cron || run_at, e)))
		goto out;
	buf_printf(out, "Job %s updated. Next run: ", t.id);
	tp_next(tl, &t, out);
	buf_puts(out, ".");
out:
	task_free(&t);
	return rc;
}

/* ---- Wooster ---- */

/* The long zone names JavaScript prints for common abbreviations; others
 * print as the abbreviation. */
static const char *const zone_names[][2] = {
	{"UTC", "Coordinated Universal Time"}, {"GMT", "Greenwich Mean Time"},
	{"BST", "British Summer Time"}, {"CET", "Central European Standard Time"},
	{"CEST", "Central European Summer Time"}, {"EET", "Eastern European Standard Time"},
	{"EEST", "Eastern European Summer Time"}, {"WET", "Western European Standard Time"},
	{"WEST", "Western European Summer Time"}, {"EST", "Eastern Standard Time"},
	{"EDT", "Eastern Daylight Time"}, {"CST", "Central Standard Time"},
	{"CDT", "Central Daylight Time"}, {"MST", "Mountain Standard Time"},
	{"MDT", "Mountain Daylight Time"}, {"PST", "Pacific Standard Time"},
	{"PDT", "Pacific Daylight Time"}, {"AKST", "Alaska Standard Time"},
	{"AKDT", "Alaska Daylight Time"}, {"HST", "Hawaii-Aleutian Standard Time"},
	{"JST", "Japan Standard Time"}, {"AEST", "Australian Eastern Standard Time"},
	{"AEDT", "Australian Eastern Daylight Time"},
};

/* JavaScript's Date.toString(), which Wooster's messages print:
 * "Tue Jul 23 2024 09:00:00 GMT-0700 (Pacific Daylight Time)". */
static void
js_date(const struct tz *z, int64_t t, char *buf, size_t n)
{
	static const char *const wd[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const mon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
		"Sep", "Oct", "Nov", "Dec"};
	const char *abbr = tz_abbr(z, t), *zone = abbr;
	for (size_t i = 0; i < sizeof zone_names / sizeof zone_names[0]; i++)
		if (strcmp(zone_names[i][0], abbr) == 0)
			zone = zone_names[i][1];
	struct civil c;
	tz_to_civil(z, t, &c);
	int32_t off = tz_offset(z, t), a = off < 0 ? -off : off;
	snprintf(buf, n, "%s %s %02d %04lld %02d:%02d:%02d GMT%c%02d%02d (%s)",
	    wd[weekday_from_days(days_from_civil(c.year, (unsigned)c.month, (unsigned)c.day))],
	    mon[c.month - 1], c.day, (long long)c.year, c.hour, c.min, c.sec, off < 0 ? '-' : '+',
	    (int)(a / 3600), (int)(a / 60 % 60), zone);
}

static int
woo_schedule(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const cJSON *in = args, *input = cJSON_GetObjectItemCaseSensitive(args, "input");
	cJSON *parsed = NULL;
	char when[96], dup_id[37];
	const struct tz *z;
	struct task t;
	struct err we;
	int64_t at;
	int rc = ST_INVALID, dup;
	task_init(&t);
	/* LangChain's DynamicTool hands the model's string over as {"input": ...}. */
	if (cJSON_IsObject(args) && cJSON_GetArraySize(args) == 1 && cJSON_IsString(input))
		in = input;
	if (cJSON_IsString(in)) {
		parsed = cJSON_Parse(in->valuestring);
		if (!cJSON_IsObject(parsed)) {
			buf_puts(out, "Invalid input for scheduleAgentTask: Input string is not valid JSON. "
			    "Expected object with 'taskPayload', 'timeExpression', "
			    "'humanReadableDescription'.");
			goto out;
		}
		in = parsed;
	} else if (!cJSON_IsObject(in)) {
		buf_puts(out, "Invalid input type for scheduleAgentTask. Expected JSON string or object.");
		goto out;
	}
	const char *payload = arg_str(in, "taskPayload");
	const char *expr = arg_str(in, "timeExpression");
	const char *desc = arg_str(in, "humanReadableDescription");
	if (str_empty(payload) || str_empty(expr) || str_empty(desc)) {
		buf_puts(out, "Missing required arguments. I need 'taskPayload', 'timeExpression', and "
		    "'humanReadableDescription'.");
		goto out;
	}
	if ((rc = local_zone(tl, &t, &z, e)))
		goto out;
	rc = ST_INVALID;
	if (when_parse_any(expr, tl->now, z, &at, &we) != ST_OK) {
		buf_printf(out, "Could not understand the time expression: \"%.200s\". Please try a "
		    "different phrasing.", expr);
		goto out;
	}
	js_date(z, at, when, sizeof when);
	if (at <= tl->now) {
		buf_printf(out, "The specified time (%s) is in the past. Please provide a future time.",
		    when);
		goto out;
	}
	set_str(&t.name, desc);
	set_str(&t.prompt, payload);
	t.kind = KIND_AT;
	t.plan = xcalloc(1, sizeof *t.plan);
	t.plan[0] = at;
	t.nplan = 1;
	if ((rc = tool_task_add(tl, &t, 0, &dup, dup_id, e)) == ST_OK)
		buf_printf(out, "Okay, I've scheduled \"%s\" for %s. (ID: %s)", desc, when, t.id);
out:
	cJSON_Delete(parsed);
	task_free(&t);
	return rc;
}

/* ---- the table ---- */

static const struct tool_param kai_schedule_params[] = {
	{"description", "string", "Short human-readable description of the task.", NULL, 1,
	    "description is required.", NULL},
	{"prompt", "string", "The prompt to execute when the task fires.", NULL, 1,
	    "prompt is required.", NULL},
	{"execute_at", "string", "One-time trigger: ISO 8601 date-time, offset-qualified "
	    "(2026-04-22T22:32:39+02:00, ...Z; preferred) or naive (2026-04-22T22:32:39, read in the "
	    "user's local time, see the Local time line).", NULL, 0, NULL, NULL},
	{"cron", "string", "Recurring trigger: 5-field cron expression (minute hour day-of-month "
	    "month day-of-week; 0 = Sunday).", NULL, 0, NULL, NULL},
	{"on_heartbeat", "boolean", "true: a standing addition to every heartbeat self-check.", NULL,
	    0, NULL, NULL},
	{0},
};
static const struct tool_param kai_list_params[] = {
	{"status", "string", "Only tasks with this status.", kai_statuses, 0, NULL, NULL},
	{0},
};
static const struct tool_param kai_cancel_params[] = {
	{"id", "string", "The task's id.", NULL, 1, "id is required.", NULL},
	{0},
};
static const struct tool_param tp_create_params[] = {
	{"cron", "string", "Cron expression for a recurring job. E.g. \"0 9 * * 1\" = 9am every "
	    "Monday.", NULL, 0, NULL, NULL},
	{"run_at", "string", "ISO 8601 timestamp for a one-shot job. E.g. \"2026-07-01T09:00:00Z\".",
	    NULL, 0, NULL, NULL},
	{"intent", "string", "Intent hint forwarded to the agent on trigger.", NULL, 0, NULL, NULL},
	{"message", "string", "Message forwarded to the agent on trigger.", NULL, 0, NULL, NULL},
	{"channel_name", "string", "Scope this job to a specific channel.", NULL, 0, NULL, NULL},
	{"payload", "object", "Extra data merged into the agent's input data on trigger.", NULL, 0,
	    NULL, NULL},
	{0},
};
static const struct tool_param tp_list_params[] = {
	{"status", "string", "Filter by status (default 'pending').", tp_statuses, 0, NULL, NULL},
	{"channel_name", "string", "Filter by channel name.", NULL, 0, NULL, NULL},
	{"limit", "integer", "Maximum number of results (default 10, capped at 50).", NULL, 0, NULL,
	    NULL},
	{0},
};
static const struct tool_param tp_cancel_params[] = {
	{"job_id", "string", "ID of the job to cancel.", NULL, 1, "job_id is required.", NULL},
	{0},
};
static const struct tool_param tp_update_params[] = {
	{"job_id", "string", "ID of the job to update.", NULL, 1, "job_id is required.", NULL},
	{"cron", "string", "New cron expression. Recalculates the next run.", NULL, 0, NULL, NULL},
	{"run_at", "string", "New one-shot run time (ISO 8601). Clears cron, converting recurring "
	    "to one-shot.", NULL, 0, NULL, NULL},
	{"intent", "string", "New intent.", NULL, 0, NULL, NULL},
	{"message", "string", "New message.", NULL, 0, NULL, NULL},
	{"payload", "object", "New payload (replaces the existing one).", NULL, 0, NULL, NULL},
	{0},
};
static const struct tool_param woo_params[] = {
	{"taskPayload", "string", "The core task, query, or instruction to execute at the scheduled "
	    "time, phrased as if the user gave it then (e.g. \"Tell me the weather in New York\").",
	    NULL, 1, NULL, NULL},
	{"timeExpression", "string", "A natural language expression indicating when the task should "
	    "run (e.g. \"tomorrow at 10am\", \"in 30 minutes\", \"next Friday at noon\", \"August "
	    "15th at 3 PM\").", NULL, 1, NULL, NULL},
	{"humanReadableDescription", "string", "A brief, human-friendly description of what is "
	    "being scheduled, used for confirmations and listings.", NULL, 1, NULL, NULL},
	{0},
};

const struct tool_def compat2_tools[] = {
	{"schedule_task", TOOLS_KAI, "Schedule a one-time or recurring task: a description, a "
	    "prompt, and exactly one trigger: execute_at (ISO 8601), cron, or on_heartbeat: true.",
	    kai_schedule_params, kai_schedule, 0},
	{"list_tasks", TOOLS_KAI, "List all tasks, optionally filtered by status (PENDING or "
	    "COMPLETED).", kai_list_params, kai_list, TOOL_READS},
	{"cancel_task", TOOLS_KAI, "Remove a task by its id.", kai_cancel_params, kai_cancel, 0},
	{"scheduler.create", TOOLS_TOOLPACK, "Schedule a new recurring (cron) or one-shot (run_at) "
	    "agent invocation. Either cron or run_at must be provided, not both. A pending job with "
	    "the same intent, schedule and channel is returned instead of a duplicate.",
	    tp_create_params, tp_create, 0},
	{"scheduler.list", TOOLS_TOOLPACK, "List scheduled jobs with ID, status, type, next run "
	    "time and last error.", tp_list_params, tp_list, TOOL_READS},
	{"scheduler.cancel", TOOLS_TOOLPACK, "Cancel a pending job by ID.", tp_cancel_params,
	    tp_cancel, 0},
	{"scheduler.update", TOOLS_TOOLPACK, "Modify an existing pending job. Cannot provide both "
	    "cron and run_at.", tp_update_params, tp_update, 0},
	{"scheduleAgentTask", TOOLS_WOOSTER, "Schedules a task for the agent to perform at a "
	    "specified future time. Input MUST be an object with three keys: 'taskPayload' (string: "
	    "the core task for the agent to execute later, e.g., 'What is the weather in London?'), "
	    "'timeExpression' (string: a natural language expression for when the task should run, "
	    "e.g., 'tomorrow at 10am', 'in 2 hours'), and 'humanReadableDescription' (string: a "
	    "brief description of the task, e.g., 'Check London weather').", woo_params,
	    woo_schedule, TOOL_RAW_ARGS},
	{0},
};
