/* The claim's decision, facts in (claim_decide.h). */
#include <stdio.h>
#include <string.h>

#include "claim_decide.h"
#include "heartbeat.h"

int
claim_failure_pauses(const struct task *t)
{
	int n = task_pause_after(t);
	return n && !t->paused && t->consecutive_failures + 1 >= n;
}

/* A stored task that cannot fire as it is: its kind unknown to this
 * agentcron, its instants unreadable, or a field no longer valid. */
static int
unfit(const struct task *t, struct zones *zs, struct err *e)
{
	if (t->kind < 0)
		return err_set(e, ST_INVALID, "its kind is not one this agentcron knows");
	if ((t->kind == KIND_AT || t->kind == KIND_PLAN) && !t->nplan)
		return err_set(e, ST_INVALID, "its instants could not be read");
	return task_validate(t, zs, e);
}

static int
need(struct claim_choice *out, int what)
{
	out->what = CLAIM_DO_NEED;
	out->need = what;
	return ST_OK;
}

int
claim_decide(const struct claim_facts *in, struct zones *zs, struct claim_choice *out)
{
	const struct task *t = in->t;
	memset(out, 0, sizeof *out);
	out->what = CLAIM_DO_NOTHING;
	int running = t->status == STATUS_RUNNING;
	/* A running task is looked at for its overlap: nothing fires. */
	if (!running && in->fired_this_pass)
		return ST_OK;
	/* The rules see the deadline that applies: the task's, else the config's. */
	struct task view = *t;
	if (!view.deadline)
		view.deadline = in->deadline;
	struct err de;
	if (unfit(t, zs, &de) || rules_due(&view, zs, in->now, &out->due, &de)) {
		if (!in->preview) {
			out->what = CLAIM_DO_PARK;
			snprintf(out->why, sizeof out->why, "%.*s", (int)sizeof out->why - 1, de.msg);
		}
		return ST_OK;
	}
	const struct decision *d = &out->due;
	if (running) {
		if (in->preview)
			return ST_OK;
		if (!(in->known & CLAIM_NEED_IN_FLIGHT))
			return need(out, CLAIM_NEED_IN_FLIGHT);
		if (!in->in_flight || !task_repeats(t))
			return ST_OK;
		if (t->overlap == OVERLAP_REPLACE && d->fire) {
			/* Not ended for an occurrence that its budget would skip. */
			if (!str_empty(t->budget) || in->global_budget) {
				if (!(in->known & CLAIM_NEED_BUDGET))
					return need(out, CLAIM_NEED_BUDGET);
				if (in->over_budget) {
					out->what = CLAIM_DO_BUDGET_SKIP;
					return ST_OK;
				}
			}
			out->what = CLAIM_DO_REPLACE;
		} else if (d->fire)
			out->what = CLAIM_DO_SKIP_OVERLAP;
		else {
			out->what = CLAIM_DO_UNFIRED;
			out->keep_status = 1;
		}
		return ST_OK;
	}
	/* A failed occurrence whose retry the next one overtook counts now,
	 * whatever the pass rhythm; the failure may pause the task. */
	if (d->dropped_retry && !in->preview) {
		out->count_failure = 1;
		if (claim_failure_pauses(t)) {
			out->what = CLAIM_DO_PAUSE;
			return ST_OK;
		}
	}
	if (d->fire && (!str_empty(t->budget) || in->global_budget)) {
		if (!(in->known & CLAIM_NEED_BUDGET))
			return need(out, CLAIM_NEED_BUDGET);
		if (in->over_budget) {
			/* A recurring task's retry skipped is given up (a last
			 * occurrence's waits for the next window): its occurrence
			 * failed, and the failure may pause the task. */
			if (d->trigger == TRIGGER_RETRY && task_repeats(t) && d->next != TIME_NONE &&
			    !in->preview) {
				out->count_failure = 1;
				if (claim_failure_pauses(t)) {
					out->what = CLAIM_DO_PAUSE;
					return ST_OK;
				}
			}
			out->what = CLAIM_DO_BUDGET_SKIP;
			return ST_OK;
		}
	}
	int firing_kind = task_repeats(t) || t->kind == KIND_AT || t->kind == KIND_PLAN;
	if (d->fire) {
		out->what = CLAIM_DO_START;
		/* A retry is the next attempt at the same occurrence; a recurring
		 * task's, at the same instant, is a new arming of it. */
		out->attempt = d->trigger == TRIGGER_RETRY ? in->last_attempt + 1 : 1;
		out->new_arming = d->trigger == TRIGGER_RETRY && task_repeats(t);
		out->trigger = heartbeat_is(t) ? TRIGGER_HEARTBEAT : d->trigger;
	} else if (firing_kind) {
		out->what = CLAIM_DO_UNFIRED;
	} else {
		out->what = CLAIM_DO_ADVANCE;
	}
	return ST_OK;
}

enum claim_do
claim_decide_manual(const struct manual_facts *in, int *need)
{
	const struct task *t = in->t;
	*need = 0;
	if (in->from_queue && (!t->queued || t->deleted_at != TIME_NONE || t->status == STATUS_RUNNING))
		return CLAIM_DO_NOTHING;
	if (in->preview)
		return CLAIM_DO_START;
	if (t->status == STATUS_RUNNING)
		return CLAIM_DO_REFUSE;
	if (in->from_queue && (!str_empty(t->budget) || in->global_budget)) {
		if (!(in->known & CLAIM_NEED_BUDGET)) {
			*need = CLAIM_NEED_BUDGET;
			return CLAIM_DO_NEED;
		}
		if (in->over_budget)
			return CLAIM_DO_BUDGET_SKIP;
	}
	return CLAIM_DO_START;
}

int
claim_decide_event(const struct event_facts *in, struct claim_choice *out)
{
	memset(out, 0, sizeof *out);
	out->what = CLAIM_DO_NOTHING;
	/* A key seen is answered with what it became, running or not. */
	if (!(in->known & CLAIM_NEED_KEY))
		return need(out, CLAIM_NEED_KEY);
	if (in->key_seen)
		return ST_OK;
	if (in->t->status == STATUS_RUNNING) {
		out->what = CLAIM_DO_REFUSE;
		return ST_OK;
	}
	out->what = CLAIM_DO_START;
	out->due.fire = 1;
	out->due.slot = out->due.next = TIME_NONE;
	out->trigger = in->replay ? TRIGGER_REPLAY : TRIGGER_EVENT;
	out->attempt = 1;
	return ST_OK;
}

int
claim_decide_backfill(const struct backfill_facts *in, struct zones *zs,
    struct claim_choice *out)
{
	const struct task *t = in->t;
	memset(out, 0, sizeof *out);
	out->what = CLAIM_DO_NOTHING;
	if (t->status == STATUS_RUNNING) {
		out->what = CLAIM_DO_REFUSE;
		return ST_OK;
	}
	if (!(in->known & CLAIM_NEED_SLOT_RAN))
		return need(out, CLAIM_NEED_SLOT_RAN);
	if (in->slot_ran)
		return ST_OK;
	out->what = CLAIM_DO_START;
	out->due.fire = 1;
	out->due.slot = in->slot;
	out->due.next = TIME_NONE;
	out->trigger = TRIGGER_BACKFILL;
	out->attempt = 1;
	out->new_arming = 1;
	int64_t next;
	struct err ne;
	if (t->next_run_at != TIME_NONE && t->next_run_at <= in->slot &&
	    task_next_slot(t, zs, in->slot, &next, &ne) == ST_OK) {
		out->set_next = 1;
		out->due.next = next;
	}
	return ST_OK;
}
