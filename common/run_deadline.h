/* run_deadline.h: when the run an executor runs in will be ended. */
#ifndef AC_RUN_DEADLINE_H
#define AC_RUN_DEADLINE_H

#include <stdint.h>

/* In a run of task-tick (TASK_TIMEOUT set): 1, with *seconds the time a
 * program of the run may take, its timeout less a margin (a twentieth,
 * at least 1 s, at most 30 s) to say why and be recorded, and *left_ms
 * what is left of it now, counted from the run's start (TASK_DEADLINE),
 * or -1 when task-tick did not say when that was.  0 outside a run. */
int run_deadline(double *seconds, int64_t *left_ms);

#endif
