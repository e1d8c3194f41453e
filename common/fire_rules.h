/* fire_rules.h: the pure decisions of firing, apart from any store: which
 * occurrence a due task fires (on time, late, missed-run policies, retries,
 * jitter), and the task's state after a run ends (one-shot done, next
 * occurrence, Kai's backoff, retries spent, manual runs leaving the
 * schedule alone).  DESIGN.md, "Firing". */
#ifndef AC_FIRE_RULES_H
#define AC_FIRE_RULES_H

#include <stdint.h>

#include "exec.h"
#include "store.h"
#include "task.h"
#include "util.h"

#define FIRE_GRACE 60            /* seconds late that still count as on time */
#define FIRE_BACKOFF_BASE 60     /* first retry of a one-shot, doubling */
#define FIRE_BACKOFF_MAX 3600
#define FIRE_ALL_MAX 100         /* --missed all: the newest this many missed runs at most */

/* What a due task fires now. */
struct decision {
	int fire;                /* 0: nothing runs (skipped, or not a firing kind) */
	int64_t slot;            /* the occurrence: fired, or skipped */
	int64_t next;            /* next_run_at after it, TIME_NONE: no more */
	int trigger;             /* TRIGGER_SCHEDULE, _CATCHUP or _RETRY */
	int missed;              /* not fired: past the task's deadline (recorded missed) */
	int dropped_retry;       /* the retry t waited for was overtaken: its occurrence failed */
};

/* fire_rules.c */
/* What a due task fires at now.  t->deadline is the one that applies
 * (the task's, else the configuration's; 0: on time within FIRE_GRACE).
 * A slot that waited for a run to end (queue) counts as due from then. */
int rules_due(const struct task *t, struct zones *zs, int64_t now, struct decision *d,
    struct err *e);
/* next_run_at and due_at (with the jitter, or the stagger zs has: zones_set_stagger) */
void rules_set_next(struct task *t, struct zones *zs, int64_t next);
/* Due and not fired past its grace: no pass has run for it (listings mark it). */
int rules_overdue(const struct task *t, int64_t now);
/* When a retry backoff after an attempt that ended at now is due:
 * backoff after the minute now is in, on a whole minute: the instants
 * every pass rhythm honours (one pass a minute from cron or a timer, even
 * a few seconds late; a watcher; anything faster), so that whether a
 * retry runs before the next occurrence does not depend on how passes are
 * started. */
int64_t rules_retry_at(int64_t now, int64_t backoff);
/* One more failed occurrence: past pause_after in a row, the task is
 * disabled with the reason on record. */
void rules_count_failure(struct task *t);
/* d dropped the retry t waited for (d->dropped_retry): its occurrence
 * counts failed now, as if its retries had run and failed.  1 if that
 * paused t: d's occurrence then does not run (t waits at it, disabled). */
int rules_retry_dropped(struct task *t, struct zones *zs, const struct decision *d);
int64_t rules_backoff(int attempt);              /* 60 s * 2^(attempt-1), capped at an hour */
/* A recurring task's failed try: 30 s, 2 min, 10 min, 30 min, then 1 h. */
int64_t rules_recurring_backoff(int attempt);
/* The occurrence t waits for is a retry of one that ran and failed. */
int rules_is_retry(const struct task *t, struct zones *zs);
/* The task's new state after run r ended at now (r->status, r->exit_code,
 * r->attempt; manual: r->prev_status).  A task changed meanwhile (no longer
 * running: cancelled) keeps its new state; last_* are set either way. */
void rules_after_run(struct task *t, struct zones *zs, const struct run *r, int64_t now);
int rules_run_ok(const struct run *r);          /* status success */
/* Run r, a recurring task's retry, was cancelled (--overlap replace, a
 * person): its occurrence failed by the attempt before, with no try left. */
int rules_retry_cut(const struct task *t, const struct run *r);
/* The run could not start for lack of resources (no fault of the task):
 * the same occurrence is armed again, nothing counted. */
void rules_unstarted(struct task *t, struct zones *zs, const struct run *r, int64_t now);
/* Run r, recovered as interrupted, succeeded after all (a late result).
 * If t waits for the retry recovery armed of r's occurrence and that retry
 * has not started, t is put back as r's claim left it (running, its next
 * occurrence after r's) so that rules_after_run completes the occurrence
 * as a success would, and 1 is returned; otherwise t is left alone, 0. */
int rules_late_success(struct task *t, struct zones *zs, const struct run *r);
/* Fill r from how its executor ended at now (x's output moves to r).
 * Returns 1 if it never started for lack of resources. */
int rules_run_ended(struct run *r, struct exec_result *x, int64_t now);

#endif
