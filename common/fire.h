/* fire.h: firing tasks, shared by task-tick and task-run: claiming due,
 * queued and manual runs through the store's atomic claims, running their
 * executors, recording how each ended with the rules of fire_rules.h,
 * recovering runs whose owner died, and the notify hook.  A finished run
 * that cannot be recorded is kept and recorded again with backoff; the
 * process signs of life on stores that track it and stops claiming when it
 * cannot.  Nothing here prints: finished runs and warnings go to the
 * caller's callbacks. */
#ifndef AC_FIRE_H
#define AC_FIRE_H

#include <stdint.h>

#include "fire_opts.h"
#include "store.h"
#include "util.h"

struct fire;

/* fire.c */
/* Registers this process as an owner of runs in st.  -j beyond what the
 * open-file limit allows is lowered, with a warning. */
int fire_new(struct store *st, const struct fire_opts *o, const struct fire_cb *cb,
    struct fire **out, struct err *e);
void fire_free(struct fire *f);            /* kills what still runs */
int fire_jobs(const struct fire *f);       /* -j as it applies */
int fire_paused(struct fire *f, char **since, struct err *e); /* 1 if paused; *since malloc'd */
/* Runs in flight whose owner is gone (on this node: its pid dead or
 * reused; anywhere: silent past owner_timeout on the store's clock), whose
 * lease ran out, or that this process lost track of: their leftover
 * processes here are killed, the run recorded interrupted and its task
 * treated as after a failure (a manual run gives the task back its status). */
int fire_recover(struct fire *f, int *n, struct err *e);
void fire_pass_begin(struct fire *f);      /* a new pass: scan due tasks from the start */
/* On a server, claims pass over the due tasks another transaction holds
 * (a change under way).  *left: this pass scanned due tasks and one is
 * due still, held then or not; fire_rescan scans them again from the
 * start, what this pass fired left alone. */
int fire_left_behind(struct fire *f, int *left, struct err *e);
void fire_rescan(struct fire *f);
/* Claim due and queued tasks for the free executor slots and start them.
 * *more: due work was left for lack of slots.  Nothing is claimed while
 * this process cannot show it is alive, or while paused. */
int fire_claim(struct fire *f, int *started, int *more, struct err *e);
/* Claim one task for a manual run now.  ST_REFUSED: already running. */
int fire_manual(struct fire *f, const char *id, char run_id[37], struct err *e);
/* Claim task id for a run of an event now, with its payload (input; see
 * fire_input.h) and key (NULL: none; see fire_event_key).  An event whose
 * key was seen starts nothing: *dup set as fire_event_had's *had and
 * run_id the run it became (fire_input.h).  ST_REFUSED: already running. */
int fire_event(struct fire *f, const char *id, const char *payload, const char *key,
    char run_id[37], int *dup, struct err *e);
/* Claim task id for a replay of run of_run now (trigger replay, no
 * occurrence): its executor is given request (llm_request.h) in
 * TASK_REPLAY_FILE; its input names of_run.  ST_REFUSED: already running. */
int fire_replay(struct fire *f, const char *id, const char *of_run, const char *request,
    char run_id[37], struct err *e);
/* Whether occurrence slot of task id ran: a run of it that was not only a
 * record of a skip or a miss (as of now; a claim checks again, held). */
int fire_slot_ran(struct fire *f, const char *id, int64_t slot, int *ran, struct err *e);
/* Claim the past occurrence slot of task id and start it (trigger
 * backfill), unless it ran (*ran = 1, nothing started): checked with the
 * task held, so a pass and other backfills never run it twice.  The task
 * keeps its status, and its next run moves past slot if it was not.
 * ST_REFUSED: the task is running (try again after). */
int fire_backfill(struct fire *f, const char *id, int64_t slot, char run_id[37], int *ran,
    struct err *e);
size_t fire_running(const struct fire *f); /* executors in flight */
size_t fire_busy(const struct fire *f);    /* executors and notify hooks in flight */
size_t fire_unrecorded(const struct fire *f); /* finished runs not recorded yet */
/* Supervise for up to timeout_ms (-1: no limit) or until one of fds is
 * readable; every run that ends is recorded and reported.  Also signs of
 * life and records again what could not be recorded, when they are due. */
int fire_wait(struct fire *f, int64_t timeout_ms, const int *fds, int nfds, struct err *e);
/* Record what is still unrecorded, trying until deadline_ms (mono_ms);
 * ST_ERR when some run could not be. */
int fire_flush(struct fire *f, int64_t deadline_ms, struct err *e);
void fire_stop(struct fire *f);            /* end the runs in flight (shutdown) */
/* The instant the next task is due (TIME_NONE: none), for --watch. */
int fire_next_due(struct fire *f, int64_t *due, struct err *e);
/* What a pass would fire at now (struct fire_preview), without changing
 * anything. */
int fire_preview(struct fire *f, void (*fn)(const struct fire_preview *p, void *arg), void *arg,
    struct err *e);

#endif
