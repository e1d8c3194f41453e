/* How much history the store keeps and pruning the rest (history.h).  A
 * round visits every task that has runs, then every named conversation,
 * then the model calls made outside runs; the cursor saying where the
 * round is lives in the settings table, written in the same transaction
 * as each batch, so a pass cut short loses nothing and hosts sharing a
 * store share the round. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store_audit.h"
#include "history.h"
#include "store_history.h"
#include "store_web.h"

#define CURSOR_KEY "prune_cursor"   /* "STAGE:AFTER" */
#define ROUND_KEY "prune_round"     /* when the last round ended, seconds */
#define ROUND_GAP 600               /* a pass starts a round at most this often */

enum { STAGE_TASKS, STAGE_CONTEXTS, STAGE_LOOSE };

/* "90 days", "36 hours", "1 week". */
static void
secs_words(int64_t secs, char *buf, size_t n)
{
	size_t i = 0;
	while (i + 1 < KEEP_UNITS && secs % keep_units[i].secs)
		i++;
	long long v = secs / keep_units[i].secs;
	snprintf(buf, n, "%lld %s%s", v, keep_units[i].word, v == 1 ? "" : "s");
}

static int
config_count(const struct config *cf, const char *key, long min, long *out, struct err *e)
{
	const char *v = config_get(cf, key);
	if (!v)
		return ST_OK;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (end == v || *end || errno || n < min)
		return err_set(e, ST_INVALID, "%s: bad %s '%.40s': expected a whole number from %ld",
		    config_path(cf), key, v, min);
	*out = n;
	return ST_OK;
}

int
history_opts_config(struct history_opts *o, const struct config *cf, struct err *e)
{
	o->keep = HISTORY_KEEP_DEFAULT;
	o->keep_runs = HISTORY_KEEP_RUNS_DEFAULT;
	o->context_messages = HISTORY_CONTEXT_DEFAULT;
	const char *v = cf ? config_get(cf, "keep") : NULL;
	struct keep k;
	struct err sub;
	if (v && (keep_parse(v, &k, &sub) || k.runs))
		return err_set(e, ST_INVALID, "%s: bad keep '%.40s': expected a duration like 90d, 12h"
		    " or 2w, or forever (keep_runs counts runs)", config_path(cf), v);
	if (v)
		o->keep = k.forever ? 0 : k.secs;
	o->hook_keep = HISTORY_HOOK_KEEP_DEFAULT;
	v = cf ? config_get(cf, "hook_keep") : NULL;
	if (v && (keep_parse(v, &k, &sub) || k.runs))
		return err_set(e, ST_INVALID, "%s: bad hook_keep '%.40s': expected a duration like 7d,"
		    " 12h or 2w, or forever", config_path(cf), v);
	if (v)
		o->hook_keep = k.forever ? 0 : k.secs;
	int rc;
	if (cf && ((rc = config_count(cf, "keep_runs", 0, &o->keep_runs, e)) ||
	    (rc = config_count(cf, "context_messages", 1, &o->context_messages, e))))
		return rc;
	if (o->keep_runs && o->keep_runs < HISTORY_MIN_RUNS)
		o->keep_runs = HISTORY_MIN_RUNS;
	return ST_OK;
}

void
history_describe(const char *keep, const struct history_opts *o, char *buf, size_t n)
{
	struct keep k;
	struct err e;
	char age[48];
	if (keep && keep_parse(keep, &k, &e) == ST_OK) {
		if (k.forever)
			snprintf(buf, n, "forever");
		else if (k.runs)
			snprintf(buf, n, "the last %ld runs", k.runs);
		else {
			secs_words(k.secs, age, sizeof age);
			snprintf(buf, n, "%s, and the last %d runs", age, HISTORY_MIN_RUNS);
		}
		return;
	}
	if (!o->keep && !o->keep_runs) {
		snprintf(buf, n, "forever (the default)");
		return;
	}
	secs_words(o->keep, age, sizeof age);
	if (o->keep && o->keep_runs)
		snprintf(buf, n, "%s or the last %ld runs, whichever is less (the default)", age,
		    o->keep_runs);
	else if (o->keep)
		snprintf(buf, n, "%s, and the last %d runs (the default)", age, HISTORY_MIN_RUNS);
	else
		snprintf(buf, n, "the last %ld runs (the default)", o->keep_runs);
}

