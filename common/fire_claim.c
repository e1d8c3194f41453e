/* Claiming due and queued work: the store's scan finds it, claim_decide
 * (claim_decide.h) decides from the facts gathered, and the decision is
 * written in the claim's transaction (fire.c says how a claim goes). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "claim_decide.h"
#include "fire_input.h"
#include "fire_owner.h"
#include "fire_rules.h"
#include "notify.h"
#include "store_audit.h"
#include "task_fields.h"

/* The run a claim fires: owned by us, leased for its timeout and more. */
int
fire_run_fill(struct fire *f, const struct task *t, int64_t slot, int trigger, int attempt,
    int64_t now, struct run *r, struct err *e)
{
	if (uuid4(r->id) != 0)
		return err_set(e, ST_ERR, "cannot make a run id: no randomness");
	memcpy(r->task_id, t->id, sizeof r->task_id);
	r->slot = slot;
	r->trigger = trigger;
	r->status = RUN_RUNNING;
	r->started_at = now;
	r->attempt = attempt;
	r->arming = t->arming;
	int timeout = t->timeout > 0 ? t->timeout : f->o.timeout;
	if (!str_empty(t->gate))
		timeout += t->gate_timeout > 0 ? t->gate_timeout : TASK_GATE_TIMEOUT;
	r->lease_until = now + timeout + (f->o.kill_grace_ms + 999) / 1000 + FIRE_LEASE_MARGIN;
	return ST_OK;
}

/* A task that cannot be computed is parked with the reason: one bad task
 * must not stop the others. */
static void
park(struct fire *f, struct task *t, int64_t now, const char *why)
{
	fire_warn(f, "task '%.8s' cannot be scheduled: %s", t->id, why);
	t->status = STATUS_FAILED;
	rules_set_next(t, NULL, TIME_NONE);
	char *msg = xasprintf("cannot compute the next run: %s", why);
	set_str(&t->last_error, msg);
	free(msg);
	t->updated_at = now;
}

/* The first words of a missed deadline's reason: its misses in a row are
 * one streak, told once. */
#define MISSED_WHY "could not start within its deadline"

/* Why an occurrence does not run: skipped (--missed skip) or missed (past
 * its deadline); malloc'd. */
static char *
unfired_why(struct fire *f, const struct task *t, const struct decision *d, int64_t now)
{
	char when[40], late[32], dl[32];
	time_fmt_utc(d->slot, when, sizeof when);
	duration_fmt((now - d->slot) * 1000, late, sizeof late);
	if (!d->missed)
		return xasprintf("missed its time (%s) by %lld s; skipped (--missed skip)", when,
		    (long long)(now - d->slot));
	int own = t->deadline > 0;
	duration_fmt((int64_t)(own ? t->deadline : f->o.deadline) * 1000, dl, sizeof dl);
	return xasprintf(MISSED_WHY " (%s%s) of %s: %s late; not run", dl, own ? ""
	    : ", from the configuration", when, late);
}

/* An occurrence that does not run, on record with why (taken) so the log
 * says it.  A skip the user did not choose in advance (a missed deadline,
 * --overlap skip, a gate) is told as a budget skip is: a line in the pass's
 * output and, without a hook, cron's mail; once per streak, not at every
 * occurrence: not when the task's last outcome was the same status with
 * the same first `same` bytes of reason (0: never told). */
static void
record_unfired(struct claim_ctx *x, struct task *t, const struct decision *d, struct run *r,
    int status, char *why, size_t same)
{
	if (uuid4(r->id) == 0) {
		memcpy(r->task_id, t->id, sizeof r->task_id);
		r->slot = d->slot;
		r->arming = t->arming;
		r->trigger = d->trigger;
		r->status = status;
		r->started_at = r->ended_at = x->now;
		r->duration_ms = 0;
		r->error = xstrdup(why);
	}
	int again = t->last_status && !strcmp(t->last_status, run_status_name(status)) &&
	    t->last_error && !strncmp(t->last_error, why, same);
	set_str(&t->last_status, run_status_name(status));
	set_str(&t->last_error, why);
	free(why);
	if (d->next == TIME_NONE)
		t->status = STATUS_COMPLETED;
	if (!same || again || !r->id[0])
		return;
	struct notice *n = xcalloc(1, sizeof *n);
	n->event = -1;
	task_copy(&n->task, t);
	n->run = *r;
	fields_copy_text(&run_fields, &n->run);
	n->next = x->notices;
	x->notices = n;
}

