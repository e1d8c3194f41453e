/* The lines task-tick prints for runs and previews (tick_report.h). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "task_json.h"
#include "tick_report.h"
#include "utf8.h"

void
report_reason(const struct run *run, char *buf, size_t n)
{
	buf[0] = 0;
	if (run->status == RUN_SUCCESS)
		return;
	const char *err = run->error ? run->error : "";
	size_t first = strcspn(err, "\n");
	const char *rest = err + first + (err[first] != 0);
	rest += strspn(rest, " \t\n");
	snprintf(buf, n, "%.*s%s%.*s", (int)first, err, first && *rest ? ": " : "",
	    (int)strcspn(rest, "\n"), rest);
}

static char *
json_line(cJSON *o)
{
	char *s = json_print_line(o);
	cJSON_Delete(o);
	return s;
}

char *
report_json(const struct fire_report *r)
{
	const struct run *run = r->run;
	char reason[1024];
	report_reason(run, reason, sizeof reason);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "run_id", run->id);
	cJSON_AddStringToObject(o, "task_id", run->task_id);
	cJSON_AddStringToObject(o, "name", r->name);
	cJSON_AddStringToObject(o, "trigger", run_trigger_name(run->trigger));
	cJSON_AddItemToObject(o, "slot", json_time(run->slot));
	cJSON_AddStringToObject(o, "status", run_status_name(run->status));
	if (run->exit_code >= 0)
		cJSON_AddNumberToObject(o, "exit_code", run->exit_code);
	else
		cJSON_AddNullToObject(o, "exit_code");
	cJSON_AddItemToObject(o, "started_at", json_time(run->started_at));
	cJSON_AddItemToObject(o, "ended_at", json_time(run->ended_at));
	cJSON_AddNumberToObject(o, "duration_ms", (double)(run->duration_ms > 0 ? run->duration_ms : 0));
	cJSON_AddItemToObject(o, "error", reason[0] ? cJSON_CreateString(reason) : cJSON_CreateNull());
	return json_line(o);
}

/* A name on one line, valid UTF-8 (malloc'd). */
static char *
one_line(const char *s)
{
	char *text = utf8_clean(s ? s : "", s ? strlen(s) : 0);
	for (char *p = text; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	return text;
}

char *
report_line(const struct fire_report *r, struct zones *zs)
{
	const struct run *run = r->run;
	char when[64], dur[32], reason[1024];
	report_reason(run, reason, sizeof reason);
	zone_fmt_time(zs, NULL, run->started_at, TIME_WALL_ZONE, when, sizeof when);
	duration_fmt(run->duration_ms, dur, sizeof dur);
	char *name = one_line(r->name), *why = one_line(reason);
	char *line = xasprintf("%s  %s  %.8s  %s  %s  %s%s%s", when, name, run->task_id,
	    run_trigger_name(run->trigger), run_status_name(run->status), dur, why[0] ? "  " : "",
	    why);
	free(name);
	free(why);
	return line;
}

char *
preview_json(const struct fire_preview *p, const char *prompt, const char *system)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "task_id", p->task->id);
	cJSON_AddStringToObject(o, "name", p->task->name ? p->task->name : "");
	cJSON_AddStringToObject(o, "trigger", p->trigger);
	cJSON_AddItemToObject(o, "slot", json_time(p->slot));
	cJSON_AddItemToObject(o, "due_at", json_time(p->task->due_at));
	if (prompt)
		cJSON_AddStringToObject(o, "prompt", prompt);
	if (system)
		cJSON_AddStringToObject(o, "system_prompt", system);
	return json_line(o);
}

char *
preview_line(const struct fire_preview *p, struct zones *zs, const char *prompt)
{
	char slot[64];
	char *name = one_line(p->task->name);
	zone_fmt_time(zs, NULL, p->slot, TIME_WALL_ZONE, slot, sizeof slot);
	int skip = strcmp(p->trigger, "skip") == 0 || strcmp(p->trigger, "budget") == 0;
	char *line = xasprintf("would %s  %s  %.8s  %s  %s", skip ? "skip" : "fire", name, p->task->id, p->trigger, p->slot == TIME_NONE ?
	    "now (asked for)" : slot);
	free(name);
	if (!prompt)
		return line;
	struct buf b = {0};
	buf_puts(&b, line);
	free(line);
	for (const char *s = prompt; *s;) {
		size_t n = strcspn(s, "\n");
		char *one = xstrndup(s, n), *shown = one_line(one);
		buf_printf(&b, "\n  %s", shown);
		free(one);
		free(shown);
		s += n + (s[n] == '\n');
	}
	return b.data;
}
