/* audit.h: the audit trail of changes to tasks.  Every change a person,
 * an agent or a task-web token makes to a task (create, edit, enable,
 * pause, delete, grants of authority) is an entry, written in the same
 * unit of work as the change, that holds who made it, the fields before
 * and after (JSON), and the SHA-256 of the entry before it: an entry
 * changed or removed breaks the chain, and store_audit_verify finds where.
 * The hash of an entry is over its canonical form: "agentcron-audit-1\n",
 * then each of seq, at, actor, action, task, before, after and prev as
 * "LENGTH:BYTES\n" ("-\n" for none), so no two entries share one. */
#ifndef AC_AUDIT_H
#define AC_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct task;
struct zones;

struct audit_entry {
	int64_t seq;           /* 1, 2, ... in the order written */
	int64_t at;
	char *actor;           /* JSON object: who */
	char action[24];       /* create, edit, enable, pause, cancel, grant, delete, restore, purge,
	                          run, rerun, token */
	char task_id[37];      /* "" when not about one task */
	char *before, *after;  /* JSON objects of the fields that changed, or NULL */
	char prev[65];         /* the hash of the entry before (64 zeros for the first) */
	char hash[65];         /* this entry's */
};
void audit_entry_free(struct audit_entry *a);

#define AUDIT_ZERO "0000000000000000000000000000000000000000000000000000000000000000"

/* audit.c */
/* a's hash (hex) over its canonical form, prev included; -1 if libcrypto failed. */
int audit_hash(const struct audit_entry *a, char out[65]);
/* Who, as JSON (malloc'd): the user (uid and host), or an agent (its
 * origin, run, the run's task and scope) acting for that user, or a
 * task-web token, or the scheduler's own rules (a pause after failures)
 * as that user. */
char *audit_actor_user(void);
char *audit_actor_agent(const char *origin, const char *run_id, const char *run_task,
    const char *scope);
char *audit_actor_token(const char *name);
char *audit_actor_scheduler(void);
/* The actor for people: "uid 1000 on HOST", "agent run ID (scope S)", "token NAME",
 * "task-tick (uid 1000 on HOST)". */
void audit_actor_describe(const char *actor, char *buf, size_t n);
/* The fields that differ between a and b (either may be NULL: created,
 * deleted) as two JSON objects (malloc'd; NULL for a NULL side), schedules
 * described in the zones of zs, and the action they amount to; *same when
 * nothing but bookkeeping changed. */
int audit_task_diff(const struct task *a, const struct task *b, struct zones *zs, char **before,
    char **after, const char **action, int *same);

#endif
