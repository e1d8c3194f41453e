/* notify_on.h: a task's notify policy (--notify-on), a value with its
 * parser (notify_on.c): the events a hook is told of, as a mask of
 * (1 << EV_*).  Below the task model; notify.h decides the events. */
#ifndef AC_NOTIFY_ON_H
#define AC_NOTIFY_ON_H

#include <stddef.h>

#include "util.h"

enum notify_event {
	EV_FAILURE,            /* a run failed, timed out or was interrupted */
	EV_RECOVERY,           /* the first success after failures */
	EV_CHANGE,             /* a success whose output differs from the last success's */
	EV_SUCCESS,
	EV_BUDGET,             /* an occurrence skipped: over budget */
	EV_PAUSED,             /* the task was paused after failures */
	EV_FALLBACK,           /* a run's model was gone and a fallback answered */
	EV_COUNT
};
#define NOTIFY_DEFAULT "failure,recovery"
#define NOTIFY_ALWAYS ((1u << EV_FAILURE) | (1u << EV_RECOVERY) | (1u << EV_CHANGE) | \
	(1u << EV_SUCCESS))

const char *notify_event_name(int ev);      /* "failure", ... */
/* A comma-separated list of failure, recovery, change, success, always,
 * never into a mask of (1 << EV_*); ST_INVALID naming the bad word. */
int notify_on_parse(const char *list, unsigned *mask, struct err *e);
void notify_on_fmt(unsigned mask, char *buf, size_t n); /* "failure,change", "always", "never" */

#endif
