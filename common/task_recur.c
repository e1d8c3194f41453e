/* Settings of recurring tasks given to a one-shot (task_recur.h).  A
 * one-shot runs once: its failed run is retried (--retries) and the task
 * ends failed, so nothing is left to pause and --pause-after on it would
 * be shown and never used.  Manual tasks and followers, which run again
 * and again, keep the value as task-add(1) says. */
#include <string.h>

#include "task_recur.h"

int
task_recur_check(const struct task_args *a, const struct task *t, struct err *e)
{
	size_t i;
	for (i = 0; i < ntask_inputs; i++)
		if (strcmp(task_inputs[i].json, "pause_after") == 0)
			break;
	if (i == ntask_inputs || !a->in[i] || t->kind != KIND_AT)
		return ST_OK;
	return err_set(e, ST_INVALID, "--pause-after pauses a recurring task, and this one runs once "
	    "(--at): its failed run is retried as --retries says, then it ends failed");
}