/* An occurrence (or a queued run) over budget: skipped, on record with
 * the reason, told once per window; the task goes on at next. */
static void
skip_over_budget(struct claim_ctx *x, struct task *t, const struct decision *d, struct run *r,
    const char *why, int64_t window, int64_t next)
{
	if (uuid4(r->id) == 0) {
		memcpy(r->task_id, t->id, sizeof r->task_id);
		r->slot = d->slot;
		r->arming = t->arming;
		r->trigger = d->trigger;
		r->status = RUN_SKIPPED;
		r->started_at = r->ended_at = x->now;
		r->duration_ms = 0;
		r->error = xstrdup(why);
	}
	set_str(&t->last_status, "skipped");
	set_str(&t->last_error, why);
	rules_set_next(t, x->f->zs, next);
	t->updated_at = x->now;
	if (t->budget_noticed == window)
		return;
	t->budget_noticed = window;
	struct notice *n = xcalloc(1, sizeof *n);
	n->event = EV_BUDGET;
	task_copy(&n->task, t);
	n->run = *r;
	fields_copy_text(&run_fields, &n->run);
	n->next = x->notices;
	x->notices = n;
}

static int
first_run(const struct run *r, void *arg)
{
	struct run *out = arg;
	*out = *r;
	fields_copy_text(&run_fields, out);
	return 1;
}

/* The run in flight of t, into cur (cur->id empty: none on record). */
static int
run_in_flight(struct fire *f, const struct task *t, struct run *cur, struct err *e)
{
	struct run_filter rf;
	run_filter_init(&rf);
	rf.task_id = t->id;
	rf.status = RUN_RUNNING;
	rf.limit = 1;
	rf.with_output = 1;
	return store_run_list(f->st, &rf, first_run, cur, e);
}

/* An occurrence due while its task runs (c->what REPLACE, SKIP_OVERLAP or
 * UNFIRED): skip records it skipped; replace asks the run in flight (cur)
 * to end (its owner, on any host, ends it within CANCEL_POLL_MS and the
 * grace) and looks again in a few seconds, the occurrence kept due to
 * start once the run is recorded cancelled. */
static int
claim_overlap(struct claim_ctx *x, struct task *t, const struct claim_choice *c,
    const struct run *cur, struct run *r, struct err *e)
{
	struct fire *f = x->f;
	const struct decision *d = &c->due;
	int64_t now = x->now;
	int rc = ST_OK;
	char since[40], when[40];
	time_fmt_utc(cur->started_at, since, sizeof since);
	time_fmt_utc(d->slot, when, sizeof when);
	if (c->what == CLAIM_DO_REPLACE) {
		if (!cur->note || strncmp(cur->note, STORE_CANCEL_NOTE, strlen(STORE_CANCEL_NOTE))) {
			char *note = xasprintf(STORE_CANCEL_NOTE "replaced by its occurrence of %s"
			    " (--overlap replace)", when);
			rc = store_run_note(f->st, cur->id, note, e);
			free(note);
		}
		rules_set_next(t, f->zs, d->slot);
		t->due_at = now + REPLACE_RECHECK;
	} else {
		int status = t->status;
		/* --overlap skip: on record with the run it gave way to, told
		 * once for that run. */
		if (c->what == CLAIM_DO_SKIP_OVERLAP)
			record_unfired(x, t, d, r, RUN_SKIPPED, xasprintf("still running since %s (run %.8s);"
			    " skipped (--overlap skip)", since, cur->id), SIZE_MAX);
		else
			record_unfired(x, t, d, r, d->missed ? RUN_MISSED : RUN_SKIPPED,
			    unfired_why(f, t, d, now), d->missed ? strlen(MISSED_WHY) : 0);
		t->status = status;
		rules_set_next(t, f->zs, d->next);
	}
	t->updated_at = now;
	return rc;
}

