/* status_budget.h: which tasks are over budget, as task-status says it
 * and task-web shows it: each task over its own budget (the reason on
 * record, "budget: $2.03 of $2.00 this day"), and all of them when the
 * global budget (config `budget`) is spent. */
#ifndef AC_STATUS_BUDGET_H
#define AC_STATUS_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct store;
struct task;
struct zones;

typedef void (*status_over_fn)(const struct task *t, const char *why, void *arg);
/* fn for each task over its own budget; global_over (n bytes) why every
 * task is held by the global one, or "". */
int status_budgets(struct store *st, int64_t now, status_over_fn fn, void *arg, char *global_over,
    size_t n, struct err *e);
/* t's budget and what its window spent, "$2/day, $0.41 spent this day" ("" when
 * it has none), and *over with why when it or the global budget holds it. */
int status_task_budget(struct store *st, const struct task *t, struct zones *zs, int64_t now,
    char *text, size_t ntext, int *over, char *why, size_t nwhy, struct err *e);

#endif
