/* sdnotify.h: telling a service manager how a long-running program is
 * doing, with systemd's notification protocol (sd_notify(3)). */
#ifndef AC_SDNOTIFY_H
#define AC_SDNOTIFY_H

#include "util.h"

/* sdnotify.c */
int sdnotify(const char *state, struct err *e); /* "READY=1" to $NOTIFY_SOCKET; unset: ST_OK */

#endif
