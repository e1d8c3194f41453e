/* web_trail.h: budgets as task-status says them, and a task's audit trail, as HTML. */
#ifndef AC_WEB_TRAIL_H
#define AC_WEB_TRAIL_H

#include "web_http.h"

struct status;
/* The tasks over budget of task-status's facts (a section, when any) into b. */
void web_over_budget(const struct status *s, struct buf *b);
/* t's budget row of its settings table, when it has one or is held. */
int web_task_budget(struct web *w, const struct task *t, int64_t now, struct buf *b, struct err *e);
/* t's newest changes: when, who (the actor), the action, before and after. */
int web_task_trail(struct web *w, const struct task *t, struct buf *b, struct err *e);

#endif
