/* notify.h: who hears of what.  A task's notify policy (--notify-on) is a
 * list of the events its hook is told of; the events of a finished run are
 * decided here, from the run and the task before it, and the hook reads
 * which one it is.  Budget skips and auto-pauses are always told. */
#ifndef AC_NOTIFY_H
#define AC_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "notify_on.h"
#include "util.h"

struct run;
struct store;
struct task;

/* notify.c */
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
