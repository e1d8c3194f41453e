/* The promises of retries and auto-pause whatever the pass rhythm: a
 * failing recurring task, driven through the claim's rules
 * (common/fire_rules.c) by one pass a minute (cron), one pass a minute
 * started 5 s late, a pass every 10 s, and a watcher that wakes only when
 * the task is due, runs the same attempts with the same triggers and
 * pauses after the same failed occurrence as a minute-by-minute reference
 * written from the documented rules alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fire_rules.h"
#include "tap.h"

#define T0 1795417200 /* 2026-11-23T07:00:00Z */
#define SPAN 240      /* minutes simulated */
#define MAXLOG 1024

struct attempt {
	int64_t slot, at;
	int attempt, trigger;
};

struct outcome {
	struct attempt log[MAXLOG];
	int n;
	int failures, paused;
	int64_t paused_at;
};

/* Whether attempt a of the occurrence at slot fails: a fixed hash, so
 * every rhythm meets the same fortune. */
static int
fails(unsigned seed, int64_t slot, int a, int rate)
{
	uint64_t h = (uint64_t)slot * 0x9e3779b97f4a7c15ULL ^ (uint64_t)a * 0xbf58476d1ce4e5b9ULL ^
	    seed * 0x94d049bb133111ebULL;
	h ^= h >> 31;
	h *= 0xd6e8feb86659fd39ULL;
	h ^= h >> 29;
	return (int)(h % 100) < rate;
}

struct scenario {
	const char *cron;
	int retries, pause_after, rate;
	unsigned seed;
};

static void
task_of(struct task *t, const struct scenario *s, struct zones *zs)
{
	task_init(t);
	snprintf(t->id, sizeof t->id, "5e1b0c4e-8a34-4d4e-9a0e-3d2f1c0b9a87");
	t->tz = xstrdup("UTC");
	t->kind = KIND_CRON;
	t->cron = xstrdup(s->cron);
	t->missed = MISSED_ONCE;
	t->retries = s->retries;
	t->pause_after = s->pause_after;
	t->status = STATUS_PENDING;
	t->enabled = 1;
	int64_t first;
	struct err e;
	if (task_next_slot(t, zs, T0 - 1, &first, &e))
		abort();
	rules_set_next(t, zs, first);
}

/* One pass at now, as the claim and the end of the run do it. */
static void
pass(struct task *t, struct zones *zs, const struct scenario *s, int64_t now, int *last_attempt,
    struct outcome *o)
{
	struct decision d;
	struct err e;
	if (!t->enabled || t->due_at == TIME_NONE || t->due_at > now)
		return;
	if (rules_due(t, zs, now, &d, &e))
		abort();
	if (d.dropped_retry && rules_retry_dropped(t, zs, &d)) {
		o->paused_at = now;
		return;
	}
	if (!d.fire) {
		rules_set_next(t, zs, d.next);
		return;
	}
	int attempt = d.trigger == TRIGGER_RETRY ? *last_attempt + 1 : 1;
	if (d.trigger == TRIGGER_RETRY)
		t->arming++;
	*last_attempt = attempt;
	if (o->n < MAXLOG)
		o->log[o->n++] = (struct attempt){d.slot, now, attempt, d.trigger};
	t->status = STATUS_RUNNING;
	rules_set_next(t, zs, d.next);
	struct run r;
	run_init(&r);
	r.slot = d.slot;
	r.started_at = r.ended_at = now;
	r.attempt = attempt;
	int bad = fails(s->seed, d.slot, attempt, s->rate);
	r.status = bad ? RUN_FAILED : RUN_SUCCESS;
	r.exit_code = bad;
	int was_paused = t->paused != NULL;
	rules_after_run(t, zs, &r, now);
	if (!was_paused && t->paused)
		o->paused_at = now;
	run_free(&r);
}

enum { CRON, CRON_LATE, EVERY_10S, WATCHER, NRHYTHMS };
static const char *const rhythms[] = {"one pass a minute", "one pass a minute, 5 s late",
	"a pass every 10 s", "a watcher"};

static void
simulate(const struct scenario *s, int rhythm, struct zones *zs, struct outcome *o)
{
	struct task t;
	int last_attempt = 0;
	memset(o, 0, sizeof *o);
	task_of(&t, s, zs);
	int64_t end = T0 + SPAN * 60;
	for (int64_t now = T0; now < end + 60;) {
		pass(&t, zs, s, now, &last_attempt, o);
		if (rhythm == CRON)
			now += 60;
		else if (rhythm == CRON_LATE)
			now = now == T0 ? T0 + 5 : now + 60;
		else if (rhythm == EVERY_10S)
			now += 10;
		else if (t.enabled && t.due_at != TIME_NONE && t.due_at > now)
			now = t.due_at;
		else
			break;
	}
	o->failures = t.consecutive_failures;
	o->paused = t.paused != NULL;
	task_free(&t);
}

/* The reference: the documented rules, minute by minute.  An occurrence
 * runs at its minute; a failure retries after 30 s, 2 min, 10 min, ...
 * on the next whole minute if that comes before the next occurrence,
 * else the occurrence counts as one failure; pause_after failures in a
 * row pause the task; a success clears the count. */
