/* The pure rules of firing (fire_rules.h): no store, no clock, no
 * processes; every instant is a parameter, so tests/unit/t-fire-rules.c
 * checks them as a table. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fire_rules.h"
#include "oneline.h"

static int
plan_has(const struct task *t, int64_t s)
{
	for (size_t i = 0; i < t->nplan; i++)
		if (t->plan[i] == s)
			return 1;
	return 0;
}

/* When a slot is due: its jitter or the config's stagger (zs) after it. */
static int64_t
due_of(const struct task *t, struct zones *zs, int64_t slot)
{
	return slot + task_delay(t, zs, slot);
}

void
rules_set_next(struct task *t, struct zones *zs, int64_t next)
{
	t->next_run_at = next;
	t->due_at = next == TIME_NONE ? TIME_NONE : due_of(t, zs, next);
}

/* The newest slot at or before now, knowing the first after `from` is.
 * Binary search on "the first slot after x is <= now": log2(now - from)
 * schedule computations however many were missed. */
static int
newest_slot(const struct task *t, struct zones *zs, int64_t from, int64_t now, int64_t *out,
    struct err *e)
{
	int64_t lo = from, hi = now, s;
	int rc;
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if ((rc = task_next_slot(t, zs, mid, &s, e)))
			return rc;
		if (s != TIME_NONE && s <= now)
			lo = mid;
		else
			hi = mid;
	}
	return task_next_slot(t, zs, lo, out, e);
}

/* How many slots lie in (x, now], counting up to cap. */
static int
count_slots(const struct task *t, struct zones *zs, int64_t x, int64_t now, int cap, int *n,
    struct err *e)
{
	int rc;
	*n = 0;
	for (int64_t s = x; *n < cap; (*n)++) {
		if ((rc = task_next_slot(t, zs, s, &s, e)))
			return rc;
		if (s == TIME_NONE || s > now)
			break;
	}
	return ST_OK;
}

/* --missed all: the oldest missed slot, but no older than the newest
 * FIRE_ALL_MAX.  A binary search for the x with exactly that many slots in
 * (x, now]: bounded work however long the gap. */
static int
oldest_kept(const struct task *t, struct zones *zs, int64_t now, struct decision *d, struct err *e)
{
	int n, rc;
	if ((rc = count_slots(t, zs, d->slot - 1, now, FIRE_ALL_MAX + 1, &n, e)) || n <= FIRE_ALL_MAX)
		return rc;
	int64_t lo = d->slot - 1, hi = now;
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if ((rc = count_slots(t, zs, mid, now, FIRE_ALL_MAX, &n, e)))
			return rc;
		if (n >= FIRE_ALL_MAX)
			lo = mid;
		else
			hi = mid;
	}
	return task_next_slot(t, zs, lo, &d->slot, e);
}

/* Past the deadline: an occurrence that could not start in time. */
static int
past_deadline(const struct task *t, struct zones *zs, int64_t slot, int64_t now)
{
	return t->deadline > 0 && now - due_of(t, zs, slot) > t->deadline;
}

/* --missed all under a deadline: the oldest slot still within it (no
 * older than d->slot); none: the newest is recorded missed. */
static int
oldest_in_time(const struct task *t, struct zones *zs, int64_t now, struct decision *d,
    struct err *e)
{
	int64_t s;
	int rc;
	if (!past_deadline(t, zs, d->slot, now))
		return ST_OK;
	if ((rc = task_next_slot(t, zs, now - t->deadline - 1, &s, e)))
		return rc;
	if (s != TIME_NONE && s > d->slot && due_of(t, zs, s) <= now) {
		d->slot = s;
		return ST_OK;
	}
	d->fire = 0;
	d->missed = 1;
	if ((rc = newest_slot(t, zs, d->slot, now, &d->slot, e)))
		return rc;
	return ST_OK;
}

