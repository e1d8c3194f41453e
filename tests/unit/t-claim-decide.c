/* The claim's decision (common/claim_decide.c) as a table: each policy
 * alone and where they cross (overlap x deadline, budget x retries,
 * pause x dropped retries, previews), the runs asked for (by hand,
 * queued, an event or a replay, a backfill), then the repro driven
 * through it: an every-minute task that always fails, --retries 1
 * --pause-after 2, pauses after its 2nd failed occurrence under one pass a
 * minute (cron), one a minute 5 s late, and a pass every 10 s alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim_decide.h"
#include "tap.h"

#define T0 1795417200 /* 2026-11-23T07:00:00Z */

static const char *const names[] = {"nothing", "need", "park", "replace", "skip-overlap",
	"unfired", "pause", "budget-skip", "start", "advance", "refuse"};

static void
task_of(struct task *t, const char *cron, struct zones *zs)
{
	task_init(t);
	snprintf(t->id, sizeof t->id, "5e1b0c4e-8a34-4d4e-9a0e-3d2f1c0b9a87");
	t->tz = xstrdup("UTC");
	t->name = xstrdup("fail1m");
	t->prompt = xstrdup("x");
	t->kind = KIND_CRON;
	t->cron = xstrdup(cron);
	t->missed = MISSED_ONCE;
	t->retries = 1;
	t->status = STATUS_PENDING;
	t->enabled = 1;
	int64_t first;
	struct err e;
	if (task_next_slot(t, zs, T0 - 1, &first, &e))
		abort();
	rules_set_next(t, zs, first);
}

/* A task state the table starts from. */
enum { PLAIN, RUNNING, BUDGET, UNKNOWN_KIND, MISSED_SKIPPED, DEADLINE_60, OVERLAP_REPLACED,
	DROPPED, DROPPED_PAUSES, MANUAL };

struct row {
	const char *what;
	int state;
	int64_t now;             /* from T0 */
	int known, in_flight, over, fired, preview, global, deadline;
	enum claim_do want;
	int need, count_failure, missed, attempt, trigger;
};