static void
reference(const struct scenario *s, struct zones *zs, struct outcome *o)
{
	static const int64_t backoff[] = {30, 120, 600, 1800, 3600};
	struct task t;
	struct err e;
	memset(o, 0, sizeof *o);
	task_of(&t, s, zs);
	int64_t occ = t.next_run_at, due = occ, next;
	int attempt = 1, failures = 0;
	int pause = s->pause_after < 0 ? 5 : s->pause_after;
	for (int64_t now = T0; now <= T0 + SPAN * 60; now += 60) {
		if (due > now)
			continue;
		if (task_next_slot(&t, zs, occ, &next, &e))
			abort();
		if (o->n < MAXLOG)
			o->log[o->n++] = (struct attempt){occ, now, attempt,
				attempt > 1 ? TRIGGER_RETRY : TRIGGER_SCHEDULE};
		if (!fails(s->seed, occ, attempt, s->rate)) {
			failures = 0;
			occ = due = next;
			attempt = 1;
			continue;
		}
		int64_t retry = now + backoff[attempt - 1 < 4 ? attempt - 1 : 4];
		retry += (60 - retry % 60) % 60;
		if (attempt <= s->retries && retry < next) {
			attempt++;
			due = retry;
			continue;
		}
		occ = due = next;
		attempt = 1;
		if (++failures >= pause && pause > 0) {
			o->paused = 1;
			o->paused_at = now;
			break;
		}
	}
	o->failures = failures;
	task_free(&t);
}

static int
same(const struct outcome *a, const struct outcome *b, int compare_at, char *why, size_t n)
{
	if (a->n != b->n) {
		snprintf(why, n, "%d attempts, want %d", a->n, b->n);
		return 0;
	}
	for (int i = 0; i < a->n; i++) {
		const struct attempt *x = &a->log[i], *y = &b->log[i];
		if (x->slot != y->slot || x->attempt != y->attempt || x->trigger != y->trigger ||
		    (compare_at && x->at / 60 != y->at / 60)) {
			snprintf(why, n, "attempt %d: slot %+lld s #%d %s at %+lld s, want slot %+lld s #%d %s at %+lld s",
			    i, (long long)(x->slot - T0), x->attempt, run_trigger_name(x->trigger),
			    (long long)(x->at - T0), (long long)(y->slot - T0), y->attempt,
			    run_trigger_name(y->trigger), (long long)(y->at - T0));
			return 0;
		}
	}
	if (a->paused != b->paused || a->failures != b->failures) {
		snprintf(why, n, "paused %d with %d failures, want paused %d with %d", a->paused,
		    a->failures, b->paused, b->failures);
		return 0;
	}
	return 1;
}

int
main(void)
{
	struct zones *zs = zones_new();
	static const char *const crons[] = {"* * * * *", "*/2 * * * *", "*/3 * * * *", "*/5 * * * *",
		"0 * * * *", "7,8,9,40 * * * *", "*/15 7-9 * * *", "1-59/7 * * * *"};
	/* The repro: every minute, 1 retry, paused after 2. */
	struct scenario repro = {"* * * * *", 1, 2, 100, 1};
	struct outcome ref, got;
	reference(&repro, zs, &ref);
	check(ref.paused && ref.n == 2, "the reference pauses the repro after its 2nd occurrence");
	for (int r = 0; r < NRHYTHMS; r++) {
		char why[256] = "as the reference";
		simulate(&repro, r, zs, &got);
		check(same(&got, &ref, r != WATCHER, why, sizeof why), "the repro, %s: %s", rhythms[r],
		    why);
		check_int(got.paused_at / 60, ref.paused_at / 60, "the repro, %s: paused at once",
		    rhythms[r]);
	}
	/* Random scenarios: seeded, so a failure replays. */
	srand(35);
	int cases = 0, bad = 0;
	for (int i = 0; i < 400; i++) {
		struct scenario s = {crons[rand() % (int)(sizeof crons / sizeof crons[0])],
			rand() % 5 - 1, rand() % 5, rand() % 101, (unsigned)rand()};
		if (s.retries < 0)
			s.retries = -1;
		/* -1: the default retries of a recurring task. */
		struct scenario eff = s;
		if (eff.retries < 0)
			eff.retries = TASK_DEFAULT_RECURRING_RETRIES;
		reference(&eff, zs, &ref);
		for (int r = 0; r < NRHYTHMS; r++) {
			char why[256] = "";
			simulate(&s, r, zs, &got);
			cases++;
			if (!same(&got, &ref, r != WATCHER, why, sizeof why)) {
				if (bad++ < 5)
					printf("# '%s' retries %d pause-after %d failing %d%% seed %u, %s: %s",
					    s.cron, s.retries, s.pause_after, s.rate, s.seed, rhythms[r], why), printf("\n");
			}
		}
	}
	check(bad == 0, "%d random scenarios under 4 rhythms agree with the reference (%d differ)",
	    cases, bad);
	zones_free(zs);
	return tap_done();
}