/* Several occurrences went by since d->slot: which one fires. */
static int
due_after_gap(const struct task *t, struct zones *zs, int64_t now, struct decision *d,
    struct err *e)
{
	int rc;
	if (t->missed == MISSED_ALL) {
		if ((rc = oldest_kept(t, zs, now, d, e)))
			return rc;
		d->fire = 1;
		d->trigger = TRIGGER_CATCHUP;
		if ((rc = oldest_in_time(t, zs, now, d, e)))
			return rc;
		return task_next_slot(t, zs, d->missed ? now : d->slot, &d->next, e);
	}
	if ((rc = newest_slot(t, zs, d->slot, now, &d->slot, e)) ||
	    (rc = task_next_slot(t, zs, now, &d->next, e)))
		return rc;
	/* A deadline replaces the grace, under every policy. */
	if (t->deadline > 0) {
		d->missed = past_deadline(t, zs, d->slot, now);
		d->fire = !d->missed;
		d->trigger = t->missed == MISSED_SKIP || now - due_of(t, zs, d->slot) <= FIRE_GRACE
		    ? TRIGGER_SCHEDULE : TRIGGER_CATCHUP;
		return ST_OK;
	}
	/* The newest occurrence on time is a scheduled run, whatever went
	 * before it (a retry dropped, a pass missed). */
	int on_time = now - due_of(t, zs, d->slot) <= FIRE_GRACE;
	d->fire = on_time || t->missed != MISSED_SKIP;
	d->trigger = on_time ? TRIGGER_SCHEDULE : TRIGGER_CATCHUP;
	return ST_OK;
}

int
rules_due(const struct task *t, struct zones *zs, int64_t now, struct decision *d, struct err *e)
{
	int rc;
	int64_t n1;
	d->fire = d->missed = d->dropped_retry = 0;
	d->slot = t->next_run_at != TIME_NONE ? t->next_run_at : t->due_at;
	d->next = TIME_NONE;
	d->trigger = TRIGGER_SCHEDULE;
	if (!task_repeats(t) && t->kind != KIND_AT && t->kind != KIND_PLAN)
		return ST_OK;
	/* A one-shot's (or a plan's last) retry: its own instant, never skipped. */
	if (!task_repeats(t) && !plan_has(t, d->slot)) {
		d->fire = 1;
		d->trigger = TRIGGER_RETRY;
		return task_next_slot(t, zs, d->slot, &d->next, e);
	}
	if ((rc = task_next_slot(t, zs, d->slot, &n1, e)))
		return rc;
	/* Lateness counts from the due instant: jitter is not lateness.  A
	 * retry the next occurrence overtook is given up: its occurrence
	 * failed (the caller counts it). */
	if (n1 != TIME_NONE && due_of(t, zs, n1) <= now) {
		d->dropped_retry = d->slot == t->next_run_at && rules_is_retry(t, zs);
		return due_after_gap(t, zs, now, d, e);
	}
	/* One occurrence due, on time or late: late from when it could start
	 * (a slot that waited for a run, from the run's end); a deadline from
	 * its instant. */
	d->next = n1;
	int64_t from = due_of(t, zs, d->slot);
	int held = d->slot == t->next_run_at && t->due_at != TIME_NONE && t->due_at > from;
	if (held && rules_is_retry(t, zs)) {
		/* A recurring task's failed occurrence, tried again: it started. */
		d->fire = 1;
		d->trigger = TRIGGER_RETRY;
		return ST_OK;
	}
	if (held)
		from = t->due_at;
	if (t->deadline > 0) {
		d->missed = past_deadline(t, zs, d->slot, now);
		d->fire = !d->missed;
		d->trigger = d->missed ? TRIGGER_CATCHUP : TRIGGER_SCHEDULE;
	} else if (now - from > FIRE_GRACE) {
		d->trigger = TRIGGER_CATCHUP;
		d->fire = t->missed != MISSED_SKIP;
	} else {
		d->fire = 1;
	}
	return ST_OK;
}

int
rules_overdue(const struct task *t, int64_t now)
{
	return t->enabled && t->status == STATUS_PENDING && t->due_at != TIME_NONE &&
	    now - t->due_at > FIRE_GRACE;
}