/* The retry t waited for was overtaken by a newer occurrence: counted
 * failed now.  1 if that paused t (told once committed, on the audit
 * trail now: *rc). */
static int
retry_dropped(struct claim_ctx *x, struct task *t, const struct decision *d, int *rc,
    struct err *e)
{
	int was_enabled = t->enabled;
	t->updated_at = x->now;
	if (!rules_retry_dropped(t, x->f->zs, d))
		return 0;
	*rc = store_audit_auto_pause(x->f->st, t, was_enabled, e);
	struct notice *n = xcalloc(1, sizeof *n);
	n->event = EV_PAUSED;
	task_copy(&n->task, t);
	run_init(&n->run);
	n->next = x->notices;
	x->notices = n;
	return 1;
}

/* A due task: the facts claim_decide asks for gathered, its decision
 * written into t and r. */
static int
claim_due(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	struct claim_ctx *x = arg;
	struct fire *f = x->f;
	*decision = CLAIM_SKIP;
	struct claim_facts in = {.t = t, .now = x->now, .deadline = f->o.deadline,
		.global_budget = f->spend.global.set, .last_attempt = last_attempt,
		.preview = x->preview != NULL,
		.fired_this_pass = idset_has(&f->fired, t->id)};
	struct claim_choice c;
	struct run cur;
	run_init(&cur);
	char why[256];
	int64_t window = TIME_NONE, until = TIME_NONE, failed = t->next_run_at;
	int rc;
	while (!(rc = claim_decide(&in, f->zs, &c)) && c.what == CLAIM_DO_NEED) {
		if (c.need & CLAIM_NEED_IN_FLIGHT) {
			if ((rc = run_in_flight(f, t, &cur, e)))
				break;
			in.in_flight = cur.id[0] != 0;
		}
		if ((c.need & CLAIM_NEED_BUDGET) && (rc = spend_check_task(&f->spend, f->st, t, f->zs,
		    x->now, &in.over_budget, why, sizeof why, &window, &until, NULL, 0, e)))
			break;
		in.known |= c.need;
	}
	const struct decision *d = &c.due;
	if (rc || c.what == CLAIM_DO_NOTHING)
		goto done;
	if (x->preview) {
		struct fire_preview p = {t, d->slot, !d->fire ? "skip"
			: c.what == CLAIM_DO_BUDGET_SKIP ? "budget" : run_trigger_name(c.trigger)};
		x->preview(&p, x->preview_arg);
		goto done;
	}
	*decision = CLAIM_WRITE;
	if (c.what == CLAIM_DO_PARK) {
		park(f, t, x->now, c.why);
		goto done;
	}
	if (c.what == CLAIM_DO_REPLACE || c.what == CLAIM_DO_SKIP_OVERLAP || c.keep_status) {
		rc = claim_overlap(x, t, &c, &cur, r, e);
		goto done;
	}
	if (c.count_failure) {
		/* A retry given up over budget: paused, it goes on at the next. */
		struct decision gone = *d;
		if (d->trigger == TRIGGER_RETRY)
			gone.slot = d->next;
		if (retry_dropped(x, t, &gone, &rc, e) || c.what == CLAIM_DO_PAUSE)
			goto done;
	}
	if (c.what == CLAIM_DO_BUDGET_SKIP) {
		/* A recurring task's retry is its occurrence armed again: its
		 * skip is a record of its own beside the attempt that failed. */
		if (d->trigger == TRIGGER_RETRY && task_repeats(t))
			t->arming++;
		/* A last occurrence waits for the next window, unless that is
		 * past its deadline (a retry's wait is none of the deadline's). */
		int64_t next = d->next != TIME_NONE ? d->next : until;
		int dl = t->deadline > 0 ? t->deadline : f->o.deadline;
		if (d->next == TIME_NONE && d->trigger != TRIGGER_RETRY && dl > 0 &&
		    until != TIME_NONE && until - (d->slot + task_delay(t, f->zs, d->slot)) > dl) {
			char dls[32];
			size_t l = strlen(why);
			duration_fmt((int64_t)dl * 1000, dls, sizeof dls);
			snprintf(why + l, sizeof why - l, "; not run later: its deadline (%s) ends before"
			    " the next window", dls);
			next = TIME_NONE;
		}
		skip_over_budget(x, t, d, r, why, window, next);
		/* A run in flight goes on (--overlap replace). */
		if (next == TIME_NONE && t->status != STATUS_RUNNING)
			t->status = STATUS_COMPLETED;
		goto done;
	}
	if (c.what == CLAIM_DO_START) {
		if (c.new_arming)
			t->arming++;
		rc = fire_run_fill(f, t, d->slot, c.trigger, c.attempt, x->now, r, e);
		if (!rc)
			rc = spend_reserve(&f->spend, f->st, t, r->id, e);
		if (rc)
			goto done;
		t->status = STATUS_RUNNING;
		idset_add(&f->fired, t->id);
		*decision = CLAIM_FIRE;
	} else if (c.what == CLAIM_DO_UNFIRED) {
		record_unfired(x, t, d, r, d->missed ? RUN_MISSED : RUN_SKIPPED,
		    unfired_why(f, t, d, x->now), d->missed ? strlen(MISSED_WHY) : 0);
	}
	rules_set_next(t, f->zs, d->next);
	t->updated_at = x->now;
done:
	/* Its followers fire once the claim committed, in a unit of their
	 * own: queued here, a follower this claim also writes would lose it. */
	if (!rc && c.count_failure) {
		struct notice *n = xcalloc(1, sizeof *n);
		n->event = -1;
		n->given_up = failed;
		task_copy(&n->task, t);
		run_init(&n->run);
		n->next = x->notices;
		x->notices = n;
	}
	run_free(&cur);
	return rc;
}

