/* task.c: the task model (task.h): names of kinds and statuses, validation,
 * the next firing instant, jitter, ends, dedup keys and instants in a zone
 * for people (descriptions in task_describe.c, the zone cache in zones.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cron.h"
#include "notify_on.h"
#include "deliver.h"
#include "spend.h"
#include "keep.h"
#include "prompt_text.h"
#include "task.h"
#include "task_fields.h"
#include "tz.h"
#include "utf8.h"
#include "when.h"

static const char *const kind_names[KIND_COUNT] = {"cron", "at", "plan", "manual", "heartbeat",
	"every"};
static const char *const status_names[STATUS_COUNT] = {"pending", "running", "completed",
	"failed", "cancelled"};
static const char *const run_status_names[RUN_STATUS_COUNT] = {"running", "success", "failed",
	"timeout", "interrupted", "skipped", "unstarted", "missed", "cancelled", "blocked"};
static const char *const missed_names[MISSED_COUNT] = {"once", "skip", "all"};
static const char *const trigger_names[TRIGGER_COUNT] = {"schedule", "manual", "retry", "catchup",
	"heartbeat", "backfill", "after", "event", "replay"};
static const char *const overlap_names[OVERLAP_COUNT] = {"queue", "skip", "replace"};

static const char *
name_of(const char *const *names, int n, int i)
{
	return i >= 0 && i < n ? names[i] : "unknown";
}

static int
parse_name(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (s && strcmp(names[i], s) == 0)
			return i;
	return -1;
}

const char *task_kind_name(int k) { return name_of(kind_names, KIND_COUNT, k); }
int task_kind_parse(const char *s) { return parse_name(kind_names, KIND_COUNT, s); }
const char *task_status_name(int s) { return name_of(status_names, STATUS_COUNT, s); }
int task_status_parse(const char *s) { return parse_name(status_names, STATUS_COUNT, s); }
const char *run_status_name(int s) { return name_of(run_status_names, RUN_STATUS_COUNT, s); }
int run_status_parse(const char *s) { return parse_name(run_status_names, RUN_STATUS_COUNT, s); }
const char *run_trigger_name(int t) { return name_of(trigger_names, TRIGGER_COUNT, t); }
int run_trigger_parse(const char *s) { return parse_name(trigger_names, TRIGGER_COUNT, s); }
const char *task_missed_name(int m) { return name_of(missed_names, MISSED_COUNT, m); }
int task_missed_parse(const char *s) { return parse_name(missed_names, MISSED_COUNT, s); }
const char *task_overlap_name(int o) { return name_of(overlap_names, OVERLAP_COUNT, o); }
int task_overlap_parse(const char *s) { return parse_name(overlap_names, OVERLAP_COUNT, s); }

int
task_retries(const struct task *t)
{
	if (t->retries == TASK_RETRIES_FOREVER)
		return -1;
	if (t->retries >= 0)
		return t->retries;
	return task_repeats(t) ? TASK_DEFAULT_RECURRING_RETRIES : TASK_DEFAULT_RETRIES;
}

int
task_pause_after(const struct task *t)
{
	return t->pause_after >= 0 ? t->pause_after : TASK_DEFAULT_PAUSE_AFTER;
}

void
task_init(struct task *t)
{
	memset(t, 0, sizeof *t);
	t->kind = KIND_MANUAL;
	t->enabled = 1;
	t->status = STATUS_PENDING;
	t->next_run_at = t->due_at = t->last_run_at = TIME_NONE;
	t->retries = -1;
	t->missed = MISSED_ONCE;
	t->overlap = OVERLAP_QUEUE;
	t->pause_after = -1;
	t->created_at = t->updated_at = t->deleted_at = TIME_NONE;
	t->until_at = t->ends_at = TIME_NONE;
	t->every = -1;
	t->stagger = -1;
	t->gate_timeout = -1;
	t->anchor = t->not_before = TIME_NONE;
	t->budget_noticed = TIME_NONE;
	t->last_success_at = TIME_NONE;
}

/* The string members of t are those its table (task_fields.c) lists:
 * freeing and copying a task cannot miss one. */
void
task_free(struct task *t)
{
	fields_free_text(&task_fields, t);
	free(t->plan);
	t->plan = NULL;
	t->nplan = 0;
}

void
task_copy(struct task *dst, const struct task *src)
{
	*dst = *src;
	fields_copy_text(&task_fields, dst);
	if (src->nplan) {
		dst->plan = xcalloc(src->nplan, sizeof *dst->plan);
		memcpy(dst->plan, src->plan, src->nplan * sizeof *dst->plan);
	}
}

int
task_is_recurring(const struct task *t)
{
	return task_repeats(t) || t->kind == KIND_HEARTBEAT;
}

