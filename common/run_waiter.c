/* Waiting in the foreground for a run to be reported (run_waiter.h). */
#include "backfill.h"
#include "run_waiter.h"
#include "stopsig.h"

int
run_waiter_stopped(struct run_waiter *w)
{
	if (!w->stopped && stopsig_take(w->sfd))
		w->stopped = 1;
	return w->stopped;
}

int
run_waiter_wait(struct run_waiter *w, const char *run_id, struct err *e)
{
	int stopping = 0;
	w->done = 0;
	while (fire_busy(w->f)) {
		struct err we;
		if (fire_wait(w->f, -1, &w->sfd, 1, &we))
			w->warn(we.msg, w->warn_arg);
		if (!stopping && run_waiter_stopped(w)) {
			stopping = 1;
			fire_stop(w->f);
		}
	}
	/* A backfill's result that its store, restarting, did not take is
	 * recorded once it is back, before the next occurrence. */
	struct err fe;
	if (w->flush && !w->done && fire_unrecorded(w->f) &&
	    fire_flush(w->f, mono_ms() + BACKFILL_STORE_WAIT_MS, &fe))
		w->warn(fe.msg, w->warn_arg);
	return w->done ? w->rc_run : err_set(e, ST_ERR, "run %.8s was not recorded", run_id);
}