int
rules_is_retry(const struct task *t, struct zones *zs)
{
	/* Its last run started at or after the pending instant: that run was
	 * this occurrence's, and the task waits to try it again. */
	return task_repeats(t) && t->next_run_at != TIME_NONE && t->last_run_at != TIME_NONE &&
	    t->last_run_at >= t->next_run_at && t->due_at > due_of(t, zs, t->next_run_at);
}

int64_t
rules_recurring_backoff(int attempt)
{
	static const int64_t steps[] = {30, 120, 600, 1800, 3600};
	int n = (int)(sizeof steps / sizeof steps[0]);
	return steps[attempt < 1 ? 0 : attempt > n ? n - 1 : attempt - 1];
}

/* A recurring task's failed occurrence: armed again after its backoff if
 * retries are left and that is before the next occurrence.  1 if so. */
static int
retry_occurrence(struct task *t, const struct run *r, int64_t now)
{
	int retries = task_retries(t);
	int attempt = r->attempt > 0 ? r->attempt : 1;
	if (r->slot == TIME_NONE || r->exit_code == EXEC_EXIT_PERMANENT ||
	    (retries >= 0 && attempt > retries))
		return 0;
	int64_t at = rules_retry_at(now, rules_recurring_backoff(attempt));
	if (t->next_run_at != TIME_NONE && at >= t->due_at)
		return 0;
	t->next_run_at = r->slot;
	t->due_at = at;
	return 1;
}

/* Occurrences came due while run r went on (no pass handled them): queue
 * and replace keep the newest, due from now, so it starts at once; skip
 * moves past them.  Those due before it started are missed runs, left to
 * --missed. */
static void
overlap_after(struct task *t, struct zones *zs, const struct run *r, int64_t now)
{
	int64_t s;
	struct err e;
	if (!task_repeats(t) || t->next_run_at == TIME_NONE || t->due_at > now ||
	    r->started_at == TIME_NONE || t->next_run_at <= r->started_at)
		return;
	if (t->overlap == OVERLAP_SKIP) {
		if (task_next_slot(t, zs, now, &s, &e) == ST_OK)
			rules_set_next(t, zs, s);
		return;
	}
	if (newest_slot(t, zs, t->next_run_at - 1, now, &s, &e) != ST_OK || s == TIME_NONE)
		return;
	rules_set_next(t, zs, s);
	if (t->due_at < now)
		t->due_at = now;
}

int64_t
rules_retry_at(int64_t now, int64_t backoff)
{
	/* From the minute the attempt ended in: a pass started a few seconds
	 * late does not push the retry past a minute. */
	int64_t at = now - (now % 60 + 60) % 60 + backoff, past = (at % 60 + 60) % 60;
	return past ? at + 60 - past : at;
}

void
rules_count_failure(struct task *t)
{
	t->consecutive_failures++;
	int n = task_pause_after(t);
	if (!n || t->consecutive_failures < n || t->paused)
		return;
	t->enabled = 0;
	char *p = xasprintf(TASK_PAUSED_FAILURES "%d failures in a row: %s", t->consecutive_failures,
	    t->last_error ? t->last_error : t->last_status ? t->last_status : "failed");
	set_str(&t->paused, p);
	free(p);
}

int
rules_retry_dropped(struct task *t, struct zones *zs, const struct decision *d)
{
	int was_paused = t->paused != NULL;
	rules_count_failure(t);
	if (was_paused || !t->paused)
		return 0;
	rules_set_next(t, zs, d->slot);
	return 1;
}

int64_t
rules_backoff(int attempt)
{
	int64_t d = FIRE_BACKOFF_BASE;
	for (int i = 1; i < attempt && d < FIRE_BACKOFF_MAX; i++)
		d *= 2;
	return d < FIRE_BACKOFF_MAX ? d : FIRE_BACKOFF_MAX;
}

int
rules_run_ok(const struct run *r)
{
	return r->status == RUN_SUCCESS;
}

#define EXCERPT 200 /* bytes of last_result and last_error */