int
task_repeats(const struct task *t)
{
	return t->kind == KIND_CRON || t->kind == KIND_EVERY;
}

void
task_origin_describe(const struct task *t, char *buf, size_t n)
{
	const char *o = t->origin;
	if (!o || !*o || strcmp(o, "user") == 0)
		snprintf(buf, n, "the user");
	else if (strncmp(o, "agent:run:", 10) == 0)
		snprintf(buf, n, "an agent, in run %s", o + 10);
	else if (strncmp(o, "agent:session:", 14) == 0)
		snprintf(buf, n, "an agent, in session %s", o + 14);
	else
		snprintf(buf, n, "%s", o);
}

/* Scopes name conversations as "SCOPE/CONTEXT": no '/' in them. */
int
task_scope_check(const char *name, struct err *e)
{
	size_t n = strlen(name);
	int ok = n >= 1 && n <= TASK_SCOPE_MAX;
	for (const char *p = name; *p && ok; p++)
		ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '.' || *p == '_' || *p == '-';
	if (!ok)
		return err_set(e, ST_INVALID, "scope '%.80s' is not a name of 1 to %d letters, digits, "
		    "'.', '_' or '-'", name, TASK_SCOPE_MAX);
	return ST_OK;
}

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
	if (t->scope && (rc = task_scope_check(t->scope, e)))
		return rc;
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
task_next_slot(const struct task *t, struct zones *zs, int64_t after, int64_t *slot,
    struct err *e)
{
	*slot = TIME_NONE;
	/* Nothing before --not-before: the first slot at or after it. */
	if (task_repeats(t) && t->not_before != TIME_NONE && after < t->not_before - 1)
		after = t->not_before - 1;
	switch (t->kind) {
	case KIND_CRON: {
		struct cron_list l;
		const struct tz *z;
		int rc;
		WITH_ZONES(zs, tmp);
		if (!(rc = zones_get(zs, t->tz, &z, e)) && !(rc = cron_list_parse(t->cron, &l, e))) {
			int64_t next = cron_list_next(&l, z, after);
			/* A recurrence that ends has no occurrence past its end. */
			if (next >= 0 && (t->ends_at == TIME_NONE || next <= t->ends_at))
				*slot = next;
		}
		zones_free(tmp);
		return rc;
	}
	case KIND_EVERY: {
		if (t->every <= 0 || t->anchor == TIME_NONE)
			return err_set(e, ST_INVALID, "an interval task needs every and anchor");
		/* Real time: anchor + k * every, k >= 0, whatever the wall clock does. */
		int64_t next = after < t->anchor ? t->anchor
		    : t->anchor + ((after - t->anchor) / t->every + 1) * t->every;
		if (t->ends_at == TIME_NONE || next <= t->ends_at)
			*slot = next;
		return ST_OK;
	}
	case KIND_AT:
	case KIND_PLAN:
		for (size_t i = 0; i < t->nplan; i++) {
			if (t->plan[i] > after) {
				*slot = t->plan[i];
				break;
			}
		}
		return ST_OK;
	default:
		return ST_OK;
	}
}

int64_t
task_jitter_delay(const char *id, int64_t slot, int jitter)
{
	if (jitter <= 0)
		return 0;
	/* FNV-1a of (id, slot): the same delay every time this slot is computed. */
	uint64_t h = 1469598103934665603ULL;
	for (const char *p = id; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ULL;
	}
	for (int i = 0; i < 8; i++) {
		h ^= (uint64_t)(slot >> (8 * i)) & 0xff;
		h *= 1099511628211ULL;
	}
	return (int64_t)(h % ((uint64_t)jitter + 1));
}

/* A slot one of the task's fixed-time expressions names (cron(8): neither
 * minute nor hour starts with '*'): an instant many tasks share. */
int
task_staggered(const struct task *t, struct zones *zs, int64_t slot)
{
	struct cron_list l;
	const struct tz *z;
	struct err e;
	if (t->kind != KIND_CRON || !t->cron || cron_list_parse(t->cron, &l, &e) ||
	    zones_get(zs, t->tz, &z, &e))
		return 0;
	for (int i = 0; i < l.n; i++)
		if (!(l.c[i].flags & (CRON_MIN_STAR | CRON_HOUR_STAR)) && cron_next(&l.c[i], z, slot - 1) == slot)
			return 1;
	return 0;
}

int64_t
task_stagger_offset(const char *id, int window)
{
	if (window <= 0)
		return 0;
	/* FNV-1a of the id alone: the same offset at every occurrence. */
	uint64_t h = 1469598103934665603ULL;
	for (const char *p = id; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ULL;
	}
	return (int64_t)(h % (uint64_t)window);
}

