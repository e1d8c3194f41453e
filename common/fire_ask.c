/* Runs asked for, each claimed alone: by hand (task-run), by an event or a
 * replay, a backfill of a past occurrence. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "claim_decide.h"
#include "fire.h"
#include "fire_input.h"
#include "fire_owner.h"
#include "fire_rules.h"

/* Task id claimed alone as fn decides, by this process registered first;
 * *n says whether c holds a run. */
static int
claim_alone(struct fire *f, const char *id, claim_fn fn, void *arg, struct claimed *c, int *n,
    struct err *e)
{
	struct claim_req q = {.what = CLAIM_ONE, .id = id};
	*n = 0;
	int rc = fire_enlist(f, e);
	return rc ? rc : store_claim(f->st, &q, fn, arg, c, n, e);
}

/* The run claim_alone claimed started; its id in run_id. */
static int
start_alone(struct fire *f, struct claimed *c, char run_id[37])
{
	memcpy(run_id, c->run.id, 37);
	fire_start_claimed(f, c, 1);
	return ST_OK;
}

int
fire_manual(struct fire *f, const char *id, char run_id[37], struct err *e)
{
	struct claimed c;
	struct claim_ctx x = {.f = f, .now = now_of(f), .manual = 1};
	int n, rc = claim_alone(f, id, fire_claim_manual, &x, &c, &n, e);
	if (rc)
		return rc;
	if (!n)
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", id);
	return start_alone(f, &c, run_id);
}

/* An event fired now: its input (payload, key) and its run made in one
 * claim, as claim_decide_event decides; a key seen changes nothing
 * (x->event_dup, x->event_run what it became). */
static int
claim_event(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	struct claim_ctx *x = arg;
	(void)last_attempt;
	*decision = CLAIM_SKIP;
	struct event_facts ef = {.t = t, .replay = x->replay};
	struct claim_choice c;
	int rc;
	while (!(rc = claim_decide_event(&ef, &c)) && c.what == CLAIM_DO_NEED) {
		if ((rc = fire_event_had(x->f->st, t->id, x->event_key, NULL, x->now, &ef.key_seen,
		    x->event_run, e)))
			break;
		ef.known |= c.need;
	}
	if (rc)
		return rc;
	if (c.what == CLAIM_DO_NOTHING) {
		x->event_dup = ef.key_seen;
		return ST_OK;
	}
	if (c.what == CLAIM_DO_REFUSE)
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", t->id);
	if ((rc = fire_run_fill(x->f, t, c.due.slot, c.trigger, c.attempt, x->now, r, e)))
		return rc;
	struct run_input in;
	int added = 0;
	run_input_init(&in);
	if (uuid4(in.id) != 0)
		return err_set(e, ST_ERR, "cannot make an event's id: no randomness");
	memcpy(in.task_id, t->id, sizeof in.task_id);
	in.kind = x->replay ? INPUT_REPLAY : INPUT_EVENT;
	snprintf(in.upstream_run, sizeof in.upstream_run, "%s", x->replay ? x->replay_of : "");
	in.key = (char *)x->event_key;
	in.text = (char *)x->payload;
	in.created_at = x->now;
	memcpy(in.run_id, r->id, sizeof in.run_id);
	if ((rc = store_input_add(x->f->st, &in, &added, e)))
		return rc;
	snprintf(r->prev_status, sizeof r->prev_status, "%s", task_status_name(t->status));
	t->status = STATUS_RUNNING;
	t->updated_at = x->now;
	*decision = CLAIM_FIRE;
	return ST_OK;
}

/* A run asked for by an event or a replay: claimed alone under the key
 * stored for it, then started. */
