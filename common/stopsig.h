/* stopsig.h: the signals that ask a program to stop (SIGINT, SIGTERM,
 * SIGHUP), taken in its own loop through a signalfd rather than in a
 * handler, so a stop is noticed between steps, never inside one. */
#ifndef AC_STOPSIG_H
#define AC_STOPSIG_H

#include "util.h"

/* Block the stop signals and open *sfd (non-blocking) to read them. */
int stopsig_catch(int *sfd, struct err *e);
/* The last stop signal read from sfd, 0 if none came. */
int stopsig_take(int sfd);

#endif
