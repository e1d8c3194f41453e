/* runs.h: the record of executions (one row per run) and the claims that
 * make every occurrence fire exactly once. */
#ifndef AC_RUNS_H
#define AC_RUNS_H

#include <stdint.h>

#include "store.h"
#include "util.h"

struct run {
	char id[37];
	char task_id[37];
	int64_t slot;          /* the scheduled instant, TIME_NONE for manual runs */
	char *trigger;         /* schedule, manual, retry, catchup, heartbeat */
	char *status;          /* running, success, failed, timeout, interrupted */
	int64_t started_at, ended_at;
	int exit_code;         /* -1 when none (signal, never started) */
	char *output, *error;
	int64_t duration_ms;
	int attempt;
};

struct run_filter {
	const char *task_id;   /* NULL: every task */
	const char *status;    /* NULL: any */
	int64_t since;         /* TIME_NONE: any; else started_at >= since */
	long limit;            /* 0: no limit */
	int with_output;       /* also read output and error (they can be large) */
};

typedef int (*run_fn)(const struct run *r, void *arg); /* non-zero stops */

/* Who holds a claim: a process on a host, told apart from a later process
 * with the same pid by its start time and boot. */
struct run_owner {
	char host[256];
	char boot[40];
	long long pid;
	long long start;       /* clock ticks after boot (field 22 of /proc/PID/stat) */
};

/* A run still marked running, as crash recovery sees it. */
struct run_claim {
	char id[37], task_id[37];
	struct run_owner owner;
	int64_t slot, started_at, lease_until;
	char trigger[16];
	char prev_status[16];  /* "" unless a manual run */
	int attempt;
};

/* Where a pass has got to in the due tasks (ordered by due_at, rowid). */
struct due_cursor {
	int64_t due, rowid;
};

/* store_runs.c */
void run_filter_init(struct run_filter *f);
void run_free(struct run *r);
/* Newest first. */
int store_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e);
int store_run_get(struct store *st, const char *id_or_prefix, struct run *r, struct err *e);
/* The earliest due_at of an enabled pending task, TIME_NONE if none. */
int store_due_next(struct store *st, int64_t *due, struct err *e);
void due_cursor_init(struct due_cursor *c);
/* Up to max ids of tasks due at now (enabled, pending, not deleted) past
 * the cursor, which moves on. */
int store_due_scan(struct store *st, int64_t now, struct due_cursor *c, char (*ids)[37], int max,
    int *n, struct err *e);
/* Up to max ids of tasks asked to run (task-run --queue) that are not running. */
int store_queued_scan(struct store *st, char (*ids)[37], int max, int *n, struct err *e);
int store_task_queue(struct store *st, const char *id, int64_t now, struct err *e); /* ask for a run */
/* Pending enabled heartbeat-kind tasks, oldest first. */
int store_heartbeat_tasks(struct store *st, task_fn fn, void *arg, struct err *e);
/* Record the start of r (status as given, usually running) with its owner
 * and lease (o NULL for a row that is not running).  *dup = 1 and nothing
 * written when (task, slot) already has a run: that occurrence fired. */
int store_run_begin(struct store *st, const struct run *r, const struct run_owner *o,
    int64_t lease_until, const char *prev_status, int *dup, struct err *e);
/* Record how r ended (status, ended_at, exit_code, output, error,
 * duration_ms) if it is still running; *was_running 0 when someone (crash
 * recovery) already ended it. */
int store_run_end(struct store *st, const struct run *r, int *was_running, struct err *e);
/* The attempt number of the task's latest run, 0 if it has none. */
int store_run_last_attempt(struct store *st, const char *task_id, int *attempt, struct err *e);
/* Every run marked running. */
int store_run_claims(struct store *st, int (*fn)(const struct run_claim *c, void *arg), void *arg,
    struct err *e);

#endif