/* Before which instant a task's runs go (INT64_MIN: none of them). */
static int
task_cut(struct store *st, const struct prune_task *t, const struct history_opts *o, int64_t now,
    int64_t *cut, struct err *e)
{
	struct keep k = {.secs = o->keep, .runs = o->keep_runs, .forever = !o->keep && !o->keep_runs};
	struct err bad;
	*cut = INT64_MIN;
	/* A keep this agentcron cannot read is kept as if forever. */
	if (t->keep && keep_parse(t->keep, &k, &bad))
		return ST_OK;
	if (k.forever)
		return ST_OK;
	int64_t oldest, floor, nth;
	int rc = store_prune_bounds(st, t->id, HISTORY_MIN_RUNS, k.runs ? k.runs : HISTORY_MIN_RUNS,
	    &oldest, &floor, &nth, e);
	if (rc || floor == TIME_NONE)
		return rc;
	int64_t by_age = k.secs ? now - k.secs : INT64_MIN;
	int64_t by_count = k.runs && nth != TIME_NONE ? nth : INT64_MIN;
	int64_t c = by_age > by_count ? by_age : by_count;
	if (c > floor)
		c = floor;
	if (oldest < c)
		*cut = c;
	return ST_OK;
}

struct batch {
	struct store *st;
	const struct history_opts *o;
	int64_t now;
	int dry;
	long room;               /* rows this batch may still remove */
	int stage;
	char *after;             /* the cursor: last task or conversation done */
	struct prune_stats *s;
};

static void
set_after(struct batch *b, const char *v)
{
	set_str(&b->after, v);
}

/* Tasks: returns 1 when the stage is done. */
static int
batch_tasks(struct batch *b, int *stage_done, struct err *e)
{
	struct prune_task t[HISTORY_BATCH_TASKS];
	int n, rc = store_prune_tasks(b->st, b->after, HISTORY_BATCH_TASKS, t, &n, e);
	*stage_done = 0;
	for (int i = 0; !rc && i < n && b->room > 0; i++) {
		int64_t cut;
		long runs = 0, calls = 0;
		if ((rc = task_cut(b->st, &t[i], b->o, b->now, &cut, e)))
			break;
		if (cut != INT64_MIN && (rc = store_prune_runs(b->st, t[i].id, cut, b->room, b->dry,
		    &runs, &calls, e)))
			break;
		b->s->runs += runs;
		b->s->calls += calls;
		b->room -= b->dry ? 0 : runs;
		/* A task with more to go is where the next batch starts. */
		if (b->room > 0 || b->dry)
			set_after(b, t[i].id);
	}
	if (!rc && n < HISTORY_BATCH_TASKS && b->room > 0)
		*stage_done = 1;
	prune_tasks_free(t, n);
	return rc;
}

