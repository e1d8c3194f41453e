/* run_waiter.h: waiting in the foreground for a run started through
 * fire.h (task-run): the fire is supervised until the run is reported,
 * and a stop signal (stopsig.h) stops what runs instead of killing the
 * waiter, so the run's end is still recorded. */
#ifndef AC_RUN_WAITER_H
#define AC_RUN_WAITER_H

#include "fire.h"
#include "util.h"

struct run_waiter {
	struct fire *f;
	int sfd;                   /* stopsig_catch's descriptor, -1: none */
	int stopped;               /* a stop signal came: run nothing more */
	int done;                  /* the run waited for was reported (the report callback sets it) */
	int rc_run;                /* and its exit status */
	int flush;                 /* a backfill: record what a restarting store did not take */
	void (*warn)(const char *msg, void *arg); /* what went wrong while waiting */
	void *warn_arg;
};

/* 1 once a stop signal has come. */
int run_waiter_stopped(struct run_waiter *w);
/* Supervise w->f until nothing runs (the run run_id and its notify hook
 * ended); its exit status, or ST_ERR when it was never reported. */
int run_waiter_wait(struct run_waiter *w, const char *run_id, struct err *e);

#endif
