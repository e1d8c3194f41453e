/* fire_owner.h: what the parts of firing share, and nothing outside
 * them includes.  fire.c runs the pass (the public API of fire.h);
 * fire_ask.c claims the runs asked for (task-run, an event, a replay, a
 * backfill) and fire_claim.c the due and queued ones, deciding through
 * claim_decide.h; fire_recover.c fences this process and recovers runs of
 * dead owners; fire_end.c records how runs ended and tells it; fire_run.c
 * starts claimed runs; fire_owner.c keeps this process known to the store.
 * Each calls only those after it in that list. */
#ifndef AC_FIRE_OWNER_H
#define AC_FIRE_OWNER_H

#include <stddef.h>
#include <stdint.h>

#include "exec.h"
#include "fire_opts.h"
#include "idset.h"
#include "scrub.h"
#include "spend.h"
#include "store.h"
#include "task.h"

#define CLAIM_BATCH 64      /* due tasks looked at per claim */
#define CLAIM_BUDGET 256    /* due tasks looked at per fire_claim */
#define WAIT_BATCH 16       /* ended runs recorded per transaction */
#define GATE_POLL_MS 200    /* how often a run waiting for a concurrency slot looks again */
#define RECORD_RETRY_MIN 250   /* ms before recording again, doubling */
#define RECORD_RETRY_MAX 30000
#define FDS_PER_RUN 5       /* three pipes, a pidfd, and one to spare */
#define FDS_RESERVED 64     /* the store, inotify, signalfd, the hooks' */
#define CANCEL_POLL_MS 2000 /* how often runs in flight look for a request to end */
#define REPLACE_RECHECK 5   /* seconds before asking a run to end again */
#define OVERLAP_EVERY_MS 1000
/* While claims come back full, the next claim goes without looking first
 * whether anything is due, is queued or the ticker is paused: it looks at
 * most this long after the last look. */
#define LOOK_EVERY_MS 1000
/* Then a run that ended waits for others to end, so that their ends and
 * the claim after them go together: on a server up to GATHER_SERVER_MS,
 * until no run is left (each unit of work costs the server, which every
 * host shares, a round of statements); in a file up to GATHER_FILE_MS,
 * until half the slots are free (a longer wait there only idles slots). */
#define GATHER_SERVER_MS 20
#define GATHER_FILE_MS 3
#define GATHER_GAP_MS 10    /* and never longer than this for the next end */
/* Fencing, in parts of owner_timeout: a sign of life every twelfth of it;
 * runs in flight ended once the store has not taken one for three quarters,
 * killed within an eighth more, so gone before others may recover them.
 * A stall shorter than 3/4 - 1/12 = 2/3 of owner_timeout ends nothing. */
#define BEAT_EVERY_MS(ot) ((int64_t)(ot) * 1000 / 12)
#define FENCE_AFTER_MS(ot) ((int64_t)(ot) * 1000 * 3 / 4)
#define FENCE_KILL_MS(ot) ((int64_t)(ot) * 1000 / 8)

struct job {
	struct run run;
	char owner[37];          /* the identity that claimed it */
	char *name;
	int is_hook;
	int no_resources;        /* never started: the occurrence stays due */
	char *hook;              /* a hook job: its command line, for warnings */
	char *notify;            /* after recording: the hook it goes to */
	int event;               /* after recording: what the hook is told (EV_*), -1: nothing */
	char *paused;            /* after recording: why its end paused the task, or NULL */
	int replaceable;         /* a run (not a hook): it may be asked to end */
	char *cancel;            /* why it was asked to end, once it was */
	char **argv, **envp;
	char *input;
	char *input_file;        /* an event's payload file, removed with the job */
	char *outcome_file;      /* TASK_OUTCOME_FILE, read at its end, removed with the job */
	int64_t timeout_ms;
	char *gate;              /* waiting for a concurrency slot: the model it counts for */
	int64_t late_at;         /* past this when the slot frees, it is missed (its deadline) */
	struct task *waits;      /* its task's gate (--gate) runs: the task, started after it */
	char *base;              /* ... and the prompt it then starts from (a heartbeat's), or NULL */
	int idle_told;           /* its gate found nothing to do, first of a streak */
};

struct fire {
	struct store *st;
	struct zones *zs;
	struct fire_opts o;
	struct fire_cb cb;
	struct exec_pool *pool;
	int reaper;              /* what a run leaves behind is reparented here */
	struct owner self;
	int registered;          /* the store knows this process (before its first claim) */
	int alive;               /* this process's last sign of life was taken */
	int64_t beat_at;         /* mono_ms of the next sign of life */
	int64_t fence_at;        /* mono_ms: the last sign of life taken, sent at, + 3/4 owner_timeout */
	int fencing;             /* past fence_at: runs in flight ended, results waiting */
	int down;                /* the store failed: said once, quiet until it is back */
	size_t nruns, nhooks;
	struct due_cursor cur;
	struct idset fired;      /* tasks claimed in this pass */
	struct job **pending;    /* finished, not recorded yet */
	size_t npending, cappending;
	struct job **gated;      /* claimed, waiting for a concurrency slot, oldest first */
	size_t ngated;
	int claimed;             /* fire_claim ran since the last fire_wait: what ends next
	                            is recorded by the claim after it, in its commit */
	struct scrub scrub;      /* the secrets kept out of runs' output and errors */
	int64_t retry_at;        /* mono_ms of the next try to record them */
	int64_t retry_ms;
	size_t nreplace;         /* runs in flight that may be asked to end */
	int64_t overlap_at;      /* mono_ms of the next look at running tasks' due occurrences */
	int more_due;            /* the last claim took all it asked for: more may be due */
	int scanned_due;         /* this pass scanned due tasks (fire_left_behind) */
	int server;              /* the store is a server that hosts share, not a file on this machine */
	char *db, *db_password;  /* the store as children are told of it (TASK_DB, PGPASSWORD) */
	int64_t look_at;         /* mono_ms of the next look (due tasks, queued runs, pause) */
	int64_t cancel_at;       /* mono_ms of the next look for such requests */
	struct spend_check spend; /* the global budget */
	unsigned notify_on;      /* the default notify policy */
	int chained;             /* an end queued followers: claim again before the pass ends */
	struct notice *told, **told_end; /* what committed claims made true, to tell after them */
};

