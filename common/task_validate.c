/* task_validate.c: a task checked whole and made ready to store
 * (task.h): every field's value, then the defaults, the id, the end and
 * the next run.  Above the task model (task.c) and the table of its fields
 * (task_fields.c), which check the lists of words; neither calls here. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cron.h"
#include "deliver.h"
#include "keep.h"
#include "notify_on.h"
#include "prompt_text.h"
#include "spend.h"
#include "task.h"
#include "task_fields.h"
#include "utf8.h"

static int
json_kind_ok(const char *text, int want_array, int strings_only)
{
	cJSON *j = cJSON_Parse(text);
	int ok = j && (want_array ? cJSON_IsArray(j) : cJSON_IsObject(j));
	if (ok && strings_only) {
		const cJSON *it;
		cJSON_ArrayForEach(it, j) if (!cJSON_IsString(it)) ok = 0;
	}
	cJSON_Delete(j);
	return ok;
}

/* A word of mcp or mcp_allow as it must travel: TASK_MCP and
 * TASK_MCP_ALLOW join the words with commas and llm-call trims blanks
 * around each, so a comma or a blank at either end would not arrive as
 * written. */
static int
mcp_words_ok(const char *json, const char *field, const char *what, struct err *e)
{
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	const cJSON *it;
	int rc = ST_OK;
	cJSON_ArrayForEach(it, j) {
		const char *w = it->valuestring, *why = NULL;
		size_t n = strlen(w);
		if (!n)
			why = "is empty";
		else if (strchr(w, ','))
			why = "holds a comma, which separates them";
		else if (isspace((unsigned char)w[0]) || isspace((unsigned char)w[n - 1]))
			why = "starts or ends with a blank";
		for (size_t i = 0; i < n && !why; i++)
			if ((unsigned char)w[i] < 0x20 || w[i] == 0x7f)
				why = "holds a control character";
		if (why) {
			char q[80];
			rc = err_set(e, ST_INVALID, "%s: %s '%s' %s", field, what, utf8_quote(q, 72, w, n),
			    why);
			break;
		}
	}
	cJSON_Delete(j);
	return rc;
}

static const char *
kind_phrase(int kind)
{
	switch (kind) {
	case KIND_AT: return "a one-shot task (--at)";
	case KIND_PLAN: return "a planned task (--plan)";
	case KIND_HEARTBEAT: return "a heartbeat task";
	default: return "a manual task";
	}
}

int
task_env_fields_check(const struct task *t, int payload_too, struct err *e)
{
	const struct {
		const char *name, *v;
		size_t max;
	} f[] = {{"intent", t->intent, TASK_ENV_WORD_MAX}, {"channel", t->channel, TASK_ENV_WORD_MAX},
		{"context", t->context, TASK_ENV_WORD_MAX}, {"model", t->model, TASK_ENV_WORD_MAX},
		{"payload", payload_too ? t->payload : NULL, TASK_ENV_JSON_MAX},
		{"attachments", t->attachments, TASK_ENV_JSON_MAX},
		{"fallback_models", t->fallback_models, TASK_ENV_JSON_MAX},
		{"mcp", t->mcp, TASK_ENV_JSON_MAX}, {"mcp_allow", t->mcp_allow, TASK_ENV_JSON_MAX}};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (f[i].v && strlen(f[i].v) > f[i].max)
			return err_set(e, ST_INVALID, "%s is longer than %zu bytes", f[i].name, f[i].max);
	return ST_OK;
}