static const struct row rows[] = {
	{"due on time: a run starts, attempt 1, schedule", PLAIN, 0, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_START, 0, 0, 0, 1, TRIGGER_SCHEDULE},
	{"within the grace: still the schedule's", PLAIN, 5, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_START, 0, 0, 0, 1, TRIGGER_SCHEDULE},
	{"late past the grace, --missed once: a catch-up", PLAIN, 300, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_START, 0, 0, 0, 1, TRIGGER_CATCHUP},
	{"fired already this pass: left alone", PLAIN, 0, 0, 0, 0, 1, 0, 0, 0,
		CLAIM_DO_NOTHING, 0, 0, 0, 0, 0},
	{"a preview of a due task: a start, nothing counted", PLAIN, 0, 0, 0, 0, 0, 1, 0, 0,
		CLAIM_DO_START, 0, 0, 0, 1, TRIGGER_SCHEDULE},
	{"running: its run in flight is asked for", RUNNING, 0, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_NEED, CLAIM_NEED_IN_FLIGHT, 0, 0, 0, 0},
	{"running, fired this pass: still looked at for its overlap", RUNNING, 0, 0, 0, 0, 1, 0, 0, 0,
		CLAIM_DO_NEED, CLAIM_NEED_IN_FLIGHT, 0, 0, 0, 0},
	{"running, --overlap skip: the occurrence skipped", RUNNING, 0, CLAIM_NEED_IN_FLIGHT, 1, 0, 0,
		0, 0, 0, CLAIM_DO_SKIP_OVERLAP, 0, 0, 0, 0, 0},
	{"running, --overlap replace: the run in flight replaced", OVERLAP_REPLACED, 0,
		CLAIM_NEED_IN_FLIGHT, 1, 0, 0, 0, 0, 0, CLAIM_DO_REPLACE, 0, 0, 0, 0, 0},
	{"running without a run on record: left alone", RUNNING, 0, CLAIM_NEED_IN_FLIGHT, 0, 0, 0, 0,
		0, 0, CLAIM_DO_NOTHING, 0, 0, 0, 0, 0},
	{"running, previewed: nothing read, nothing shown", RUNNING, 0, 0, 0, 0, 0, 1, 0, 0,
		CLAIM_DO_NOTHING, 0, 0, 0, 0, 0},
	{"running, past a 60 s deadline: missed, not a skip of overlap", RUNNING, 300,
		CLAIM_NEED_IN_FLIGHT, 1, 0, 0, 0, 0, 60, CLAIM_DO_UNFIRED, 0, 0, 1, 0, 0},
	{"replace, but past the deadline: missed, the run in flight kept", OVERLAP_REPLACED, 300,
		CLAIM_NEED_IN_FLIGHT, 1, 0, 0, 0, 0, 60, CLAIM_DO_UNFIRED, 0, 0, 1, 0, 0},
	{"a budget: what was spent is asked for", BUDGET, 0, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_NEED, CLAIM_NEED_BUDGET, 0, 0, 0, 0},
	{"a global budget alone: asked for too", PLAIN, 0, 0, 0, 0, 0, 0, 1, 0,
		CLAIM_DO_NEED, CLAIM_NEED_BUDGET, 0, 0, 0, 0},
	{"over its budget: skipped", BUDGET, 0, CLAIM_NEED_BUDGET, 0, 1, 0, 0, 0, 0,
		CLAIM_DO_BUDGET_SKIP, 0, 0, 0, 0, 0},
	{"within its budget: a run starts", BUDGET, 0, CLAIM_NEED_BUDGET, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_START, 0, 0, 0, 1, TRIGGER_SCHEDULE},
	{"a preview over budget says so", BUDGET, 0, CLAIM_NEED_BUDGET, 0, 1, 0, 1, 0, 0,
		CLAIM_DO_BUDGET_SKIP, 0, 0, 0, 0, 0},
	{"a budget is not read for an occurrence that does not run", BUDGET, 300, 0, 0, 0, 0, 0, 0,
		60, CLAIM_DO_UNFIRED, 0, 0, 1, 0, 0},
	{"a kind this agentcron does not know: parked", UNKNOWN_KIND, 0, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_PARK, 0, 0, 0, 0, 0},
	{"previewed, an unknown kind parks nothing", UNKNOWN_KIND, 0, 0, 0, 0, 0, 1, 0, 0,
		CLAIM_DO_NOTHING, 0, 0, 0, 0, 0},
	{"--missed skip, late: skipped, not missed", MISSED_SKIPPED, 300, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_UNFIRED, 0, 0, 0, 0, 0},
	{"--missed skip, within the grace: runs", MISSED_SKIPPED, 5, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_START, 0, 0, 0, 1, TRIGGER_SCHEDULE},
	{"its own 60 s deadline, 5 min late: missed", DEADLINE_60, 300, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_UNFIRED, 0, 0, 1, 0, 0},
	{"the configuration's deadline applies when it has none", PLAIN, 300, 0, 0, 0, 0, 0, 0, 60,
		CLAIM_DO_UNFIRED, 0, 0, 1, 0, 0},
	{"its own deadline wins over the configuration's", DEADLINE_60, 30, 0, 0, 0, 0, 0, 0, 3600,
		CLAIM_DO_START, 0, 0, 0, 1, TRIGGER_SCHEDULE},
	{"a retry overtaken by the next occurrence: one failure, the next runs", DROPPED, 3600, 0, 0,
		0, 0, 0, 0, 0, CLAIM_DO_START, 0, 1, 0, 1, TRIGGER_SCHEDULE},
	{"... and that failure reaches --pause-after: paused", DROPPED_PAUSES, 3600, 0, 0, 0, 0, 0,
		0, 0, CLAIM_DO_PAUSE, 0, 1, 0, 0, 0},
	{"a paused-by-failure check comes before the budget's read", DROPPED_PAUSES, 3600, 0, 0, 0, 0,
		0, 1, 0, CLAIM_DO_PAUSE, 0, 1, 0, 0, 0},
	{"a dropped retry over budget: counted failed, then skipped for budget", DROPPED, 3600,
		CLAIM_NEED_BUDGET, 0, 1, 0, 0, 1, 0, CLAIM_DO_BUDGET_SKIP, 0, 1, 0, 0, 0},
	{"a preview counts no dropped retry", DROPPED_PAUSES, 3600, 0, 0, 0, 0, 1, 0, 0,
		CLAIM_DO_START, 0, 0, 0, 1, TRIGGER_SCHEDULE},
	{"a manual task is no firing kind: it only goes on", MANUAL, 0, 0, 0, 0, 0, 0, 0, 0,
		CLAIM_DO_ADVANCE, 0, 0, 0, 0, 0},
};

