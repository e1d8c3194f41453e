/* store_history.h: the store's record of the scheduler itself and of how
 * much history it holds: a row per host saying when its last pass ran
 * (task-status's dead-man's switch), the figures task-status reads, and
 * the primitives of pruning (history.c decides what goes).  Each function
 * is atomic on its own; the pruning ones also inside a unit of work
 * (store_begin), which is how history.c bounds what one transaction does. */
#ifndef AC_STORE_HISTORY_H
#define AC_STORE_HISTORY_H

#include <stdint.h>

#include "store.h"

/* ---- passes ---- */

struct pass {
	char host[256];         /* TASK_HOST_ID, else the hostname */
	int64_t at;             /* when it ran ("now" as the pass saw it) */
	char mode[8];           /* "cron" (one pass) or "watch" */
	long long pid;
	char version[24];       /* the agentcron that ran it */
};
/* The host's row, replaced: one per host, whatever the number of passes. */
int store_pass_record(struct store *st, const struct pass *p, struct err *e);
/* Latest first. */
int store_pass_list(struct store *st, int (*fn)(const struct pass *p, void *arg), void *arg,
    struct err *e);

/* ---- figures ---- */

/* Tasks not in the trash: all, the enabled, and of each status. */
struct task_tally {
	long all, enabled, by_status[STATUS_COUNT];
};
int store_task_tally(struct store *st, struct task_tally *t, struct err *e);
/* Tasks pending and enabled (not in the trash) due at now (due_at reached,
 * or a run asked for), and of those the overdue (due before late): counts
 * from the due tasks' index alone, not a walk of them. */
int store_task_due(struct store *st, int64_t now, int64_t late, long *due, long *overdue,
    struct err *e);
/* Runs started at or after since (TIME_NONE: all kept), by status:
 * fn(status name, count). */
int store_run_counts(struct store *st, int64_t since,
    void (*fn)(const char *status, long long n, void *arg), void *arg, struct err *e);
/* Each task's last successful run's end: fn(task id, its name (NULL for
 * a task in the trash), instant), in id order. */
int store_last_success(struct store *st,
    void (*fn)(const char *task_id, const char *name, int64_t at, void *arg), void *arg,
    struct err *e);
/* The ids of the tasks that have a budget of their own (not in the trash). */
int store_budget_tasks(struct store *st, void (*fn)(const char *task_id, void *arg), void *arg,
    struct err *e);
/* Tokens of the model calls recorded at or after since (TIME_NONE: all kept). */
int store_call_tokens(struct store *st, int64_t since, long long *in, long long *out,
    struct err *e);
/* What pruning removed, ever: "runs.STATUS", "input_tokens", "output_tokens",
 * "cost_micro" (millionths of a dollar); fn(key, n). */
int store_pruned_totals(struct store *st, void (*fn)(const char *key, long long n, void *arg),
    void *arg, struct err *e);
/* Bytes the store takes (file and log; or the tables with their indexes
 * and TOAST), and of those, bytes free for reuse (-1: not known). */
int store_size(struct store *st, int64_t *bytes, int64_t *free_bytes, struct err *e);

/* ---- pruning primitives ---- */

struct prune_task {
	char id[37];
	char *keep;             /* the task's own keep, or NULL */
};
/* Up to max tasks that have runs, in id order after `after` ("": from the
 * start); *n of them.  Free with prune_tasks_free. */
int store_prune_tasks(struct store *st, const char *after, int max, struct prune_task *out,
    int *n, struct err *e);
void prune_tasks_free(struct prune_task *t, int n);
/* Of task id's runs: the oldest start (TIME_NONE: none), and the starts
 * of its nth0-th and nth1-th newest runs (TIME_NONE: fewer runs). */
int store_prune_bounds(struct store *st, const char *id, long nth0, long nth1, int64_t *oldest,
    int64_t *at0, int64_t *at1, struct err *e);
/* The runs of task id started before `before` and not running, oldest
 * first, at most limit: removed with their model calls (dry: only
 * counted), their figures added to the pruned totals. */
int store_prune_runs(struct store *st, const char *id, int64_t before, long limit, int dry,
    long *runs, long *calls, struct err *e);
/* Named conversations, in name order after `after`; *n of them (malloc'd
 * names, freed by the caller). */
int store_prune_contexts(struct store *st, const char *after, int max, char **out, int *n,
    struct err *e);
/* All but the newest keep messages of context, oldest first, at most
 * limit (dry: counted). */
int store_prune_messages(struct store *st, const char *context, long keep, long limit, int dry,
    long *n, struct err *e);
/* Model calls made outside any run, recorded before `before`, at most limit. */
int store_prune_loose_calls(struct store *st, int64_t before, long limit, int dry, long *n,
    struct err *e);
/* Give freed space back: SQLite in incremental auto-vacuum mode returns up
 * to max_pages free pages (0: all) to the file system (else nothing); full: a whole
 * VACUUM that also switches a store made before to incremental mode
 * (PostgreSQL: VACUUM of the history tables).  *what says what it did. */
int store_vacuum(struct store *st, int full, long max_pages, char *what, size_t n, struct err *e);

#endif
