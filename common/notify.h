/* notify.h: who hears of what.  A task's notify policy (--notify-on) is a
 * list of the events its hook is told of; the events of a finished run are
 * decided here, from the run and the task before it, and the hook reads
 * which one it is.  Budget skips and auto-pauses are always told. */
#ifndef AC_NOTIFY_H
#define AC_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct run;
struct store;
struct task;

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

/* notify.c */
const char *notify_event_name(int ev);      /* "failure", ... */
/* A comma-separated list of failure, recovery, change, success, always,
 * never into a mask of (1 << EV_*); ST_INVALID naming the bad word. */
int notify_on_parse(const char *list, unsigned *mask, struct err *e);
void notify_on_fmt(unsigned mask, char *buf, size_t n); /* "failure,change", "always", "never" */
/* The event run r of t is told as under mask (t as it was before r
 * ended), or -1 for none; *hash is the hash of r's output when it is a
 * success (17 bytes), else "" */
int notify_run_event(const struct task *t, const struct run *r, unsigned mask, char hash[17]);
/* Is run_id of task_id the first run since day_start whose model call was
 * made again with a fallback (the provider said the model was gone)?  Then
 * 1, and reason says which model replaced which; else 0 (also when the
 * calls cannot be read: a notice is not worth failing a run's end). */
int notify_fallback_first(struct store *st, const char *task_id, const char *run_id,
    int64_t day_start, char *reason, size_t n);

#endif
