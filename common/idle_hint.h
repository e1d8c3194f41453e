/* idle_hint.h: the note an idle pass leaves beside a SQLite store,
 * "PATH-idle", so that the next passes from cron need not open the store
 * while nothing can be due.  One line: a format, the agentcron version,
 * the host, D (the earliest instant the store may need a pass; "-": none),
 * W (when it was written), and the store's identity as the pass saw it:
 * the file's, its "-wal" log's and the config file's device, inode, size
 * and modification time (-1 each when absent), and the salts of the log's
 * header.  A pass takes it while
 * W <= now < min(D, W + IDLE_HINT_CAP_S) and nothing of that identity
 * changed, and touches it (its time is that pass's).  Every commit
 * through agentcron retires it first (renamed "PATH-idle-last", whose
 * time stays the last pass's for task-status): the write lock is held
 * then, and it is held while a hint is written. */
#ifndef AC_IDLE_HINT_H
#define AC_IDLE_HINT_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define IDLE_HINT_CAP_S 3600   /* a hint stands for an hour at most (pruning by age) */

/* idle_hint.c */
/* PATH-idle and PATH-idle-last for the store at db. */
void idle_hint_paths(const char *db, char **hint, char **last);
/* Write the hint for db (under the store's write lock): nothing due before
 * due (TIME_NONE: nothing at all), written at now, the time the pass
 * recorded in the store (the store's clock); cfg the config file the pass
 * read.  ST_OK with nothing written when the host's name
 * cannot be written on one line. */
int idle_hint_write(const char *db, const char *cfg, int64_t due, int64_t now, struct err *e);
/* 1 when the hint of db holds at now for this host and version and nothing
 * changed: it is touched with now; else 0 (a full pass is due). */
int idle_hint_take(const char *db, const char *cfg, int64_t now);
/* The pass that db's note (which 0) or the one a commit retired (which 1)
 * records: 1 with host (n bytes), version (vn), *at (its time) and
 * *written set, 0 when there is none. */
int idle_hint_seen(const char *db, int which, char *host, size_t n, char *version, size_t vn,
    int64_t *at, int64_t *written);

#endif