/* A recurring task's failed attempt at now, as the end of its run does it. */
static void
failed(struct task *t, struct zones *zs, int64_t slot, int attempt, int64_t now)
{
	struct run r;
	run_init(&r);
	r.slot = slot;
	r.started_at = r.ended_at = now;
	r.attempt = attempt;
	r.status = RUN_FAILED;
	r.exit_code = 1;
	rules_after_run(t, zs, &r, now);
	run_free(&r);
}

/* A claim's start of t at now (its decision c), as fire.c writes it. */
static void
started(struct task *t, struct zones *zs, const struct claim_choice *c)
{
	if (c->new_arming)
		t->arming++;
	t->status = STATUS_RUNNING;
	rules_set_next(t, zs, c->due.next);
}

static void
state_of(struct task *t, int state, struct zones *zs)
{
	/* Hourly, due at T0 + 3600: the table's 0 (the dropped retries' is
	 * an hour later). */
	task_of(t, "0 * * * *", zs);
	rules_set_next(t, zs, T0 + 3600);
	switch (state) {
	case RUNNING: t->status = STATUS_RUNNING; t->overlap = OVERLAP_SKIP; break;
	case OVERLAP_REPLACED: t->status = STATUS_RUNNING; t->overlap = OVERLAP_REPLACE; break;
	case BUDGET: t->budget = xstrdup("$2/day"); break;
	case UNKNOWN_KIND: t->kind = -1; break;
	case MISSED_SKIPPED: t->missed = MISSED_SKIP; break;
	case DEADLINE_60: t->deadline = 60; break;
	case MANUAL:
		t->kind = KIND_MANUAL;
		free(t->cron);
		t->cron = NULL;
		break;
	case DROPPED:
	case DROPPED_PAUSES: {
		/* Hourly, due at T0 + 3600; its 08:00 failed, the retry at
		 * 08:01 came due, and no pass ran until 09:00. */
		t->pause_after = state == DROPPED_PAUSES ? 2 : 3;
		t->consecutive_failures = 1;
		rules_set_next(t, zs, T0 + 3600);
		struct claim_facts in = {.t = t, .now = T0 + 3600};
		struct claim_choice c;
		if (claim_decide(&in, zs, &c) || c.what != CLAIM_DO_START) {
			fprintf(stderr, "# the state of row %d: %s, %s\n", state, names[c.what], c.why);
			abort();
		}
		started(t, zs, &c);
		failed(t, zs, c.due.slot, 1, T0 + 3600 + 20);
		break;
	}
	}
}

