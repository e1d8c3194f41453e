/* The Wooster profile, after its scheduleAgentTask tool
 * (seeds/wooster-schedule-agent-task.txt): taskPayload, a timeExpression
 * in plain English and a humanReadableDescription, given as an object or
 * as one JSON string, confirmed with the date as JavaScript prints it. */
#include <stdlib.h>
#include <string.h>

#include "tools_impl.h"
#include "when.h"

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
	const char *payload = tools_arg_str(in, "taskPayload");
	const char *expr = tools_arg_str(in, "timeExpression");
	const char *desc = tools_arg_str(in, "humanReadableDescription");
	if (str_empty(payload) || str_empty(expr) || str_empty(desc)) {
		buf_puts(out, "Missing required arguments. I need 'taskPayload', 'timeExpression', and "
		    "'humanReadableDescription'.");
		goto out;
	}
	if ((rc = tools_local_zone(tl, &t, &z, e)))
		goto out;
	rc = ST_INVALID;
	if (when_read(expr, tl->now, z, WHEN_PAST_OK | tl->when_flags, &at, &we) != ST_OK) {
		buf_printf(out, "Could not understand the time expression: \"%.*s\". Please try a "
		    "different phrasing.", utf8_cut(expr, 200), expr);
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
	if ((rc = tools_task_add(tl, &t, 0, &dup, dup_id, e)) == ST_OK)
		buf_printf(out, "Okay, I've scheduled \"%s\" for %s. (ID: %s)", desc, when, t.id);
out:
	cJSON_Delete(parsed);
	task_free(&t);
	return rc;
}

/* ---- the tools ---- */

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

const struct tool_def tools_wooster_defs[] = {
	{"scheduleAgentTask", TOOLS_WOOSTER, "Schedules a task for the agent to perform at a "
	    "specified future time. Input MUST be an object with three keys: 'taskPayload' (string: "
	    "the core task for the agent to execute later, e.g., 'What is the weather in London?'), "
	    "'timeExpression' (string: a natural language expression for when the task should run, "
	    "e.g., 'tomorrow at 10am', 'in 2 hours'), and 'humanReadableDescription' (string: a "
	    "brief description of the task, e.g., 'Check London weather').", woo_params,
	    woo_schedule, TOOL_RAW_ARGS},
	{0},
	{0},
};
