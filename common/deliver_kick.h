/* deliver_kick.h: how task-tick hands delivery to task-deliver, which
 * links libcurl where task-tick does not: after a pass that ended runs,
 * when a task or the config has targets, when a run ended that no pass
 * looked at (task-run in the foreground), or whenever a receipt is due,
 * task-deliver is started without a shell and supervised beside the
 * runs, never two at once and bounded in time, so a slow receiver never
 * holds up firing: a watcher polls the descriptors deliver_kick_fds gives
 * with its own and calls deliver_kick_poll when they wake it. */
#ifndef AC_DELIVER_KICK_H
#define AC_DELIVER_KICK_H

#include <stdint.h>

#include "util.h"

struct store;
struct config;
struct deliver_kick;

#define DELIVER_KICK_MS 300000    /* a pass of task-deliver at most */
#define DELIVER_KICK_FDS 3        /* descriptors deliver_kick_fds gives at most */

/* deliver_kick.c */
/* dir: where task-deliver is looked for after PATH (task-tick's own). */
struct deliver_kick *deliver_kick_new(const char *dir);
void deliver_kick_free(struct deliver_kick *k);  /* SIGKILLs and reaps one still running */
int deliver_kick_running(const struct deliver_kick *k);
/* Start task-deliver when there is work (ended: runs this program ended
 * since the last start; store_deliver_work says of the rest) and none
 * runs: *started says whether it was. */
int deliver_kick_start(struct deliver_kick *k, struct store *st, const struct config *cf,
    int ended, int64_t now, int *started, struct err *e);
/* The descriptors that wake a poll when the running one writes or ends
 * (none when none runs); how many, at most DELIVER_KICK_FDS. */
int deliver_kick_fds(const struct deliver_kick *k, int *fds);
/* How long a caller may sleep before it must call deliver_kick_poll
 * (a kernel without pidfd, or the bound coming): ms, or -1 for as long as
 * it likes. */
int64_t deliver_kick_timeout(const struct deliver_kick *k);
/* Read what it wrote, reap it once it ended, end it past its bound,
 * without blocking.  Returns 1 when it has ended, with its standard error
 * (and how it ended, when not well) in *said (malloc'd, or NULL) for the
 * caller to pass on; 0 while it runs or when none does. */
int deliver_kick_poll(struct deliver_kick *k, char **said);
/* Wait for it to end until deadline_ms (mono_ms; 0: its own bound), then
 * end it (SIGTERM, SIGKILL after a grace); *said as deliver_kick_poll. */
void deliver_kick_wait(struct deliver_kick *k, int64_t deadline_ms, char **said);

#endif