static void
table(struct zones *zs)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *w = &rows[i];
		struct task t;
		state_of(&t, w->state, zs);
		int64_t base = w->state == DROPPED || w->state == DROPPED_PAUSES ? T0 + 7200 : T0 + 3600;
		struct claim_facts in = {.t = &t, .now = base + w->now, .deadline = w->deadline,
			.global_budget = w->global, .fired_this_pass = w->fired, .preview = w->preview,
			.known = w->known, .in_flight = w->in_flight, .over_budget = w->over,
			.last_attempt = 1};
		struct claim_choice c;
		int rc = claim_decide(&in, zs, &c);
		int ok = rc == ST_OK && c.what == w->want && c.need == w->need &&
		    c.count_failure == w->count_failure;
		if (ok && (w->want == CLAIM_DO_UNFIRED))
			ok = c.due.missed == w->missed && !c.due.fire;
		if (ok && w->want == CLAIM_DO_START)
			ok = c.attempt == w->attempt && c.trigger == w->trigger && c.due.fire;
		if (ok && w->want == CLAIM_DO_PARK)
			ok = strstr(c.why, "kind") != NULL;
		if (!check(ok, "%s", w->what))
			printf("#   got %s (need %d, failure %d, missed %d, attempt %d, trigger %d)\n",
			    names[c.what], c.need, c.count_failure, c.due.missed, c.attempt, c.trigger);
		task_free(&t);
	}
}

/* Runs asked for by hand and queued ones. */
static void
manual(struct zones *zs)
{
	static const struct {
		const char *what;
		int from_queue, queued, running, deleted, budget, global, known, over, preview;
		enum claim_do want;
	} mrows[] = {
		{"by hand: starts", 0, 0, 0, 0, 0, 0, 0, 0, 0, CLAIM_DO_START},
		{"by hand over its budget: the user's to ask, starts", 0, 0, 0, 0, 1, 1, 0, 0, 0,
			CLAIM_DO_START},
		{"by hand while it runs: refused", 0, 0, 1, 0, 0, 0, 0, 0, 0, CLAIM_DO_REFUSE},
		{"by hand while it runs, previewed: shown", 0, 0, 1, 0, 0, 0, 0, 0, 1, CLAIM_DO_START},
		{"queued: starts", 1, 1, 0, 0, 0, 0, 0, 0, 0, CLAIM_DO_START},
		{"queued no more: left alone", 1, 0, 0, 0, 0, 0, 0, 0, 0, CLAIM_DO_NOTHING},
		{"queued, then removed: left alone", 1, 1, 0, 1, 0, 0, 0, 0, 0, CLAIM_DO_NOTHING},
		{"queued while it runs: waits", 1, 1, 1, 0, 0, 0, 0, 0, 0, CLAIM_DO_NOTHING},
		{"queued with a budget: what it spent is asked for", 1, 1, 0, 0, 1, 0, 0, 0, 0,
			CLAIM_DO_NEED},
		{"queued under a global budget: asked for too", 1, 1, 0, 0, 0, 1, 0, 0, 0, CLAIM_DO_NEED},
		{"queued over its budget: skipped", 1, 1, 0, 0, 1, 0, CLAIM_NEED_BUDGET, 1, 0,
			CLAIM_DO_BUDGET_SKIP},
		{"queued within its budget: starts", 1, 1, 0, 0, 1, 0, CLAIM_NEED_BUDGET, 0, 0,
			CLAIM_DO_START},
	};
	for (size_t i = 0; i < sizeof mrows / sizeof mrows[0]; i++) {
		struct task t;
		task_of(&t, "0 * * * *", zs);
		t.kind = KIND_MANUAL;
		t.queued = mrows[i].queued;
		if (mrows[i].running)
			t.status = STATUS_RUNNING;
		if (mrows[i].deleted)
			t.deleted_at = T0;
		if (mrows[i].budget)
			t.budget = xstrdup("$2/day");
		struct manual_facts in = {.t = &t, .from_queue = mrows[i].from_queue,
			.preview = mrows[i].preview, .global_budget = mrows[i].global,
			.known = mrows[i].known, .over_budget = mrows[i].over};
		int need;
		enum claim_do got = claim_decide_manual(&in, &need);
		if (!check(got == mrows[i].want && need == (got == CLAIM_DO_NEED ? CLAIM_NEED_BUDGET : 0),
		    "manual, %s", mrows[i].what))
			printf("#   got %s\n", names[got]);
		task_free(&t);
	}
}

