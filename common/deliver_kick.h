/* deliver_kick.h: how task-tick hands delivery to task-deliver, which
 * links libcurl where task-tick does not: after a pass that ended runs,
 * when a task or the config has targets, or whenever a receipt is due,
 * task-deliver runs once to its end (bounded), started without a shell. */
#ifndef AC_DELIVER_KICK_H
#define AC_DELIVER_KICK_H

#include <stdint.h>

#include "util.h"

struct store;
struct config;

#define DELIVER_KICK_MS 300000    /* a pass of task-deliver at most */

/* deliver_kick.c */
/* ended: runs ended since the last call.  dir: where task-deliver is
 * looked for after PATH (task-tick's own directory).  *ran says whether
 * it was started; its standard error comes back in *said (malloc'd, or
 * NULL), for the caller to pass on. */
int deliver_kick(struct store *st, const struct config *cf, int ended, int64_t now,
    const char *dir, int *ran, char **said, struct err *e);

#endif
