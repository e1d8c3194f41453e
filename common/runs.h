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

/* store_runs.c */
void run_filter_init(struct run_filter *f);
void run_free(struct run *r);
/* Newest first. */
int store_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e);
int store_run_get(struct store *st, const char *id_or_prefix, struct run *r, struct err *e);

#endif