/* Bind input in to r, the run (or skip) the claim makes of it; the task
 * stays queued while more inputs wait. */
static int
fire_take_input(struct claim_ctx *x, struct task *t, const struct run_input *in, struct run *r,
    int *decision, struct err *e)
{
	int got = 0, more = 0;
	struct run_input next;
	run_input_init(&next);
	int rc = store_input_bind(x->f->st, in->id, r->id, &got, e);
	if (!rc && !got)
		*decision = CLAIM_SKIP;
	if (!rc && got && !(rc = store_input_find(x->f->st, INPUT_NEXT, t->id, NULL, &next, &more, e)))
		t->queued = more;
	run_input_free(&next);
	return rc;
}

/* A manual run (task-run, or queued).  From the queue, a task that is
 * running or no longer queued is left alone. */
int
fire_claim_manual(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	struct claim_ctx *x = arg;
	(void)last_attempt;
	*decision = CLAIM_SKIP;
	struct manual_facts mf = {.t = t, .from_queue = x->from_queue, .preview = x->preview != NULL,
		.global_budget = x->f->spend.global.set};
	char why[256];
	int need, rc;
	int64_t window = TIME_NONE;
	enum claim_do what;
	while ((what = claim_decide_manual(&mf, &need)) == CLAIM_DO_NEED) {
		if ((rc = spend_check_task(&x->f->spend, x->f->st, t, x->f->zs, x->now, &mf.over_budget,
		    why, sizeof why, &window, NULL, NULL, 0, e)))
			return rc;
		mf.known |= need;
	}
	if (what == CLAIM_DO_NOTHING)
		return ST_OK;
	if (x->preview) {
		struct fire_preview p = {t, TIME_NONE, run_trigger_name(TRIGGER_MANUAL)};
		x->preview(&p, x->preview_arg);
		return ST_OK;
	}
	if (what == CLAIM_DO_REFUSE)
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", t->id);
	int over = what == CLAIM_DO_BUDGET_SKIP;
	/* Asked for by an upstream's end or an event: the oldest input waiting. */
	struct run_input in;
	int found = 0;
	run_input_init(&in);
	if (x->from_queue && (rc = store_input_find(x->f->st, INPUT_NEXT, t->id, NULL, &in, &found, e)))
		return rc;
	int trigger = !found ? TRIGGER_MANUAL : in.kind == INPUT_AFTER ? TRIGGER_AFTER : TRIGGER_EVENT;
	int64_t slot = found ? in.slot : TIME_NONE;
	if (over) {
		struct decision d = {.slot = slot, .next = t->next_run_at, .trigger = trigger};
		skip_over_budget(x, t, &d, r, why, window, t->next_run_at);
		t->queued = 0;
		*decision = CLAIM_WRITE;
	} else {
		/* A slot of its own is the upstream's: a new arming, as a backfill's. */
		if (slot != TIME_NONE)
			t->arming++;
		if ((rc = fire_run_fill(x->f, t, slot, trigger, 1, x->now, r, e)) ||
		    (rc = spend_reserve(&x->f->spend, x->f->st, t, r->id, e))) {
			run_input_free(&in);
			return rc;
		}
		snprintf(r->prev_status, sizeof r->prev_status, "%s", task_status_name(t->status));
		t->status = STATUS_RUNNING;
		/* A run by hand stands for a queued one, but not for an
		 * upstream's answer or an event waiting: those stay queued. */
		int was = t->queued;
		t->queued = 0;
		if (!x->from_queue && was &&
		    (rc = store_input_find(x->f->st, INPUT_NEXT, t->id, NULL, &in, &t->queued, e))) {
			run_input_free(&in);
			return rc;
		}
		t->updated_at = x->now;
		*decision = CLAIM_FIRE;
	}
	/* The input becomes this run (or this skip), once: the task is held. */
	if (found)
		rc = fire_take_input(x, t, &in, r, decision, e);
	run_input_free(&in);
	return rc;
}