static int
batch_contexts(struct batch *b, int *stage_done, struct err *e)
{
	char *names[HISTORY_BATCH_TASKS];
	int n, rc = store_prune_contexts(b->st, b->after, HISTORY_BATCH_TASKS, names, &n, e);
	*stage_done = 0;
	for (int i = 0; !rc && i < n && b->room > 0; i++) {
		long gone = 0;
		rc = store_prune_messages(b->st, names[i], b->o->context_messages, b->dry ? LONG_MAX :
		    b->room, b->dry, &gone, e);
		b->s->messages += gone;
		b->room -= b->dry ? 0 : gone;
		if (!rc && (b->room > 0 || b->dry))
			set_after(b, names[i]);
	}
	if (!rc && n < HISTORY_BATCH_TASKS && b->room > 0)
		*stage_done = 1;
	for (int i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

static int
batch_loose(struct batch *b, int *stage_done, struct err *e)
{
	long gone = 0;
	*stage_done = 1;
	if (!b->o->keep)
		return ST_OK;
	int rc = store_prune_loose_calls(b->st, b->now - b->o->keep, b->dry ? LONG_MAX : b->room,
	    b->dry, &gone, e);
	b->s->loose_calls += gone;
	if (!b->dry && gone >= b->room)
		*stage_done = 0;
	b->room -= b->dry ? 0 : gone;
	return rc;
}

static void
cursor_read(struct batch *b, const char *v)
{
	b->stage = STAGE_TASKS;
	set_after(b, "");
	if (v && v[0] >= '0' && v[0] <= '2' && v[1] == ':') {
		b->stage = v[0] - '0';
		set_after(b, v + 2);
	}
}

/* One batch: stages until the room is used or the round ends (*done). */
static int
batch_run(struct batch *b, int *done, struct err *e)
{
	int rc = ST_OK, stage_done = 0;
	*done = 0;
	while (!rc && b->room > 0 && !*done) {
		if (b->stage == STAGE_TASKS)
			rc = batch_tasks(b, &stage_done, e);
		else if (b->stage == STAGE_CONTEXTS)
			rc = batch_contexts(b, &stage_done, e);
		else
			rc = batch_loose(b, &stage_done, e);
		if (rc || !stage_done)
			break;
		set_after(b, "");
		if (b->stage == STAGE_LOOSE) {
			b->stage = STAGE_TASKS;
			*done = 1;
		} else {
			b->stage++;
		}
	}
	return rc;
}

/* A batch in its own transaction, its cursor read and written in it. */
static int
batch_unit(struct batch *b, int *done, struct err *e)
{
	char *v = NULL;
	int rc = store_begin(b->st, e);
	if (!rc)
		rc = store_setting_get(b->st, CURSOR_KEY, &v, e);
	if (!rc) {
		cursor_read(b, v);
		rc = batch_run(b, done, e);
	}
	free(v);
	if (!rc) {
		char *cur = xasprintf("%d:%s", b->stage, b->after);
		rc = store_setting_set(b->st, CURSOR_KEY, cur, e);
		free(cur);
	}
	if (!rc && *done) {
		char when[24];
		snprintf(when, sizeof when, "%lld", (long long)b->now);
		rc = store_setting_set(b->st, ROUND_KEY, when, e);
	}
	if (!rc)
		rc = store_commit(b->st, e);
	if (rc)
		store_rollback(b->st);
	return rc;
}

int
history_prune(struct store *st, const struct history_opts *o, int64_t now, int dry,
    int64_t budget_ms, struct prune_stats *s, int *done, struct err *e)
{
	struct batch b = {.st = st, .o = o, .now = now, .dry = dry, .s = s};
	int64_t until = mono_ms() + budget_ms;
	char *last = NULL;
	int rc = ST_OK, recent = 0;
	memset(s, 0, sizeof *s);
	*done = 0;
	if (dry) {
		/* Counted from the start in one go: nothing moves, nothing is written. */
		b.room = LONG_MAX;
		cursor_read(&b, NULL);
		while (!rc && !*done)
			rc = batch_run(&b, done, e);
	}
	/* Passes start a round now and then: an idle pass only reads this. */
	if (!dry && budget_ms && !(rc = store_setting_get(st, ROUND_KEY, &last, e)) && last) {
		char *cur = NULL;
		long long at = strtoll(last, NULL, 10);
		rc = store_setting_get(st, CURSOR_KEY, &cur, e);
		if (!rc && now - at < ROUND_GAP && now >= at && (!cur || strcmp(cur, "0:") == 0))
			*done = recent = 1;
		free(cur);
	}
	free(last);
	while (!dry && !rc && !*done && (!budget_ms || mono_ms() < until)) {
		b.room = HISTORY_BATCH_ROWS;
		rc = batch_unit(&b, done, e);
	}
	free(b.after);
	/* The audit trail ages as the runs do, at the end of each round, but
	 * never past what a verification vouched for (store_audit.h). */
	long gone = 0;
	if (!rc && !dry && *done && !recent && o->keep > 0)
		rc = store_audit_prune(st, now - o->keep, 0, &gone, e);
	/* Events' keys age on their own clock, a batch at a time. */
	if (!rc && !dry && *done && !recent && o->hook_keep > 0)
		do
			rc = store_hook_prune(st, now - o->hook_keep, HISTORY_BATCH_ROWS, &gone, e);
		while (!rc && gone == HISTORY_BATCH_ROWS && (!budget_ms || mono_ms() < until));
	return rc;
}

int
history_give_back(struct store *st, struct err *e)
{
	int64_t bytes, free_bytes;
	char what[256];
	int rc = store_size(st, &bytes, &free_bytes, e);
	if (rc || free_bytes < HISTORY_FREE_KEPT)
		return rc;
	return store_vacuum(st, 0, HISTORY_GIVE_PAGES, what, sizeof what, e);
}

int
history_pass(struct store *st, const char *mode, int64_t now, struct err *e)
{
	struct pass p = {.at = now, .pid = getpid()};
	history_host(p.host, sizeof p.host);
	snprintf(p.mode, sizeof p.mode, "%s", mode);
	snprintf(p.version, sizeof p.version, "%s", AC_VERSION);
	return store_pass_record(st, &p, e);
}