int
task_validate(const struct task *t, struct zones *zs, struct err *e)
{
	int rc = ST_OK;
	if (str_empty(t->name))
		return err_set(e, ST_INVALID, "the task needs a name (--name)");
	if (strlen(t->name) > 200)
		return err_set(e, ST_INVALID, "name is longer than 200 characters");
	if (str_empty(t->prompt))
		return err_set(e, ST_INVALID, "the task needs a prompt (an argument or standard input)");
	if (t->kind < 0 || t->kind >= KIND_COUNT)
		return err_set(e, ST_INVALID, "unknown schedule kind");
	if (t->status < 0 || t->status >= STATUS_COUNT)
		return err_set(e, ST_INVALID, "unknown status");
	if (t->missed < 0 || t->missed >= MISSED_COUNT)
		return err_set(e, ST_INVALID, "missed must be one of once, skip, all");
	if (t->stagger < -1 || t->stagger > 0)
		return err_set(e, ST_INVALID, "stagger is 0 (the task is not staggered) or none");
	if (t->timeout < 0 || t->jitter < 0 || t->retries < -1 || t->consecutive_failures < 0)
		return err_set(e, ST_INVALID, "timeout, jitter, retries and failures cannot be negative");
	if (t->overlap < 0 || t->overlap >= OVERLAP_COUNT)
		return err_set(e, ST_INVALID, "overlap must be one of queue, skip, replace");
	if (t->deadline < 0 || t->deadline > TASK_DEADLINE_MAX)
		return err_set(e, ST_INVALID, "deadline must be 0 (none) to 366 days, in seconds");
	if (t->pause_after < -1)
		return err_set(e, ST_INVALID, "pause_after cannot be negative");
	if (t->gate_timeout < -1 || t->gate_timeout == 0 || t->gate_timeout > TASK_GATE_TIMEOUT_MAX)
		return err_set(e, ST_INVALID, "gate_timeout must be from 1 second to 1 day");
	if ((rc = task_env_fields_check(t, 1, e)))
		return rc;
	if ((rc = prompt_vars_check(t->prompt, "prompt", e)) ||
	    (rc = prompt_vars_check(t->system_prompt, "system prompt", e)))
		return rc;
	if (t->attachments && !json_kind_ok(t->attachments, 1, 1))
		return err_set(e, ST_INVALID, "attachments must be a JSON array of strings");
	if (t->payload && !json_kind_ok(t->payload, 0, 0))
		return err_set(e, ST_INVALID, "payload must be a JSON object");
	if ((t->until_at != TIME_NONE || t->count) && !task_repeats(t))
		return err_set(e, ST_INVALID, "--until and --count end recurring tasks (--cron, --daily,"
		    " --weekly, --every); %s has no recurrence to end", kind_phrase(t->kind));
	if (t->not_before != TIME_NONE && !task_repeats(t))
		return err_set(e, ST_INVALID, "--not-before holds back recurring tasks (--cron, --daily,"
		    " --weekly, --every); %s has its own times", kind_phrase(t->kind));
	if (t->count < 0 || t->count > TASK_COUNT_MAX)
		return err_set(e, ST_INVALID, "count must be from 1 to %d runs, or 0 for no end",
		    TASK_COUNT_MAX);
	for (const struct word_list *wl = word_lists; wl < word_lists + WORD_LISTS; wl++) {
		const char *v = CWORD_LIST_OF(t, wl);
		if (v && !json_kind_ok(v, 1, 1))
			return err_set(e, ST_INVALID, "%s must be a JSON array of %s", wl->json, wl->words);
	}
	for (const struct word_list *wl = word_lists; wl < word_lists + WORD_LISTS; wl++)
		if ((rc = mcp_words_ok(CWORD_LIST_OF(t, wl), wl->json, wl->word, e)))
			return rc;
	/* The settings that bring a check of their own (task_inputs). */
	for (size_t i = 0; i < ntask_inputs; i++) {
		if (!task_inputs[i].check)
			continue;
		const struct field *f = task_input_field(&task_inputs[i]);
		const char *v = f->type == FT_STR ? *CFIELD_OF(t, f, char *) : NULL;
		if (v && (rc = task_inputs[i].check(v, e)))
			return rc;
	}
	struct budget b;
	unsigned mask;
	if (t->budget && (rc = budget_parse(t->budget, &b, e)))
		return rc;
	if (t->notify_on && (rc = notify_on_parse(t->notify_on, &mask, e)))
		return rc;
	if ((rc = deliver_targets_check(t->deliver, e)) ||
	    (t->deliver_on && (rc = deliver_on_parse(t->deliver_on, &mask, e))))
		return rc;
	struct keep k;
	struct err sub;
	if (t->keep && keep_parse(t->keep, &k, &sub))
		return err_set(e, ST_INVALID, "keep '%.40s': expected %s", t->keep, sub.msg);
	WITH_ZONES(zs, tmp);
	const struct tz *z;
	if ((rc = zones_get(zs, t->tz, &z, e)))
		goto out;
	switch (t->kind) {
	case KIND_CRON: {
		struct cron_list l;
		if (!t->cron) {
			rc = err_set(e, ST_INVALID, "a cron task needs an expression (--cron)");
			break;
		}
		rc = cron_list_parse(t->cron, &l, e);
		break;
	}
	case KIND_EVERY:
		if (t->every < TASK_EVERY_MIN || t->every > TASK_EVERY_MAX)
			rc = err_set(e, ST_INVALID, "an interval (--every) must be from 1 minute to 366 days");
		else if (t->anchor == TIME_NONE)
			rc = err_set(e, ST_INVALID, "an interval (--every) needs the instant it counts from");
		break;
	case KIND_AT:
		if (t->nplan != 1)
			rc = err_set(e, ST_INVALID, "a one-shot task needs exactly one time (--at)");
		break;
	case KIND_PLAN:
		if (t->nplan == 0)
			rc = err_set(e, ST_INVALID, "a planned task needs at least one time (--plan)");
		for (size_t i = 1; i < t->nplan && !rc; i++)
			if (t->plan[i] <= t->plan[i - 1])
				rc = err_set(e, ST_INVALID, "plan times must be distinct and in order");
		break;
	default:
		break;
	}
out:
	zones_free(tmp);
	return rc;
}