/* Is anything due or queued, and this process fit to claim it?  1 yes, 0
 * no, else the error. */
static int
claim_ready(struct fire *f, int64_t now, int64_t *next, int *queued, struct err *e)
{
	if (f->more_due && f->registered && f->alive && mono_ms() < f->look_at) {
		*next = now;
		*queued = 0;
		return 1;
	}
	f->more_due = 0;
	f->look_at = mono_ms() + LOOK_EVERY_MS;
	/* Nothing due costs one read and no lock. */
	struct claim_look look;
	int rc = store_claim_look(f->st, &look, e);
	*next = look.next;
	*queued = look.queued;
	if (rc) {
		fire_store_down(f, e);
		return -rc;
	}
	if (look.paused)
		return 0;
	return fire_fit(f, (look.next != TIME_NONE && look.next <= now) || look.queued, e);
}

/* One claim of q (fn deciding, with x): what it made true kept to tell if
 * it committed; with carry, the ends waiting to be recorded ride along. */
static int
claim_once(struct fire *f, struct claim_req *q, claim_fn fn, struct claim_ctx *x, int carry,
    struct claimed *c, int *n, struct err *e)
{
	struct ride rd = {0};
	if (carry)
		fire_ride_attach(f, q, &rd, x->now);
	spend_check_fresh(&f->spend);
	int rc = store_claim(f->st, q, fn, x, c, n, e);
	fire_ride_settle(f, q, &rd, rc == ST_OK);
	fire_notices_keep(f, x, rc == ST_OK);
	return rc;
}

/* Running tasks with an occurrence due (--overlap skip and replace): they
 * are looked at whether executor slots are free or not. */
static int
claim_overlaps(struct fire *f, int64_t now, struct err *e)
{
	struct claim_ctx x = {.f = f, .now = now};
	struct claim_req q = {.what = CLAIM_OVERLAP, .now = now, .max = CLAIM_BATCH};
	int n = 0, rc = claim_once(f, &q, claim_due, &x, 0, NULL, &n, e);
	if (rc == ST_REFUSED) {
		f->alive = 0;
		return ST_OK;
	}
	if (rc)
		fire_store_down(f, e);
	return rc;
}