/* What a claim makes true, told once it is committed (fire_tell): a skip
 * or a pause, or a run its commit recorded (ended). */
struct notice {
	int event;               /* EV_BUDGET, EV_PAUSED (run unused), or -1: a skip, told in the output */
	struct task task;
	struct run run;
	struct job *ended;       /* a run recorded: announced as fire_announce does (the rest unused) */
	int ours, completed;     /* ... and how its end went (struct run_end's) */
	int64_t given_up;        /* not 0: a retry given up, the occurrence whose followers fire */
	struct notice *next;
};

static inline int64_t
now_of(struct fire *f)
{
	return f->o.clock(f->o.clock_arg);
}

/* Ended runs carried by a claim (fire_ride_attach, fire_ride_settle). */
struct end_ctx {
	struct fire *f;
	int64_t now;
	struct job **jobs;
	size_t n;
};
struct ride {
	struct run_end *ends;
	size_t n;
	struct end_ctx x;
};

struct claim_ctx {
	struct fire *f;
	int64_t now;
	int manual, from_queue;
	/* An event fired now (fire_event): its payload and stored key; what it
	 * had become when its key had been seen. */
	const char *payload, *event_key;
	int event_dup;
	int replay;              /* the payload is a request to send again (fire_replay) */
	const char *replay_of;   /* the run it was the request of */
	char event_run[37];
	struct notice *notices;  /* skips and pauses to tell once committed */
	void (*preview)(const struct fire_preview *p, void *arg);
	void *preview_arg;
};

/* fire_owner.c: this process as the store knows it, and what every part shares */
void fire_warn(struct fire *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fire_job_free(struct job *j);
void fire_keep_pending(struct fire *f, struct job *j);   /* ended: waits to be recorded */
void fire_bound_waits(struct fire *f);
void fire_store_down(struct fire *f, const struct err *e);
void fire_store_up(struct fire *f);
int fire_enlist(struct fire *f, struct err *e);
void fire_beat(struct fire *f, int force);
int fire_fit(struct fire *f, int due, struct err *e);

/* fire_run.c: starting claimed runs, and runs waiting for a concurrency slot */
struct exec_cmd fire_job_cmd(const struct fire *f, const struct job *j, int64_t timeout_ms);
void fire_run_executor(struct fire *f, struct job *j, const struct task *t, char *base,
    const char *gate);
void fire_start_claimed(struct fire *f, struct claimed *c, int n);
void fire_gates_try(struct fire *f);
void fire_gate_end(struct fire *f, struct job *j, int status, char *why);

/* fire_end.c: recording how runs ended, telling it */
int fire_after_end(struct task *t, const struct run *r, int *write, void *arg, struct err *e);
/* Tell t's notify hook (its own, else the default) of an event of notify.h
 * that is not a finished run's own: EV_BUDGET, EV_PAUSED (an auto-pause),
 * with the run it is about (NULL: none) and the reason (one line, NULL:
 * none).  Always told, whatever the task's policy; call it once the change
 * is committed.  The hook runs in the background, as a run's does. */
void fire_notify(struct fire *f, const struct task *t, int event, const struct run *r,
    const char *reason);
void fire_announce(struct fire *f, struct job *j);
/* The notices of a claim (x's) kept to tell when it committed, else dropped. */
void fire_notices_keep(struct fire *f, struct claim_ctx *x, int committed);
/* Tell what the claims since the last call made true (the pass calls it
 * after them): reports, warnings and notify hooks. */
void fire_tell(struct fire *f);
void fire_ride_attach(struct fire *f, struct claim_req *q, struct ride *rd, int64_t now);
void fire_ride_settle(struct fire *f, struct claim_req *q, struct ride *rd, int committed);
int fire_record_pending(struct fire *f, struct err *e);
int fire_cancel_if_asked(void *tag, void *arg);
void fire_job_ended(struct fire *f, struct exec_result *x, int64_t now);

/* fire_recover.c: fencing this process, recovering runs of dead owners */
void fire_fence(struct fire *f);

/* fire_claim.c: claiming due and queued work */
int fire_run_fill(struct fire *f, const struct task *t, int64_t slot, int trigger, int attempt,
    int64_t now, struct run *r, struct err *e);
int fire_claim_manual(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e);
/* The runs claimed, *started of them in *claimed (free it), to start:
 * committed, whatever the return. */
int fire_claim_now(struct fire *f, struct claimed **claimed, int *started, int *more,
    struct err *e);
int fire_claim_next(struct fire *f, int64_t *due, struct err *e);
int fire_claim_preview(struct fire *f, void (*fn)(const struct fire_preview *p, void *arg),
    void *arg, struct err *e);

#endif