int
task_finalize(struct task *t, int is_new, int reschedule, int64_t now, struct zones *zs,
    struct err *e)
{
	int rc;
	if (str_empty(t->name) && !str_empty(t->prompt)) {
		char name[64];
		task_default_name(t->prompt, name, sizeof name);
		set_str(&t->name, name);
	}
	WITH_ZONES(zs, tmp);
	if (!t->tz)
		t->tz = xstrdup(zones_local(zs));
	/* An interval counts from the minute it was made, unless told otherwise. */
	if (t->kind == KIND_EVERY && t->anchor == TIME_NONE)
		t->anchor = now - (now % 60 + 60) % 60;
	if ((rc = task_validate(t, zs, e)))
		goto out;
	/* Enabled, by whichever door (an option, a tool, a page), a task is
	 * paused no more: the pause's reason goes and its failures count
	 * from nothing again, or it would never be paused for them again. */
	if (t->enabled && t->paused) {
		set_str(&t->paused, NULL);
		t->consecutive_failures = 0;
	}
	if (is_new && t->created_at == TIME_NONE)
		t->created_at = now;
	if (is_new && !t->origin)
		t->origin = xstrdup("user");
	/* The id is needed now: the jitter of each slot derives from it. */
	if (is_new && !t->id[0] && uuid4(t->id) != 0) {
		rc = err_set(e, ST_ERR, "cannot generate a task id");
		goto out;
	}
	t->updated_at = now;
	/* Set again, the schedule is a new arming: an instant that already ran
	 * in an earlier one is a new occurrence (task-edit --at back to it). */
	if (reschedule && !is_new)
		t->arming++;
	/* An end not armed yet is armed now: a new task's, or one whose
	 * schedule, until or count changed (taskargs clears it); an imported
	 * one is kept, so a copied task keeps its progress. */
	if (t->ends_at == TIME_NONE && (rc = task_arm_end(t, zs, now, e)))
		goto out;
	if (reschedule && (rc = task_schedule_from(t, zs, now, e)))
		goto out;
	/* The schedule kept, a due instant held past the slot's (a retry
	 * waiting, an occurrence queued behind a run) is kept: lowered, the
	 * retry would read as an occurrence missed and never fire.  A new
	 * schedule drops it with the rest. */
	if (!reschedule) {
		int64_t due = t->next_run_at == TIME_NONE ? TIME_NONE
		    : t->next_run_at + task_delay(t, zs, t->next_run_at);
		if (due == TIME_NONE || t->due_at == TIME_NONE || t->due_at < due)
			t->due_at = due;
	}
	if (reschedule && t->status == STATUS_PENDING && t->next_run_at == TIME_NONE &&
	    (t->kind == KIND_AT || t->kind == KIND_PLAN)) {
		char when[64];
		task_fmt_time(t, zs, t->plan[t->nplan - 1], TIME_WALL_ZONE, when, sizeof when);
		rc = err_set(e, ST_INVALID, "%s is in the past (read in %s)", when, t->tz);
	}
	if (!rc && reschedule && task_repeats(t) && t->next_run_at == TIME_NONE &&
	    t->status == STATUS_PENDING) {
		char when[64];
		task_fmt_time(t, zs, t->ends_at, TIME_WALL_ZONE, when, sizeof when);
		if (t->ends_at != TIME_NONE)
			rc = err_set(e, ST_INVALID, "the recurrence ended at %s (--until/--count); give a"
			    " later --until or a new --count", when);
		else
			rc = task_never_again(t, e);
	}
out:
	zones_free(tmp);
	return rc;
}
