/* fire_opts.h: the values firing is given and hands back (fire.h): its
 * options, its callbacks and what they are told.  They need nothing of
 * firing, so the parts of firing below fire.c and the code that fills the
 * options from the config include this alone. */
#ifndef AC_FIRE_OPTS_H
#define AC_FIRE_OPTS_H

#include <stdint.h>

struct config;
struct run;
struct task;

#define FIRE_DEFAULT_TIMEOUT 600 /* seconds, when neither task nor config says */
#define FIRE_LEASE_MARGIN 60     /* a claim's lease: timeout + kill grace + this */
#define FIRE_HOOK_TIMEOUT 30     /* seconds a notify hook may take */
#define FIRE_OWNER_TIMEOUT 30    /* seconds of silence before others recover an owner's runs */

typedef int64_t (*fire_clock_fn)(void *arg);  /* "now" in seconds */

struct fire_opts {
	int jobs;                /* executors at once (task-tick -j) */
	const char *exec;        /* the default executor command line */
	const char *notify;      /* the default notify hook, or NULL */
	const char *notify_on;   /* the default notify policy (notify.h), NULL: NOTIFY_DEFAULT */
	const char *budget;      /* the budget of all tasks together (spend.h), or NULL */
	const char *budget_tz;   /* the zone of its windows, NULL: the local zone */
	int timeout;             /* default seconds per run */
	int64_t kill_grace_ms;   /* SIGTERM to SIGKILL; 0: the exec default */
	const char *search_dir;  /* where executors are looked for after PATH */
	int owner_timeout;       /* seconds; 0: FIRE_OWNER_TIMEOUT */
	int deadline;            /* seconds, for tasks without their own; 0: none */
	int watch;               /* a watcher: a store gone is said once (warn) and waited out */
	int stagger;             /* the config's stagger, seconds (task.h: task_delay) */
	int max_concurrent;      /* llm-call runs in flight in all (0: no limit) */
	const struct config *cf; /* for concurrency.MODEL and the default model; may be NULL */
	fire_clock_fn clock;
	void *clock_arg;
};

/* A finished run, handed to the report callback. */
struct fire_report {
	const struct run *run;   /* with output and error */
	const char *name;        /* the task's name */
	const char *hook;        /* the notify hook it went to, or NULL */
	int told;                /* a gate's skip that ends a streak of others: said */
};

struct fire_cb {
	void (*report)(const struct fire_report *r, void *arg);
	void (*warn)(const char *msg, void *arg);  /* one line, no program name */
	void *arg;
};

/* What a pass would fire at now (fire_preview). */
struct fire_preview {
	const struct task *task;
	int64_t slot;            /* TIME_NONE: queued or skipped */
	const char *trigger;     /* schedule, catchup, retry, heartbeat, manual; "skip" */
};

#endif
