/* claim_decide.h: what a claim does with a task the scan found, as one
 * pure function: the facts gathered about it in, the decision out.  It
 * reads no store and starts nothing; the claim (fire_claim.c, fire_ask.c) gathers the facts
 * it asks for, then writes the decision in the claim's transaction.  Every
 * policy of a claim meets here: an unfit task, a task already fired this
 * pass, overlap (skip, replace, queue), missed occurrences and deadlines,
 * retries and the failure a dropped retry counts (and the pause it may
 * bring), budgets, and which attempt and trigger a run gets. */
#ifndef AC_CLAIM_DECIDE_H
#define AC_CLAIM_DECIDE_H

#include <stdint.h>

#include "fire_rules.h"
#include "task.h"

/* Facts a decision may want that cost a store read: asked for only when
 * the decision turns on them (claim_decide answers CLAIM_DO_NEED). */
enum {
	CLAIM_NEED_IN_FLIGHT = 1,  /* whether the task's run in flight is on record */
	CLAIM_NEED_BUDGET = 2,     /* whether its own or the global budget is spent */
	CLAIM_NEED_KEY = 4,        /* an event: whether its key was stored already */
	CLAIM_NEED_SLOT_RAN = 8,   /* a backfill: whether its occurrence ran */
};

struct claim_facts {
	const struct task *t;      /* as stored */
	int64_t now;
	int deadline;              /* the configuration's, seconds; the task's own wins */
	int global_budget;         /* the configuration sets a global budget */
	int fired_this_pass;       /* this pass started a run of it already */
	int last_attempt;          /* attempts made at its current occurrence */
	int preview;               /* a dry run: nothing is written, nothing counted */
	int known;                 /* CLAIM_NEED_* gathered below */
	int in_flight;             /* CLAIM_NEED_IN_FLIGHT: its run in flight is on record */
	int over_budget;           /* CLAIM_NEED_BUDGET: a budget of it is spent */
};

enum claim_do {
	CLAIM_DO_NOTHING,          /* left alone */
	CLAIM_DO_NEED,             /* gather the facts of need, then decide again */
	CLAIM_DO_PARK,             /* it cannot be scheduled: failed, with why */
	CLAIM_DO_REPLACE,          /* --overlap replace: end the run in flight, start due.slot after */
	CLAIM_DO_SKIP_OVERLAP,     /* --overlap skip: due.slot on record skipped */
	CLAIM_DO_UNFIRED,          /* due.slot not run: missed (due.missed) or skipped */
	CLAIM_DO_PAUSE,            /* the failure of a dropped retry paused it */
	CLAIM_DO_BUDGET_SKIP,      /* over a budget: due.slot skipped, told once a window */
	CLAIM_DO_START,            /* a run of due.slot starts */
	CLAIM_DO_ADVANCE,          /* nothing runs; it goes on at due.next */
	CLAIM_DO_REFUSE,           /* a manual run of a task already running: refused */
};

struct claim_choice {
	enum claim_do what;
	int need;                  /* CLAIM_DO_NEED: the CLAIM_NEED_* to gather */
	struct decision due;       /* the occurrence (fire_rules.h) */
	int count_failure;         /* the retry it waited for was dropped: one more failure */
	int keep_status;           /* UNFIRED of a task running: its status stays */
	int attempt, trigger;      /* START: the run's attempt and trigger */
	int new_arming;            /* START: a recurring task's retry, a new arming */
	int set_next;              /* START of a backfill: its next run becomes due.next */
	char why[512];             /* PARK: the reason */
};

/* The decision for in->t at in->now (zs: the zones' cache, no store).
 * ST_OK; out->what CLAIM_DO_NEED asks for more facts. */
int claim_decide(const struct claim_facts *in, struct zones *zs, struct claim_choice *out);
/* A run asked for by hand (task-run), or queued (task-run --queue, an
 * agent's task_run, an upstream's end, an event) and started by a pass. */
struct manual_facts {
	const struct task *t;
	int from_queue;            /* a pass starts what was queued */
	int preview;
	int global_budget;
	int known, over_budget;    /* CLAIM_NEED_BUDGET, as in claim_facts */
};
/* NOTHING (the queue no longer holds it), START (also for a preview),
 * REFUSE, BUDGET_SKIP (a queued run: its budget holds as for a scheduled
 * occurrence; one asked for by hand is the user's), or NEED with *need. */
enum claim_do claim_decide_manual(const struct manual_facts *in, int *need);
/* A run asked for by an event (fire_event) or a replay (fire_replay). */
struct event_facts {
	const struct task *t;
	int replay;                /* a request sent again, not an event */
	int known;                 /* CLAIM_NEED_KEY gathered */
	int key_seen;              /* CLAIM_NEED_KEY: its key was stored: it became a run, or waits */
};
/* NEED (its key first, whatever the task does), NOTHING (the key was
 * seen: what it became is the answer), REFUSE (the task runs), or START
 * with trigger EVENT or REPLAY, attempt 1. */
int claim_decide_event(const struct event_facts *in, struct claim_choice *out);
/* A past occurrence asked for again (fire_backfill). */
struct backfill_facts {
	const struct task *t;
	int64_t slot;              /* the occurrence */
	int known;                 /* CLAIM_NEED_SLOT_RAN gathered */
	int slot_ran;              /* CLAIM_NEED_SLOT_RAN: it had a run (not a skip's or a miss's record) */
};
/* REFUSE (the task runs: try again after), NEED, NOTHING (it ran), or
 * START with trigger BACKFILL, a new arming (a record of a skip or a miss
 * may hold the slot's arming) and, when the task's next run is that
 * occurrence or before, set_next with due.next the one after it (an
 * overdue occurrence taken here is not the pass's to fire). */
int claim_decide_backfill(const struct backfill_facts *in, struct zones *zs,
    struct claim_choice *out);
/* A failure more pauses t (its pause_after reached, not paused yet). */
int claim_failure_pauses(const struct task *t);

#endif