int
fire_claim_now(struct fire *f, struct claimed **claimed, int *started, int *more, struct err *e)
{
	*claimed = NULL;
	*started = 0;
	*more = 0;
	int room = f->o.jobs - (int)f->nruns;
	int64_t now = now_of(f), next;
	int rc, queued;
	if ((rc = claim_ready(f, now, &next, &queued, e)) <= 0)
		return -rc;
	/* A transaction of its own: at the start of a pass, then once a
	 * second at most, so a drain of many runs does not pay it per run. */
	if (mono_ms() >= f->overlap_at) {
		f->overlap_at = mono_ms() + OVERLAP_EVERY_MS;
		if ((rc = claim_overlaps(f, now, e)))
			return rc;
	}
	if (room <= 0) {
		*more = 1;
		return ST_OK;
	}
	/* Each claim takes at most the room left: together, room runs. */
	struct claimed *c = *claimed = xcalloc((size_t)room, sizeof *c);
	struct claim_ctx x = {.f = f, .now = now, .from_queue = 1};
	struct claim_req q = {.what = CLAIM_QUEUED, .now = now, .max = room};
	int n = 0, looked = 0;
	size_t fired0 = f->fired.n;
	/* The ends waiting to be recorded ride on the first claim. */
	rc = queued ? claim_once(f, &q, fire_claim_manual, &x, 1, c, &n, e) : ST_OK;
	if (!rc) {
		*started += n;
		room -= n;
	}
	x.from_queue = 0;
	q.what = CLAIM_DUE;
	q.cur = &f->cur;
	f->more_due = 0;
	while (!rc && room > 0 && next != TIME_NONE && next <= now) {
		if (looked >= CLAIM_BUDGET) {
			*more = 1;
			break;
		}
		q.max = room < CLAIM_BATCH ? room : CLAIM_BATCH;
		f->scanned_due = 1;
		struct due_cursor before = f->cur;
		if ((rc = claim_once(f, &q, claim_due, &x, !looked && !queued, c + *started, &n, e)))
			break;
		if (!memcmp(&before, &f->cur, sizeof before))
			break; /* nothing left past the cursor */
		looked += q.max;
		*started += n;
		room -= n;
		fired0 = f->fired.n;
		f->more_due = n == q.max;
	}
	if (rc == ST_REFUSED) {
		/* Declared dead: a new identity at the next sign of life. */
		idset_truncate(&f->fired, fired0);
		f->alive = 0;
		rc = ST_OK;
	} else if (rc) {
		/* Forget what the failed claim meant to fire; rescan next time. */
		f->more_due = 0;
		idset_truncate(&f->fired, fired0);
		due_cursor_init(&f->cur);
		fire_store_down(f, e);
	} else {
		fire_store_up(f);
		if (room <= 0)
			*more = 1;
	}
	return rc;
}

int
fire_left_behind(struct fire *f, int *left, struct err *e)
{
	*left = 0;
	if (!f->server || !f->scanned_due)
		return ST_OK;
	struct claim_look look;
	int rc = store_claim_look(f->st, &look, e);
	if (!rc)
		*left = !look.paused && look.next != TIME_NONE && look.next <= now_of(f);
	return rc;
}

void
fire_rescan(struct fire *f)
{
	due_cursor_init(&f->cur);
	f->more_due = 0;
	f->scanned_due = 0;
}

int
fire_claim_next(struct fire *f, int64_t *due, struct err *e)
{
	/* Claims coming back full: due now, as the next look will say. */
	if (f->more_due && mono_ms() < f->look_at) {
		*due = now_of(f);
		return ST_OK;
	}
	struct claim_look look;
	int rc = store_claim_look(f->st, &look, e);
	*due = !rc && look.queued ? now_of(f) : look.next;
	return rc;
}

int
fire_claim_preview(struct fire *f, void (*fn)(const struct fire_preview *p, void *arg),
    void *arg, struct err *e)
{
	/* A claim that decides to change nothing: it sees what a pass would. */
	struct claim_ctx x = {.f = f, .now = now_of(f), .from_queue = 1, .preview = fn,
		.preview_arg = arg};
	struct due_cursor cur;
	due_cursor_init(&cur);
	struct claim_req q = {.what = CLAIM_QUEUED, .now = x.now, .cur = &cur, .max = CLAIM_BATCH};
	int n = 0, rc;
	if ((rc = store_claim(f->st, &q, fire_claim_manual, &x, NULL, &n, e)))
		return rc;
	x.from_queue = 0;
	q.what = CLAIM_DUE;
	for (;;) {
		struct due_cursor before = cur;
		if ((rc = store_claim(f->st, &q, claim_due, &x, NULL, &n, e)))
			return rc;
		if (!memcmp(&before, &cur, sizeof cur))
			return ST_OK;
	}
}
