/* task_recur.h: the settings that mean something only for a task that
 * recurs, checked where a person gives them (task_recur.c). */
#ifndef AC_TASK_RECUR_H
#define AC_TASK_RECUR_H

#include "taskargs.h"

/* --pause-after given (a) for t, the task as it will be stored: ST_INVALID
 * when t is a one-shot (--at), which runs once and has nothing to pause. */
int task_recur_check(const struct task_args *a, const struct task *t, struct err *e);

#endif
