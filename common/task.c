/* task.c: the task model (task.h): names of kinds and statuses, the next
 * firing instant, jitter, ends, dedup keys and instants in a zone for
 * people (descriptions in task_describe.c, the zone cache in zones.c,
 * validation in task_validate.c, freeing and copying by the table of
 * fields in task_fields.c). */
#include <stdlib.h>
#include <string.h>

#include "cron.h"
#include "prompt_text.h"
#include "task.h"
#include "tz.h"
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

int
task_paused_by_failures(const struct task *t)
{
	return t->paused && strncmp(t->paused, TASK_PAUSED_FAILURES, strlen(TASK_PAUSED_FAILURES)) == 0;
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

int
task_never_again(const struct task *t, struct err *e)
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
		return task_never_again(t, e);
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