/* Runs of an event or a replay: a key seen answers whatever the task does. */
static void
events(struct zones *zs)
{
	static const struct {
		const char *what;
		int replay, running, known, key_seen;
		enum claim_do want;
		int need, trigger;
	} erows[] = {
		{"an event: its key is looked for first", 0, 0, 0, 0, CLAIM_DO_NEED, CLAIM_NEED_KEY, 0},
		{"an event of a running task: its key first too", 0, 1, 0, 0, CLAIM_DO_NEED,
			CLAIM_NEED_KEY, 0},
		{"an event whose key was seen: nothing changes", 0, 0, CLAIM_NEED_KEY, 1,
			CLAIM_DO_NOTHING, 0, 0},
		{"an event seen, of a running task: the answer is what it became, no refusal", 0, 1,
			CLAIM_NEED_KEY, 1, CLAIM_DO_NOTHING, 0, 0},
		{"a new event of a running task: refused", 0, 1, CLAIM_NEED_KEY, 0, CLAIM_DO_REFUSE, 0, 0},
		{"a new event: starts, trigger event", 0, 0, CLAIM_NEED_KEY, 0, CLAIM_DO_START, 0,
			TRIGGER_EVENT},
		{"a replay: starts, trigger replay", 1, 0, CLAIM_NEED_KEY, 0, CLAIM_DO_START, 0,
			TRIGGER_REPLAY},
		{"a replay of a running task: refused", 1, 1, CLAIM_NEED_KEY, 0, CLAIM_DO_REFUSE, 0, 0},
	};
	for (size_t i = 0; i < sizeof erows / sizeof erows[0]; i++) {
		struct task t;
		task_of(&t, "0 * * * *", zs);
		t.kind = KIND_MANUAL;
		if (erows[i].running)
			t.status = STATUS_RUNNING;
		struct event_facts in = {.t = &t, .replay = erows[i].replay, .known = erows[i].known,
			.key_seen = erows[i].key_seen};
		struct claim_choice c;
		int rc = claim_decide_event(&in, &c);
		int start = c.what == CLAIM_DO_START;
		if (!check(!rc && c.what == erows[i].want && c.need == erows[i].need &&
		    (!start || (c.trigger == erows[i].trigger && c.attempt == 1 &&
		    c.due.slot == TIME_NONE && !c.new_arming)), "event, %s", erows[i].what))
			printf("#   got %s need %d trigger %d attempt %d\n", names[c.what], c.need, c.trigger,
			    c.attempt);
		task_free(&t);
	}
}

