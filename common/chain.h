/* chain.h: tasks that follow other tasks (task-add --after TASK[:ON]):
 * the `after` list of a task, checked and resolved when the task is made
 * or edited (no loops), fired when an upstream run ends (one input per
 * follower, in the unit of work that records the end: store_chain.h),
 * described for people; followers are disabled when their upstream is
 * deleted by the store (store_task_trash).  The list is stored as a JSON array of "ID:ON" strings, ON one
 * of success, failure, any. */
#ifndef AC_CHAIN_H
#define AC_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "chain_link.h"
#include "store.h"
#include "task.h"
#include "util.h"

#define CHAIN_DEPTH_MAX 1000      /* tasks looked at when checking for a loop */

/* chain.c */
/* t->after with every REF resolved to its task's id, each task once (its
 * success and its failure named make any), as "ID:ON"; refused: a task
 * that follows itself, an unknown or ambiguous task, or a loop (named:
 * 'a' -> 'b' -> 'a').  An empty list becomes NULL. */
int chain_resolve(struct store *st, struct task *t, struct err *e);
/* "after 'Fetch news' succeeds or 'Other' fails"; "" when t follows none. */
void chain_describe(struct store *st, const struct task *t, char *buf, size_t n);
/* desc (task_describe's) with t's chain: a manual task's is the chain
 * alone ("after 'Fetch news' succeeds"), else "DESC; after ...". */
void chain_describe_task(struct store *st, const struct task *t, char *desc, size_t n);
/* Run r of task t (as it stands after r's end, held in the caller's unit
 * of work) ended: unless it will be retried, each enabled follower whose
 * link matches gets one input (the run's answer, else its error) and is
 * queued (*queued counts them).  Once per (follower, run): the input's key
 * is r's id. */
int chain_fire(struct store *st, struct zones *zs, const struct task *t, const struct run *r,
    int64_t now, int *queued, struct err *e);
/* The retries of t's occurrence slot ended with no last attempt (given up
 * when the next occurrence came first or over budget, or a retry ended
 * by --overlap replace): its newest failed attempt, held back for them,
 * fires its followers now, as chain_fire; t as it stands after. */
int chain_fire_given_up(struct store *st, struct zones *zs, const struct task *t, int64_t slot,
    int64_t now, int *queued, struct err *e);

#endif