static int
claim_asked(struct fire *f, const char *id, struct claim_ctx *x, const char *key,
    char run_id[37], int *dup, struct err *e)
{
	struct claimed c;
	char *stored;
	int n, rc = fire_event_key(key, &stored, e);
	*dup = 0;
	run_id[0] = 0;
	if (rc)
		return rc;
	x->event_key = stored;
	rc = claim_alone(f, id, claim_event, x, &c, &n, e);
	free(stored);
	if (rc)
		return rc;
	if (x->event_dup) {
		*dup = x->event_dup;
		memcpy(run_id, x->event_run, 37);
		return ST_OK;
	}
	if (!n)
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", id);
	return start_alone(f, &c, run_id);
}

int
fire_event(struct fire *f, const char *id, const char *payload, const char *key, char run_id[37],
    int *dup, struct err *e)
{
	struct claim_ctx x = {.f = f, .now = now_of(f), .manual = 1, .payload = payload};
	return claim_asked(f, id, &x, key, run_id, dup, e);
}

int
fire_replay(struct fire *f, const char *id, const char *of_run, const char *request, char run_id[37],
    struct err *e)
{
	struct claim_ctx x = {.f = f, .now = now_of(f), .manual = 1, .payload = request, .replay = 1,
		.replay_of = of_run};
	int dup;
	return claim_asked(f, id, &x, NULL, run_id, &dup, e);
}

struct slot_look {
	int64_t slot;
	int ran;
};

static int
slot_look(const struct run *r, void *arg)
{
	struct slot_look *l = arg;
	if (r->slot == l->slot && r->status != RUN_SKIPPED && r->status != RUN_MISSED &&
	    r->status != RUN_UNSTARTED)
		l->ran = 1;
	return l->ran;
}

int
fire_slot_ran(struct fire *f, const char *id, int64_t slot, int *ran, struct err *e)
{
	/* A run of an occurrence starts at or after it. */
	struct slot_look l = {slot, 0};
	struct run_filter rf;
	run_filter_init(&rf);
	rf.task_id = id;
	rf.since = slot;
	int rc = store_run_list(f->st, &rf, slot_look, &l, e);
	*ran = l.ran;
	return rc;
}

struct backfill_ctx {
	struct fire *f;
	int64_t slot, now;
	int ran, busy;
};

/* A past occurrence, as claim_decide_backfill decides. */
static int
claim_backfill(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	struct backfill_ctx *x = arg;
	struct fire *f = x->f;
	(void)last_attempt;
	*decision = CLAIM_SKIP;
	struct backfill_facts bf = {.t = t, .slot = x->slot};
	struct claim_choice c;
	int rc;
	while (!(rc = claim_decide_backfill(&bf, f->zs, &c)) && c.what == CLAIM_DO_NEED) {
		if ((rc = fire_slot_ran(f, t->id, x->slot, &bf.slot_ran, e)))
			break;
		bf.known |= c.need;
	}
	x->ran = bf.slot_ran;
	x->busy = c.what == CLAIM_DO_REFUSE;
	if (rc || c.what != CLAIM_DO_START)
		return rc;
	if (c.new_arming)
		t->arming++;
	if ((rc = fire_run_fill(f, t, c.due.slot, c.trigger, c.attempt, x->now, r, e)))
		return rc;
	snprintf(r->prev_status, sizeof r->prev_status, "%s", task_status_name(t->status));
	if (c.set_next)
		rules_set_next(t, f->zs, c.due.next);
	t->status = STATUS_RUNNING;
	t->updated_at = x->now;
	*decision = CLAIM_FIRE;
	return ST_OK;
}

int
fire_backfill(struct fire *f, const char *id, int64_t slot, char run_id[37], int *ran,
    struct err *e)
{
	struct claimed c;
	struct backfill_ctx x = {.f = f, .slot = slot, .now = now_of(f)};
	int n, rc = claim_alone(f, id, claim_backfill, &x, &c, &n, e);
	*ran = 0;
	if (rc)
		return rc;
	*ran = x.ran;
	if (x.busy)
		return err_set(e, ST_REFUSED, "task '%.8s' is running", id);
	if (!n) {
		/* Its occurrence had a run after all (the insert found it). */
		*ran = 1;
		return ST_OK;
	}
	return start_alone(f, &c, run_id);
}
