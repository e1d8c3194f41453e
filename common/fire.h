/* fire.h: firing tasks, shared by task-tick and task-run.  A claim is one
 * write transaction that records a run (unique per task and scheduled
 * instant), marks the task running and moves its next run on, so an
 * occurrence fires once however many processes claim at the same time.
 * After the executor ends, one more transaction records the run and applies
 * the rules: one-shot done, next occurrence, backoff and retries, manual
 * runs leaving the schedule alone.  Runs whose owner died or whose lease ran
 * out are recovered as interrupted.  Nothing here prints: finished runs and
 * warnings go to the caller's callbacks. */
#ifndef AC_FIRE_H
#define AC_FIRE_H

#include <stdint.h>

#include "runs.h"
#include "store.h"
#include "util.h"

#define FIRE_HEARTBEAT_INTENT "agentcron.heartbeat" /* marks the heartbeat task */
#define FIRE_GRACE 60            /* seconds late that still count as on time */
#define FIRE_BACKOFF_BASE 60     /* first retry of a one-shot, doubling */
#define FIRE_BACKOFF_MAX 3600
#define FIRE_ALL_MAX 100         /* --missed all: the newest this many missed runs at most */
#define FIRE_DEFAULT_TIMEOUT 600 /* seconds, when neither task nor config says */
#define FIRE_LEASE_MARGIN 60     /* a claim's lease: timeout + kill grace + this */
#define FIRE_HOOK_TIMEOUT 30     /* seconds a notify hook may take */
#define FIRE_EXCERPT 200         /* bytes of last_result and last_error */
#define FIRE_HEARTBEAT_PROMPT "Heartbeat check-in. Act on the standing instructions below that" \
	" need attention now, and answer briefly with what you did, or 'nothing to do'."

typedef int64_t (*fire_clock_fn)(void *arg);  /* "now" in seconds */

struct fire_opts {
	int jobs;                /* executors at once (task-tick -j) */
	const char *exec;        /* the default executor command line */
	const char *notify;      /* the default notify hook, or NULL */
	int timeout;             /* default seconds per run */
	int64_t kill_grace_ms;   /* SIGTERM to SIGKILL; 0: the exec default */
	const char *search_dir;  /* where executors are looked for after PATH */
	fire_clock_fn clock;
	void *clock_arg;
};

/* A finished run, handed to the report callback. */
struct fire_report {
	const struct run *run;   /* with output and error */
	const char *name;        /* the task's name */
	const char *hook;        /* the notify hook it went to, or NULL */
};

struct fire_cb {
	void (*report)(const struct fire_report *r, void *arg);
	void (*warn)(const char *msg, void *arg);  /* one line, no program name */
	void *arg;
};

struct fire;
struct config;

/* fire.c */
/* The defaults of o from the environment and the configuration file (cf
 * may be NULL): exec from TASK_EXEC, else `exec`, else llm-call; notify
 * from TASK_NOTIFY, else `notify`; timeout from `run_timeout` (seconds). */
int fire_opts_config(struct fire_opts *o, const struct config *cf, struct err *e);
int fire_new(struct store *st, const struct fire_opts *o, const struct fire_cb *cb,
    struct fire **out, struct err *e);
void fire_free(struct fire *f);            /* kills what still runs */
int fire_paused(struct fire *f, char **since, struct err *e); /* 1 if paused; *since malloc'd */
/* Runs still marked running whose owner is gone (this host: pid dead or
 * reused, or another boot) or whose lease ran out: their leftover
 * processes are killed, the run recorded interrupted and the task treated
 * as after a failure (a manual run gives the task back its status). */
int fire_recover(struct fire *f, int *n, struct err *e);
void fire_pass_begin(struct fire *f);      /* a new pass: scan due tasks from the start */
/* Claim due and queued tasks for the free executor slots and start them.
 * *more: due work was left for lack of slots.  From then on fire_wait also
 * claims for the slots that runs free, until fire_hold. */
int fire_claim(struct fire *f, int *started, int *more, struct err *e);
void fire_hold(struct fire *f);            /* claim nothing more (shutdown) */
/* Claim one task for a manual run now.  ST_REFUSED: already running. */
int fire_manual(struct fire *f, const char *id, char run_id[37], struct err *e);
size_t fire_running(const struct fire *f); /* executors in flight */
size_t fire_busy(const struct fire *f);    /* executors and notify hooks in flight */
/* Supervise for up to timeout_ms (-1: no limit) or until one of fds is
 * readable; every run that ends is recorded and reported. */
int fire_wait(struct fire *f, int64_t timeout_ms, const int *fds, int nfds, struct err *e);
void fire_stop(struct fire *f);            /* end the runs in flight (shutdown) */
/* The instant the next task is due (TIME_NONE: none), for --watch. */
int fire_next_due(struct fire *f, int64_t *due, struct err *e);
/* What a pass would fire at now, without changing anything. */
struct fire_preview {
	const struct task *task;
	int64_t slot;            /* TIME_NONE: queued or skipped */
	const char *trigger;     /* schedule, catchup, retry, heartbeat, manual; "skip" */
};
int fire_preview(struct fire *f, void (*fn)(const struct fire_preview *p, void *arg), void *arg,
    struct err *e);
/* The prompt a heartbeat run gets: base, then "## Heartbeat Additions"
 * and each pending enabled heartbeat task's prompt.  Malloc'd. */
int fire_heartbeat_prompt(struct store *st, const char *base, char **out, struct err *e);
/* Create or change the heartbeat task (a cron task whose intent is
 * FIRE_HEARTBEAT_INTENT): cron "off" disables it; prompt NULL keeps the
 * current one (or the default for a new one).  *created tells which. */
int fire_heartbeat_set(struct store *st, const char *cron, const char *prompt, int64_t now,
    struct task *out, int *created, struct err *e);
/* What --print-cron and --print-systemd print: the crontab line, or a
 * shell script writing the systemd user units, for the task-tick at self
 * and the store db (NULL: the default), both absolute. */
void fire_install_cron(struct buf *b, const char *self, const char *db);
void fire_install_systemd(struct buf *b, const char *self, const char *db, int watch);

#endif
