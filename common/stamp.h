/* stamp.h: warnings said once per host per day, not at every pass (under
 * cron, a mail a minute).  A stamp file per warning and host, under
 * $XDG_STATE_HOME/agentcron (~/.local/state/agentcron), holds the UTC day
 * it was last said. */
#ifndef AC_STAMP_H
#define AC_STAMP_H

#include <stddef.h>
#include <stdint.h>

/* stamp.c */
int stamp_today(const char *name, int64_t now);  /* 1 if name was said on now's day here */
/* Record that name was said on now's day; quietly nothing if the stamp
 * cannot be written (the warning then comes again, never goes unsaid). */
void stamp_set(const char *name, int64_t now);
/* $XDG_STATE_HOME/agentcron/NAME-HOST (~/.local/state when unset; HOST
 * TASK_HOST_ID, else the hostname, "/" made "_"), its directory made 0700
 * when make_dir: 0, or -1 when there is no such place. */
int state_path(const char *name, int make_dir, char *path, size_t n);

#endif
