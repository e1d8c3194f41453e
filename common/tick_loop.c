/* task-tick's pass and watcher (tick_loop.h). */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver_kick.h"
#include "sdnotify.h"
#include "stopsig.h"
#include "store.h"
#include "tick_loop.h"

#define FLUSH_MS 60000       /* a pass's last tries to record what it ran */
#define RECHECK_MS 60000     /* a watcher looks again at least this often */
#define RETRY_MS 1000        /* and this often while its store cannot be reached */
#define PASS_EVERY_MS 30000  /* a watcher records that it runs this often */
#define PRUNE_EVERY_MS 60000 /* and prunes this often, */
#define PRUNE_WATCH_MS 200   /* for this long at most, */
#define PRUNE_AGAIN_MS 5000  /* and sooner while a round is unfinished; */
#define DELIVER_EVERY_MS 30000 /* a watcher looks for due deliveries */
#define PRUNE_PASS_MS 1000   /* a pass from cron, once, after its claims */
#define RELOOK_MS 200        /* a pass from cron on a server looks again after */

/* Answers to their targets: task-deliver, which links libcurl, after a
 * pass that ended runs or when a receipt is due (a watcher looks at most
 * every DELIVER_EVERY_MS).  It runs beside the firing, one at a time;
 * runs that end meanwhile are looked at when it is done.  Its failure is
 * said; the firing goes on. */
void
tick_deliver(struct tick *tk)
{
	struct err e;
	int started = 0;
	if (deliver_kick_running(tk->dk))
		return;
	int ended = *tk->ended;
	*tk->ended = 0;
	tk->deliver_at = mono_ms();
	if (deliver_kick_start(tk->dk, tk->st, tk->cf, ended, fire_clock_ms(&tk->clk) / 1000,
	    &started, &e)) {
		fprintf(stderr, "%s: %s\n", tk->prog, e.msg);
		tk->busy = 1;
	}
	if (started)
		tk->busy = 1;
}

/* What task-deliver said, once it is done: passed on. */
void
tick_deliver_said(char *said)
{
	if (said)
		fputs(said, stderr);
	free(said);
}

/* Stop claiming; the runs in flight get grace_ms, then SIGTERM. */
static void
begin_stop(struct tick *tk, int sig)
{
	struct err e;
	if (tk->stop_at)
		return;
	if (sdnotify("STOPPING=1", &e))
		fprintf(stderr, "%s: %s\n", tk->prog, e.msg);
	tk->stop_at = mono_ms() + tk->grace_ms;
	if (sig && fire_running(tk->f))
		fprintf(stderr, "%s: %s: letting %zu run%s finish (up to %lld s), then stopping\n", tk->prog,
		    strsignal(sig), fire_running(tk->f), fire_running(tk->f) == 1 ? "" : "s",
		    (long long)(tk->grace_ms / 1000));
}

/* How long a watcher may sleep: until the next due instant, or a while;
 * a second while its store cannot be reached (down: it lost its wake-up
 * descriptor), since nothing else would wake it when the store is back. */
static int64_t
watch_timeout(struct tick *tk, int down)
{
	struct err e;
	int64_t due = TIME_NONE, ms = down ? RETRY_MS : RECHECK_MS;
	if (fire_next_due(tk->f, &due, &e) != ST_OK)
		return RETRY_MS;
	if (due != TIME_NONE) {
		int64_t until = due * 1000 - fire_clock_ms(&tk->clk);
		/* Due but not ours to claim now (all slots busy, or it fired in
		 * this pass): look again in a while. */
		if (until <= 0)
			until = (int)fire_running(tk->f) >= fire_jobs(tk->f) ? RECHECK_MS : 1000;
		if (until < ms)
			ms = until;
	}
	return ms;
}

/* A watcher's store may have been replaced, or its server restarted. */
static void
refresh(struct tick *tk, int *wake_fd)
{
	char what[512];
	struct err e;
	if (store_refresh(tk->st, what, sizeof what, &e) == ST_OK) {
		if (what[0]) {
			fprintf(stderr, "%s: %s\n", tk->prog, what);
			fire_pass_begin(tk->f);
		}
		tk->refresh_err[0] = 0;
		*wake_fd = store_wake_fd(tk->st, &e);
	} else {
		/* Said once while it lasts: the watcher tries at every wake-up. */
		if (strcmp(tk->refresh_err, e.msg) != 0)
			fprintf(stderr, "%s: %s; trying again\n", tk->prog, e.msg);
		snprintf(tk->refresh_err, sizeof tk->refresh_err, "%s", e.msg);
		*wake_fd = -1;
	}
}