/* Backfills of an hourly task whose next run is T0. */
static void
backfills(struct zones *zs)
{
	static const struct {
		const char *what;
		int running;
		int64_t slot;            /* from T0 */
		int known, ran;
		enum claim_do want;
		int need, set_next;
		int64_t next;            /* from T0, when set_next */
	} brows[] = {
		{"a backfill of a running task: refused before its runs are read", 1, -7200, 0, 0,
			CLAIM_DO_REFUSE, 0, 0, 0},
		{"a backfill: whether its occurrence ran is asked for", 0, -7200, 0, 0, CLAIM_DO_NEED,
			CLAIM_NEED_SLOT_RAN, 0, 0},
		{"a backfill of an occurrence that ran: nothing", 0, -7200, CLAIM_NEED_SLOT_RAN, 1,
			CLAIM_DO_NOTHING, 0, 0, 0},
		{"a backfill of a past occurrence: starts; the next run stays", 0, -7200,
			CLAIM_NEED_SLOT_RAN, 0, CLAIM_DO_START, 0, 0, 0},
		{"a backfill of the occurrence due: the next run moves past it", 0, 0,
			CLAIM_NEED_SLOT_RAN, 0, CLAIM_DO_START, 0, 1, 3600},
		{"a backfill past the next run: the next run moves past it", 0, 3600,
			CLAIM_NEED_SLOT_RAN, 0, CLAIM_DO_START, 0, 1, 7200},
	};
	for (size_t i = 0; i < sizeof brows / sizeof brows[0]; i++) {
		struct task t;
		task_of(&t, "0 * * * *", zs);
		if (brows[i].running)
			t.status = STATUS_RUNNING;
		struct backfill_facts in = {.t = &t, .slot = T0 + brows[i].slot, .known = brows[i].known,
			.slot_ran = brows[i].ran};
		struct claim_choice c;
		int rc = claim_decide_backfill(&in, zs, &c);
		int start = c.what == CLAIM_DO_START;
		if (!check(!rc && c.what == brows[i].want && c.need == brows[i].need &&
		    c.set_next == brows[i].set_next && (!c.set_next || c.due.next == T0 + brows[i].next) &&
		    (!start || (c.trigger == TRIGGER_BACKFILL && c.attempt == 1 && c.new_arming &&
		    c.due.slot == T0 + brows[i].slot)), "backfill, %s", brows[i].what))
			printf("#   got %s need %d set_next %d next %+lld\n", names[c.what], c.need,
			    c.set_next, (long long)(c.due.next - T0));
		task_free(&t);
	}
}

/* The repro through the decision: passes at start, then every
 * step seconds for 15 minutes; each run fails at once. */
static void
repro(struct zones *zs, int64_t start, int64_t step, const char *rhythm)
{
	struct task t;
	task_of(&t, "* * * * *", zs); /* added at 06:59:59: first due 07:00 */
	t.retries = 1;
	t.pause_after = 2;
	int runs = 0, last_attempt = 0, paused_by_pass = 0;
	int64_t paused_at = TIME_NONE;
	for (int64_t now = start; now < T0 + 15 * 60; now += step) {
		if (!t.enabled || t.due_at == TIME_NONE || t.due_at > now)
			continue;
		struct claim_facts in = {.t = &t, .now = now, .last_attempt = last_attempt};
		struct claim_choice c;
		if (claim_decide(&in, zs, &c))
			abort();
		if (c.count_failure) {
			int paused = rules_retry_dropped(&t, zs, &c.due);
			if (paused != (c.what == CLAIM_DO_PAUSE))
				printf("# the decision and the rules disagree on a pause at %+lld s\n",
				    (long long)(now - T0));
			if (paused) {
				paused_by_pass = 1;
				paused_at = now;
				continue;
			}
		}
		if (c.what != CLAIM_DO_START) {
			rules_set_next(&t, zs, c.due.next);
			continue;
		}
		runs++;
		last_attempt = c.attempt;
		started(&t, zs, &c);
		int was_paused = t.paused != NULL;
		failed(&t, zs, c.due.slot, c.attempt, now + 1);
		if (!was_paused && t.paused)
			paused_at = now + 1;
	}
	check(t.paused != NULL && t.consecutive_failures == 2, "the repro, %s: paused after 2"
	    " failures (failures %d)", rhythm, t.consecutive_failures);
	check(paused_at != TIME_NONE && paused_at < T0 + 3 * 60, "the repro, %s: paused by 07:03"
	    " (%+lld s)", rhythm, (long long)(paused_at - T0));
	check(runs <= 4, "the repro, %s: %d runs, none after the pause%s", rhythm, runs,
	    paused_by_pass ? " (a pass counted the dropped retry)" : "");
	task_free(&t);
}

int
main(void)
{
	struct zones *zs = zones_new();
	table(zs);
	manual(zs);
	events(zs);
	backfills(zs);
	repro(zs, T0, 60, "one pass a minute");
	repro(zs, T0 + 5, 60, "one pass a minute, 5 s late");
	repro(zs, T0, 10, "a pass every 10 s");
	zones_free(zs);
	return tap_done();
}