int64_t
task_delay(const struct task *t, struct zones *zs, int64_t slot)
{
	if (t->jitter > 0)
		return task_jitter_delay(t->id, slot, t->jitter);
	if (!zs || zones_stagger(zs) <= 0 || t->stagger == 0 || !task_staggered(t, zs, slot))
		return 0;
	return task_stagger_offset(t->id, zones_stagger(zs));
}

int
task_schedule_from(struct task *t, struct zones *zs, int64_t now, struct err *e)
{
	int64_t slot = TIME_NONE;
	int rc = ST_OK;
	if (t->status == STATUS_PENDING) {
		/* A one-shot instant given within the last minute still fires. */
		int64_t after = t->kind == KIND_AT || t->kind == KIND_PLAN ? now - 61 : now;
		rc = task_next_slot(t, zs, after, &slot, e);
	}
	t->next_run_at = slot;
	t->due_at = slot == TIME_NONE ? TIME_NONE : slot + task_delay(t, zs, slot);
	return rc;
}

static int
never_again(const struct task *t, struct err *e)
{
	if (t->kind == KIND_CRON)
		return err_set(e, ST_INVALID, "cron expression '%s' never fires again", t->cron);
	return err_set(e, ST_INVALID, "the schedule never fires again");
}

int
task_arm_end(struct task *t, struct zones *zs, int64_t now, struct err *e)
{
	int64_t first, s;
	char when[64], at[64];
	int rc;
	t->ends_at = TIME_NONE;
	if (!task_repeats(t) || (t->until_at == TIME_NONE && !t->count))
		return ST_OK;
	/* A finished task's end is history: nothing to count from now. */
	if (t->status != STATUS_PENDING) {
		t->ends_at = t->until_at;
		return ST_OK;
	}
	if ((rc = task_next_slot(t, zs, now, &first, e)))
		return rc;
	if (first == TIME_NONE)
		return never_again(t, e);
	if (t->until_at != TIME_NONE) {
		task_fmt_time(t, zs, t->until_at, TIME_WALL_ZONE, when, sizeof when);
		if (t->until_at < now)
			return err_set(e, ST_INVALID, "--until %s is in the past (read in %s)", when, t->tz);
		if (t->until_at < first) {
			task_fmt_time(t, zs, first, TIME_WALL_ZONE, at, sizeof at);
			return err_set(e, ST_INVALID, "--until %s comes before the first occurrence, %s;"
			    " it would never run", when, at);
		}
		t->ends_at = t->until_at;
	}
	s = first;
	for (int i = 1; i < t->count && s != TIME_NONE; i++)
		if ((rc = task_next_slot(t, zs, s, &s, e)))
			return rc;
	if (t->count && s != TIME_NONE && (t->ends_at == TIME_NONE || s < t->ends_at))
		t->ends_at = s;
	return ST_OK;
}

int
task_runs_left(const struct task *t, struct zones *zs, int cap)
{
	int n = 0;
	struct err e;
	if (t->status != STATUS_PENDING || t->ends_at == TIME_NONE)
		return 0;
	for (int64_t s = t->next_run_at; s != TIME_NONE && s <= t->ends_at && n < cap; n++)
		if (task_next_slot(t, zs, s, &s, &e))
			break;
	return n;
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
	if (!reschedule)
		t->due_at = t->next_run_at == TIME_NONE ? TIME_NONE
		    : t->next_run_at + task_delay(t, zs, t->next_run_at);
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
			rc = never_again(t, e);
	}
out:
	zones_free(tmp);
	return rc;
}

static const char *const day_names[] = {"sunday", "monday", "tuesday", "wednesday", "thursday",
	"friday", "saturday"};

int
sched_day_parse(const char *s)
{
	size_t n = strlen(s);
	if (n == 1 && s[0] >= '0' && s[0] <= '7')
		return (s[0] - '0') % 7;
	for (int i = 0; i < 7; i++) {
		const char *d = day_names[i];
		/* "mon", "Monday", and the common short forms "tues", "thurs". */
		if (n >= 3 && n <= strlen(d) && str_casecmp_prefix(d, s) == 0)
			return i;
	}
	return -1;
}

int
sched_daily_cron(const char *clock, char *out, size_t n, struct err *e)
{
	int h, m, rc = when_clock(clock, &h, &m, e);
	if (!rc)
		snprintf(out, n, "%d %d * * *", m, h);
	return rc;
}

