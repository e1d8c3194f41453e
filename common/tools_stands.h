/* tools_stands.h: what a person decided about a task, which an agent's
 * tool call may not undo (tools_stands.c).  Who decided is the audit
 * trail's: an entry whose actor is neither an agent nor the scheduler is
 * a person's (the CLI, task-web and its tokens). */
#ifndef AC_TOOLS_STANDS_H
#define AC_TOOLS_STANDS_H

#include "tools_impl.h"

/* A person's stop: t (the change) may not enable again a task a person
 * disabled last, nor re-arm one they cancelled.  old: the task as stored. */
int stop_stands(struct tools *tl, const struct task *old, const struct task *t, struct err *e);
/* A person's notify policy: t may make it louder, not quieter, when a
 * person set it last or made the task without one. */
int notify_stands(struct tools *tl, const struct task *old, const struct task *t, struct err *e);

#endif