/* That a pass runs, for task-status (a watcher every PASS_EVERY_MS), and
 * pruning when nothing is left to claim: a failure of either is said and
 * the firing goes on. */
static void
pass_chores(struct tick *tk, int watch, int more)
{
	struct err e;
	int64_t now = fire_clock_ms(&tk->clk) / 1000, t = mono_ms();
	if ((!tk->pass_at || (watch && t - tk->pass_at >= PASS_EVERY_MS))) {
		tk->pass_at = t;
		if (history_pass(tk->st, watch ? "watch" : "cron", now, &e)) {
			fprintf(stderr, "%s: %s\n", tk->prog, e.msg);
			tk->busy = 1;
		} else {
			tk->passed = now;
		}
	}
	if (watch && !more && (*tk->ended || t - tk->deliver_at >= DELIVER_EVERY_MS))
		tick_deliver(tk);
	/* A pass from cron prunes once its runs are done, so a burst's
	 * claims and ends never share the store with it. */
	if (more || (!watch && fire_busy(tk->f)) || (tk->prune_at && (!watch ||
	    t - tk->prune_at < (tk->prune_more ? PRUNE_AGAIN_MS : PRUNE_EVERY_MS))))
		return;
	tk->prune_at = t;
	struct prune_stats s;
	int done = 1;
	if (history_prune(tk->st, &tk->ho, now, 0, watch ? PRUNE_WATCH_MS : PRUNE_PASS_MS, &s, &done,
	    &e) || ((s.runs || s.messages || s.loose_calls) && history_give_back(tk->st, &e))) {
		fprintf(stderr, "%s: pruning the history: %s\n", tk->prog, e.msg);
		tk->busy = 1;
	}
	tk->prune_more = !done;
	if (!done || s.runs || s.messages || s.loose_calls)
		tk->busy = 1;
}

/* A change under way holds a due task's row, and claims on a server
 * pass over it: a watcher is woken when the change commits, but a pass
 * from cron has the next pass a minute away.  So, once, at its end, a
 * pass that scanned due tasks and finds one due still scans them again,
 * RELOOK_MS later; a stop signal meanwhile ends the pass instead. */
static int
relook(struct tick *tk)
{
	struct err e;
	int left;
	if (fire_left_behind(tk->f, &left, &e) || !left)
		return 0;
	struct pollfd p = {.fd = tk->sfd, .events = POLLIN};
	if (poll(&p, 1, RELOOK_MS) != 0)
		return 0;
	fire_rescan(tk->f);
	return 1;
}

/* A watcher says where it watches and how it is woken when it starts. */
static void
say_watching(struct tick *tk)
{
	char host[256] = "";
	const char *forced = getenv("TASK_HOST_ID");
	if (forced && *forced)
		snprintf(host, sizeof host, "%s", forced);
	else if (gethostname(host, sizeof host - 1) != 0)
		snprintf(host, sizeof host, "localhost");
	fprintf(stderr, "%s: watching store '%s' on host %s with -j %d, woken %s\n", tk->prog,
	    store_name(tk->st), host, fire_jobs(tk->f), store_is_uri(store_locator(tk->st)) ?
	    "by LISTEN/NOTIFY from any host" : "through inotify by any program using the store");
}