int
sched_weekly_cron(const char *spec, char *out, size_t n, struct err *e)
{
	char days[128];
	/* DAY[,DAY...] then the time of day, which may be several words. */
	const char *p = spec + strspn(spec, " \t");
	size_t dl = strcspn(p, " \t");
	const char *clock = p + dl + strspn(p + dl, " \t");
	if (dl == 0 || dl >= sizeof days || !*clock)
		return err_set(e, ST_INVALID, "bad weekly schedule '%s': expected DAY TIME, e.g. 'mon 09:00'"
		    " or 'mon,thu 9am'", spec);
	memcpy(days, p, dl);
	days[dl] = 0;
	int h, m, rc = when_clock(clock, &h, &m, e);
	if (rc)
		return rc;
	unsigned mask = 0;
	char *save = NULL;
	for (char *d = strtok_r(days, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		int day = sched_day_parse(d);
		if (day < 0)
			return err_set(e, ST_INVALID, "unknown day '%s' (use mon, tue, ... sun)", d);
		mask |= 1u << day;
	}
	struct buf b = {0};
	buf_printf(&b, "%d %d * * ", m, h);
	for (int i = 1; i <= 7; i++)
		if (mask & (1u << (i % 7)))
			buf_printf(&b, "%s%d", b.data[b.len - 1] == ' ' ? "" : ",", i % 7);
	snprintf(out, n, "%s", b.data);
	buf_free(&b);
	return ST_OK;
}

char *
task_plan_text(const struct task *t)
{
	if (!t->nplan)
		return NULL;
	struct buf b = {0};
	for (size_t i = 0; i < t->nplan; i++)
		buf_printf(&b, i ? ",%lld" : "%lld", (long long)t->plan[i]);
	return b.data;
}

void
task_plan_parse(struct task *t, const char *s)
{
	t->nplan = 0;
	free(t->plan);
	t->plan = NULL;
	if (!s || !*s)
		return;
	size_t n = 1;
	for (const char *p = s; *p; p++)
		n += *p == ',';
	t->plan = xcalloc(n, sizeof *t->plan);
	for (const char *p = s;;) {
		char *end;
		t->plan[t->nplan++] = strtoll(p, &end, 10);
		if (end == p || (*end && *end != ','))
			break;
		if (!*end)
			return;
		p = end + 1;
	}
	/* Not a list of instants: none, so validation says so. */
	t->nplan = 0;
}

/* FNV-1a over the fields that make two pending tasks twins. */
void
task_dedup_key(const struct task *t, char out[17])
{
	uint64_t h = 1469598103934665603ULL;
	char *plan = task_plan_text(t);
	const char *parts[] = {t->intent ? t->intent : t->prompt, task_kind_name(t->kind),
		t->cron, plan, t->tz, t->channel};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		for (const char *p = parts[i] ? parts[i] : ""; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 1099511628211ULL;
		}
		h ^= 0x1f;
		h *= 1099511628211ULL;
	}
	free(plan);
	/* The ends too, but only when set, so a task without one keeps the key
	 * stored before ends took part; the scope likewise. */
	char ends[160 + TASK_SCOPE_MAX] = "";
	if (t->until_at != TIME_NONE || t->count)
		snprintf(ends, sizeof ends, "until=%lld count=%d", (long long)(t->until_at == TIME_NONE ?
		    0 : t->until_at), t->count);
	if (t->scope)
		snprintf(ends + strlen(ends), sizeof ends - strlen(ends), " scope=%s", t->scope);
	if (t->kind == KIND_EVERY)
		snprintf(ends + strlen(ends), sizeof ends - strlen(ends), " every=%d from=%lld", t->every,
		    (long long)t->anchor);
	if (t->not_before != TIME_NONE)
		snprintf(ends + strlen(ends), sizeof ends - strlen(ends), " not_before=%lld",
		    (long long)t->not_before);
	for (const char *p = ends; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

void
task_fmt_time(const struct task *t, struct zones *zs, int64_t when, int style, char *buf, size_t n)
{
	zone_fmt_time(zs, t->tz, when, style, buf, n);
}

void
zone_fmt_time(struct zones *zs, const char *zone, int64_t when, int style, char *buf, size_t n)
{
	if (when == TIME_NONE) {
		snprintf(buf, n, "none");
		return;
	}
	const struct tz *z;
	struct err e;
	WITH_ZONES(zs, tmp);
	if (zones_get(zs, zone ? zone : zones_local(zs), &z, &e) != ST_OK) {
		time_fmt_utc(when, buf, n);
	} else if (style == TIME_RFC3339) {
		tz_fmt_rfc3339(z, when, buf, n);
	} else {
		char local[64];
		tz_fmt_local(z, when, local, sizeof local);
		if (style == TIME_WALL)
			snprintf(buf, n, "%s", local);
		else
			snprintf(buf, n, "%s %s", local, tz_abbr(z, when));
	}
	zones_free(tmp);
}
