/* tick_loop.h: task-tick's loop.  A pass (from cron or a timer) claims
 * for its first minute (claim_ms), then sees its runs to their end; a
 * watcher (--watch) claims as work falls due, woken by the store's wake-up
 * descriptor, and reopens its store when it goes away.  Between claims:
 * recording that a pass runs, pruning the history, handing answers to
 * task-deliver, and on a stop signal the runs in flight get grace_ms.
 * What goes wrong is said on stderr after tk->prog; the firing goes on. */
#ifndef AC_TICK_LOOP_H
#define AC_TICK_LOOP_H

#include <stdint.h>

#include "config.h"
#include "fire.h"
#include "fire_env.h"
#include "history.h"

struct deliver_kick;

struct tick {
	const char *prog;           /* the program that says what goes wrong */
	struct store *st;
	struct fire *f;
	struct fire_clock clk;
	int sfd;
	int64_t grace_ms;
	int64_t stop_at;
	int stopped;
	struct history_opts ho;
	int64_t pass_at, prune_at;  /* mono_ms of the last pass recorded, the last pruning */
	int64_t passed;             /* the time that record holds (the store's clock), or 0 */
	int prune_more;             /* the last pruning ended before its round did */
	char refresh_err[ERR_MAX];  /* the last failure to reopen the store, said */
	int *ended;                 /* runs ended since delivery last looked (the report counts them) */
	const struct config *cf;
	struct deliver_kick *dk;    /* task-deliver, while one runs */
	int64_t deliver_at;         /* mono_ms of the last look for deliveries */
	int64_t claim_ms;           /* how long a pass (not a watcher) claims */
	int busy;                   /* it started, recovered, pruned, delivered or said
	                               something (or has more to prune): not an idle pass */
};

/* tick_loop.c */
/* Until a pass is done, or a watcher stopped; 1 when something was not
 * (a store that failed, runs left unrecorded), else 0. */
int tick_loop(struct tick *tk, int watch);
/* Start task-deliver for what ended, unless one runs. */
void tick_deliver(struct tick *tk);
void tick_deliver_said(char *said);    /* what it said, passed on; said is freed */

#endif