int
tick_loop(struct tick *tk, int watch)
{
	struct err e;
	int status = 0, wake_fd = -1, ready = !watch, relooked = 0;
	int64_t recover_every = 5000, last_recover = mono_ms(), flush_by = 0;
	/* A pass claims during its first minute, then only sees its runs to
	 * their end: the next pass claims what falls due meanwhile, so once
	 * cron stops starting passes nothing new starts. */
	int64_t claim_until = mono_ms() + tk->claim_ms;
	fire_pass_begin(tk->f);
	if (watch) {
		say_watching(tk);
		refresh(tk, &wake_fd);
	}
	for (;;) {
		int started = 0, more = 0;
		/* A pass whose store fails while runs are in flight goes on
		 * supervising them (their results wait to be recorded) and tries
		 * again when they are done; a watcher waits for the store. */
		int claiming = !tk->stop_at && (watch || mono_ms() < claim_until);
		int claimed = claiming ? fire_claim(tk->f, &started, &more, &e) : -1;
		if (started || claimed > 0)
			tk->busy = 1;
		if (claimed == ST_OK)
			pass_chores(tk, watch, more);
		if (claimed > 0 && !watch && fire_busy(tk->f) == 0) {
			/* Results waiting for the store: wait for it as the last
			 * flush would, and go on with the pass once it is back. */
			if (fire_unrecorded(tk->f)) {
				if (!flush_by)
					flush_by = mono_ms() + FLUSH_MS;
				if (fire_flush(tk->f, flush_by, &e))
					break;
				flush_by = 0;
				continue;
			}
			fprintf(stderr, "%s: %s\n", tk->prog, e.msg);
			status = 1;
			begin_stop(tk, 0);
		}
		if (fire_busy(tk->f) == 0 && (tk->stop_at || (!watch && (!more || !claiming)))) {
			if (!watch && !tk->stop_at && claiming && !relooked) {
				relooked = 1;
				if (relook(tk))
					continue;
			}
			break;
		}
		if (!watch && fire_busy(tk->f) == 0)
			continue;
		int64_t timeout = -1, planned = 0;
		if (tk->stop_at && !tk->stopped)
			timeout = tk->stop_at - mono_ms();
		else if (watch && !tk->stop_at)
			planned = mono_ms() + (timeout = watch_timeout(tk, wake_fd < 0));
		/* A watcher also wakes to look for runs whose owner died. */
		int64_t recover_in = last_recover + recover_every - mono_ms();
		if (planned && timeout > recover_in)
			timeout = recover_in > 0 ? recover_in : 0;
		/* Armed: the first pass is made and wake-ups are watched. */
		if (!ready) {
			ready = 1;
			if (sdnotify("READY=1", &e))
				fprintf(stderr, "%s: %s\n", tk->prog, e.msg);
		}
		int fds[2 + DELIVER_KICK_FDS] = {tk->sfd, wake_fd};
		int nfds = watch && wake_fd >= 0 ? 2 : 1;
		/* task-deliver wakes it when it writes or ends. */
		int64_t dms = deliver_kick_timeout(tk->dk);
		nfds += deliver_kick_fds(tk->dk, fds + nfds);
		if (dms >= 0 && (timeout < 0 || dms < timeout))
			timeout = dms;
		/* A result the store refused is tried again; the pass's last
		 * flush says whether it was recorded. */
		fire_wait(tk->f, timeout < 0 ? -1 : timeout, fds, nfds, &e);
		char *said;
		if (deliver_kick_poll(tk->dk, &said))
			tick_deliver_said(said);
		int sig = stopsig_take(tk->sfd);
		if (sig)
			begin_stop(tk, sig);
		if (watch && ((wake_fd >= 0 && store_wake_take(tk->st)) || (planned && mono_ms() >= planned)))
			fire_pass_begin(tk->f);
		if (tk->stop_at && !tk->stopped && mono_ms() >= tk->stop_at) {
			fire_stop(tk->f);
			tk->stopped = 1;
		}
		if (watch && !tk->stop_at)
			refresh(tk, &wake_fd);
		/* A pass waiting for a slot that a dead host's run holds would
		 * wait for ever without another pass: it looks too. */
		if (!tk->stop_at && mono_ms() - last_recover >= recover_every) {
			last_recover = mono_ms();
			int n = 0;
			if (fire_recover(tk->f, &n, &e) || n)
				tk->busy = 1;
		}
	}
	if (!flush_by)
		flush_by = mono_ms() + FLUSH_MS;
	if (fire_unrecorded(tk->f) && fire_flush(tk->f, flush_by, &e)) {
		fprintf(stderr, "%s: giving up recording %zu finished run%s (%s); they will be recovered as"
		    " interrupted\n", tk->prog, fire_unrecorded(tk->f), fire_unrecorded(tk->f) == 1 ? "" : "s",
		    e.msg);
		status = 1;
	}
	if (watch)
		fprintf(stderr, "%s: stopped watching store '%s'\n", tk->prog, store_name(tk->st));
	return status;
}
