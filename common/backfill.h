/* backfill.h: task-run --backfill FROM..TO: each occurrence of a
 * recurring task in a past range (both ends read in its zone, those before
 * it was made only when asked, at most 100) run in order unless it ran,
 * waiting while the task runs and while its store is away; with dry_run
 * the occurrences that would run, printed. */
#ifndef AC_BACKFILL_H
#define AC_BACKFILL_H

#include <stdint.h>

#include "util.h"

struct fire;
struct store;
struct zones;

#define BACKFILL_STORE_WAIT_MS 60000 /* how long a backfill waits for its store to come back */

struct backfill {
	struct store *st;
	struct fire *f;
	struct zones *zs;
	int64_t now;
	const char *range;          /* FROM..TO */
	unsigned when_flags;        /* when.h's, for reading FROM and TO */
	int before_created, dry_run, json;
	const char *prog;           /* names the line on occurrences left out */
	int (*stopped)(void *arg);  /* has a signal asked to stop? */
	int (*wait)(void *arg, const char *run_id, struct err *e); /* a started run, to its end */
	void *arg;
	/* Before each occurrence that would run: ST_OK, or why it may not
	 * (ST_REFUSED: over budget), which ends the backfill; NULL: none. */
	int (*budget_ok)(void *arg, const char *task_id, struct err *e);
};

/* Backfill task id: ST_INVALID for a bad range; else the worst of its
 * runs (a failed run has said so), ST_ERR when stopped. */
int backfill_task(struct backfill *b, const char *id, struct err *e);

#endif
