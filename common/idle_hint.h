/* idle_hint.h: the note an idle pass leaves beside a SQLite store,
 * "PATH-idle", so that the next passes from cron need not open the store
 * while nothing can be due.  One line: a format, the agentcron version,
 * the host, D (the earliest instant the store may need a pass; "-": none),
 * W (when it was written), and the store's identity as the pass saw it:
 * the file's, its "-wal" log's and the config file's device, inode, size
 * and modification time (-1 each when absent), and the salts of the log's
 * header.  A pass takes it while
 * W <= now < min(D, W + IDLE_HINT_CAP_S) and nothing of that identity
 * changed, on the same UTC day (what a pass says once a day it says at
 * the day's first pass), and touches it (its time is that pass's).
 * Every commit through agentcron retires it first (renamed "PATH-idle-last", whose
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
/* 1 when a note written at written, nothing due before due, holds at now:
 * within the hour, before due, on the same UTC day. */
int idle_hint_holds(int64_t due, int64_t written, int64_t now);

/* A store on a server (PostgreSQL) has its writers on any host: no local
 * file hears of them.  Its note is kept in the state directory (stamp.h),
 * "idle-HASH-HOST" (HASH of the store's URI), in the same form with the
 * magic "agentcron-idle-server" and, after the config file's five numbers,
 * the server as the pass saw it: its start (a crash may give a lost
 * transaction's id again) and the next transaction id, which every write
 * there, by anyone, takes; then how many passes in a row found the id
 * taken, and when a pass is to try again after IDLE_MISS_MAX of them
 * (0: at once), so that where the id is always taken (hosts sharing the
 * server see each other's records) passes do not ask in vain. */
struct idle_server {
	long long started;    /* the postmaster's start, microseconds */
	long long next_xid;   /* the next transaction id, with its epoch */
	long long misses;
	long long retry_at;   /* seconds, the store's clock */
};
#define IDLE_MISS_MAX 3
#define IDLE_MISS_WAIT_S 600
/* Write uri's note (its time at, the pass's): ST_OK with nothing written
 * when there is no state directory or the host's name cannot be written. */
int idle_hint_server_write(const char *uri, const char *cfg, int64_t due, int64_t written, int64_t at,
    const struct idle_server *srv, struct err *e);
/* 1 with *due, *written and *srv when uri's note was written on this host
 * by this version with the config file as it is; else 0. */
int idle_hint_server_read(const char *uri, const char *cfg, int64_t *due, int64_t *written,
    struct idle_server *srv);

#endif