int
rules_retry_cut(const struct task *t, const struct run *r)
{
	return r->status == RUN_CANCELLED && task_repeats(t) && r->trigger == TRIGGER_RETRY &&
	    !r->prev_status[0];
}

void
rules_after_run(struct task *t, struct zones *zs, const struct run *r, int64_t now)
{
	int ok = rules_run_ok(r);
	/* A replay is no occurrence: the task's last run and answer stay. */
	if (r->trigger == TRIGGER_REPLAY) {
		int prev = task_status_parse(r->prev_status);
		if (t->status == STATUS_RUNNING)
			t->status = prev >= 0 && prev != STATUS_RUNNING ? prev : STATUS_PENDING;
		t->updated_at = now;
		return;
	}
	t->last_run_at = r->started_at;
	set_str(&t->last_status, run_status_name(r->status));
	free(t->last_error);
	t->last_error = ok ? NULL : (r->error ? oneline(r->error, EXCERPT, ONELINE_ELLIPSIS) : NULL);
	free(t->last_result);
	t->last_result = (r->output ? oneline(r->output, EXCERPT, ONELINE_ELLIPSIS) : NULL);
	t->updated_at = now;
	/* Someone changed a running task (task-rm --cancel): theirs stands. */
	if (t->status != STATUS_RUNNING)
		return;
	int last = t->next_run_at == TIME_NONE;
	if (r->prev_status[0]) {
		int prev = task_status_parse(r->prev_status);
		t->status = prev >= 0 && prev != STATUS_RUNNING ? prev : STATUS_PENDING;
		/* Replaced: the occurrence it gave way to is due now, not held. */
		if (r->status == RUN_CANCELLED && t->next_run_at != TIME_NONE)
			rules_set_next(t, zs, t->next_run_at);
		return;
	}
	if (ok) {
		t->consecutive_failures = 0;
		t->status = last && t->kind != KIND_MANUAL && t->kind != KIND_HEARTBEAT
		    ? STATUS_COMPLETED : STATUS_PENDING;
		overlap_after(t, zs, r, now);
		return;
	}
	t->status = STATUS_PENDING;
	/* Missed its deadline waiting for a concurrency slot, or its gate
	 * found nothing to do: not the task's failure, and no model ran. */
	if (r->status == RUN_MISSED || r->status == RUN_SKIPPED) {
		if (last)
			t->status = STATUS_COMPLETED;
		overlap_after(t, zs, r, now);
		return;
	}
	/* Ended to make way for the next occurrence (--overlap replace): not
	 * the task's failure; the occurrence that replaces it is due now. */
	if (r->status == RUN_CANCELLED) {
		/* A retry ended so leaves its occurrence failed, by the attempt
		 * before it, with no try left: one failure. */
		if (rules_retry_cut(t, r) && last)
			t->consecutive_failures++;
		else if (rules_retry_cut(t, r))
			rules_count_failure(t);
		if (last && task_repeats(t))
			t->status = STATUS_COMPLETED;
		if (!last)
			rules_set_next(t, zs, t->next_run_at);
		overlap_after(t, zs, r, now);
		return;
	}
	/* Blocked: it needs a person (a permission, a login, a decision), and
	 * a retry would only ask again.  Not counted as a failure; a one-shot
	 * ends failed, for someone to run again once it is unblocked. */
	if (r->status == RUN_BLOCKED) {
		if (task_repeats(t)) {
			if (last)
				t->status = STATUS_COMPLETED;
			overlap_after(t, zs, r, now);
		} else if (t->kind == KIND_AT || (t->kind == KIND_PLAN && last)) {
			t->status = STATUS_FAILED;
			rules_set_next(t, zs, TIME_NONE);
		}
		return;
	}
	/* A recurring task retries the occurrence, or counts it failed and
	 * moves on; its last occurrence failed ends it. */
	if (task_repeats(t)) {
		if (retry_occurrence(t, r, now))
			return;
		/* Its last occurrence failed: ended, not paused (nothing to resume). */
		if (last) {
			t->consecutive_failures++;
			t->status = STATUS_COMPLETED;
		} else {
			rules_count_failure(t);
		}
		overlap_after(t, zs, r, now);
		return;
	}
	t->consecutive_failures++;
	if (t->kind != KIND_AT && !(t->kind == KIND_PLAN && last))
		return;
	int retries = t->retries == TASK_RETRIES_FOREVER ? -1
	    : t->retries >= 0 ? t->retries : TASK_DEFAULT_RETRIES;
	int attempt = r->attempt > 0 ? r->attempt : 1;
	if (r->exit_code == EXEC_EXIT_PERMANENT || (retries >= 0 && attempt > retries)) {
		t->status = STATUS_FAILED;
		rules_set_next(t, zs, TIME_NONE);
	} else {
		t->next_run_at = t->due_at = rules_retry_at(now, rules_backoff(attempt));
	}
}

