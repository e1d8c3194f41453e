/* history.h: how much history the store keeps, and pruning the rest.
 *
 * A task's runs go, with their outputs and model calls, once they are
 * older than the keep duration (config `keep`, default 90 days) or beyond
 * the newest keep_runs of the task (default 25,000); a task's own keep
 * (`--keep 30d`, `--keep 500`, `--keep forever`) replaces both.  The newest
 * HISTORY_MIN_RUNS runs of every task and the runs in flight always stay.
 * A named conversation keeps the context_messages newest messages (what
 * llm-call can still send), and model calls made outside any run follow
 * the keep duration.  The keys of task-web's events are kept for hook_keep
 * (default 7 days) whatever becomes of their runs, so a redelivery within
 * it fires nothing even once its run is pruned.
 *
 * Pruning goes in batches, each one short transaction that removes at most
 * HISTORY_BATCH_ROWS rows, through a cursor kept in the store so that
 * successive passes, on any host, take up where the last one stopped. */
#ifndef AC_HISTORY_H
#define AC_HISTORY_H

#include <stdint.h>

#include "config.h"
#include "host.h"
#include "keep.h"
#include "store.h"

#define HISTORY_KEEP_DEFAULT (90 * 86400)
#define HISTORY_KEEP_RUNS_DEFAULT 25000
#define HISTORY_HOOK_KEEP_DEFAULT (7 * 86400)
#define HISTORY_CONTEXT_DEFAULT 100
#define HISTORY_BATCH_ROWS 256    /* rows one batch removes, at most */
#define HISTORY_BATCH_TASKS 32    /* tasks one batch looks at, at most */

struct history_opts {
	int64_t keep;            /* seconds, 0: no age limit */
	long keep_runs;          /* 0: no count limit */
	long context_messages;
	int64_t hook_keep;       /* seconds an event's key is kept, 0: forever */
};
/* The defaults, then the configuration file's keep, keep_runs,
 * context_messages and hook_keep (ST_INVALID with the key and the file
 * when bad). */
int history_opts_config(struct history_opts *o, const struct config *cf, struct err *e);
/* What a task whose keep is `keep` (NULL: the default) keeps, for people:
 * "90 days or the last 25000 runs (the default)". */
void history_describe(const char *keep, const struct history_opts *o, char *buf, size_t n);

struct prune_stats {
	long runs, calls, messages, loose_calls;
};

/* Prune for up to budget_ms (0: until a whole round is done), in batches,
 * each its own transaction; *done = 1 when the round ended (everything
 * looked at once).  dry: only count, in one round, changing nothing. */
int history_prune(struct store *st, const struct history_opts *o, int64_t now, int dry,
    int64_t budget_ms, struct prune_stats *s, int *done, struct err *e);

/* Free space past HISTORY_FREE_KEPT bytes goes back to the file system,
 * HISTORY_GIVE_PAGES pages at a time: what stays is reused by new runs. */
#define HISTORY_FREE_KEPT (16 << 20)
#define HISTORY_GIVE_PAGES 2048
int history_give_back(struct store *st, struct err *e);

/* Record that a pass ran now on this host ("cron" or "watch"). */
int history_pass(struct store *st, const char *mode, int64_t now, struct err *e);

#endif
