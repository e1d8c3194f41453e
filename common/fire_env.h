/* fire_env.h: what firing hands its children and reads from its own
 * environment: the executor's environment (DESIGN.md's executor contract),
 * the notify hook's environment and the event it reads on stdin, the
 * defaults of task-tick and task-run from TASK_EXEC, TASK_NOTIFY and the
 * configuration file, and task-tick's clock (TASK_NOW or the store's). */
#ifndef AC_FIRE_ENV_H
#define AC_FIRE_ENV_H

#include <stdint.h>

#include "store.h"
#include "task.h"
#include "util.h"

struct config;
struct fire_opts;

/* "Now" for task-tick: TASK_NOW (now, as now_get read it) fixed for a
 * pass, or moving on from it with the monotonic clock in a watcher, so
 * tests can start anywhere in time; without it, the store's clock (a
 * database's, shared by every host). */
struct fire_clock {
	int fixed, set;
	int64_t base, mono0;
	const struct store *st;
};

/* fire_env.c */
void fire_clock_init(struct fire_clock *c, const struct store *st, int64_t now, int moving);
int64_t fire_clock_ms(const struct fire_clock *c);
int64_t fire_clock_now(void *clock);       /* in seconds, a fire_clock_fn */
/* The defaults of o from the environment and the configuration file (cf
 * may be NULL): exec from TASK_EXEC, else `exec`, else llm-call; notify
 * from TASK_NOTIFY, else `notify`; timeout from `run_timeout`;
 * owner_timeout from `owner_timeout` (seconds); notify_on and budget
 * (validated) from theirs. */
int fire_opts_config(struct fire_opts *o, const struct config *cf, struct err *e);
/* The executor's environment for run r of t: this process's, with the
 * TASK_* variables of the contract in place of any it had; db is
 * TASK_DB; TASK_PAYLOAD is empty past FIRE_PAYLOAD_ENV_MAX.  Free with exec_argv_free. */
char **fire_exec_env(const struct task *t, const struct run *r, const char *db);
/* A task's payload past FIRE_PAYLOAD_ENV_MAX (TASK_PAYLOAD is then empty)
 * in a file of run run_id (0600, run_file.h) named by TASK_PAYLOAD_FILE in
 * *envp: *file, to unlink once the run is over; else *file NULL. */
int fire_task_payload(const struct task *t, const char *run_id, char ***envp, char **file,
    struct err *e);
/* What a notify hook is told: an event (notify.h's EV_*) of a task, with
 * the run it is about (NULL: none) and a reason (NULL: none). */
struct hook_event {
	int event;
	const char *task_id, *name;
	const struct run *run;
	const char *reason;
	const char *diff;        /* change: the unified diff from the last answer, or NULL */
};
/* A notify hook's environment: TASK_ID, TASK_NAME, TASK_EVENT and, with a
 * run, TASK_RUN_ID and TASK_STATUS. */
char **fire_hook_env(const struct hook_event *ev, const char *db);
/* *envp with PGPASSWORD set to pw, the store's password (NULL: its URI
 * holds none): TASK_DB goes without it, as executors may print it. */
void fire_env_password(char ***envp, const char *pw);
void fire_env_set(char ***envp, const char *name, const char *value); /* NAME=value in *envp */
/* TASK_SLOT of run r of t: the scheduled instant it is for (a one-shot's
 * retry: the planned instant it retries; a manual run: when it started). */
int64_t fire_slot_of(const struct task *t, const struct run *r);
/* The event a notify hook reads: one JSON line, newline included. */
char *fire_hook_event(const struct hook_event *ev);

#endif