int
rules_late_success(struct task *t, struct zones *zs, const struct run *r)
{
	int64_t next;
	struct err e;
	if (!rules_run_ok(r) || r->prev_status[0] || t->status != STATUS_PENDING ||
	    t->next_run_at == TIME_NONE || t->last_run_at != r->started_at || !t->last_status ||
	    strcmp(t->last_status, run_status_name(RUN_INTERRUPTED)) != 0 || t->arming != r->arming)
		return 0;
	/* A recurring task's retry is its occurrence armed again (its start
	 * arms it anew: the arming compared above); a one-shot's, or a plan's
	 * last, an instant of its own. */
	if (task_repeats(t) ? t->next_run_at != r->slot || !rules_is_retry(t, zs)
	    : (t->kind != KIND_AT && t->kind != KIND_PLAN) || plan_has(t, t->next_run_at))
		return 0;
	if (task_next_slot(t, zs, r->slot, &next, &e) != ST_OK)
		return 0;
	/* As the claim that started r left it. */
	t->status = STATUS_RUNNING;
	rules_set_next(t, zs, next);
	return 1;
}

void
rules_unstarted(struct task *t, struct zones *zs, const struct run *r, int64_t now)
{
	t->updated_at = now;
	if (t->status != STATUS_RUNNING)
		return;
	if (r->prev_status[0]) {
		int prev = task_status_parse(r->prev_status);
		t->status = prev >= 0 && prev != STATUS_RUNNING ? prev : STATUS_PENDING;
		return;
	}
	t->status = STATUS_PENDING;
	t->arming++;
	rules_set_next(t, zs, r->slot);
}

/* A signal someone outside sends to end a process: not the task's failure. */
static int
outside_kill(int sig)
{
	return sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

int
rules_run_ended(struct run *r, struct exec_result *x, int64_t now)
{
	int status, no_resources = 0;
	int clean = x->how == EXEC_EXITED && x->code == 0;
	if (x->how == EXEC_STARTFAIL && x->no_resources) {
		status = RUN_UNSTARTED;
		no_resources = 1;
	} else if (x->how == EXEC_TIMEOUT) {
		status = RUN_TIMEOUT;
	} else if (x->stopped && !clean) {
		status = RUN_INTERRUPTED;
	} else if (clean) {
		status = RUN_SUCCESS;
	} else if (x->how == EXEC_SIGNALED && outside_kill(x->code)) {
		status = RUN_INTERRUPTED;
	} else {
		status = RUN_FAILED;
	}
	struct buf err = {0};
	buf_puts(&err, x->why);
	if (no_resources)
		buf_puts(&err, "; not the task's fault: it stays due for the next pass");
	if (x->stopped && !clean)
		buf_printf(&err, "%sstopped before the run finished", err.len ? "; " : "");
	if (x->nerr)
		buf_printf(&err, "%s%s", err.len ? "\n" : "", x->err);
	r->status = status;
	free(r->output);
	r->output = x->out;
	x->out = NULL;
	free(r->error);
	r->error = err.len ? err.data : NULL;
	if (!err.len)
		buf_free(&err);
	r->exit_code = x->how == EXEC_EXITED ? x->code : -1;
	r->ended_at = now;
	r->duration_ms = x->duration_ms;
	return no_resources;
}
