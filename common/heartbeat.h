/* heartbeat.h: Kai's heartbeat.  One cron task marked with
 * HEARTBEAT_INTENT (task-tick --heartbeat CRON) runs a base prompt followed
 * by "## Heartbeat Additions" and the prompt of every pending, enabled
 * heartbeat-kind task (task-add --heartbeat): standing instructions checked
 * at each beat. */
#ifndef AC_HEARTBEAT_H
#define AC_HEARTBEAT_H

#include <stdint.h>

#include "store.h"
#include "util.h"

#define HEARTBEAT_INTENT "agentcron.heartbeat" /* marks the heartbeat task */
#define HEARTBEAT_PROMPT "Heartbeat check-in. Act on the standing instructions below that" \
	" need attention now, and answer briefly with what you did, or 'nothing to do'."

/* heartbeat.c */
int heartbeat_is(const struct task *t);         /* the heartbeat task itself */
/* The prompt a heartbeat run gets: base, then "## Heartbeat Additions"
 * and each pending enabled heartbeat task's prompt.  Malloc'd. */
int heartbeat_prompt(struct store *st, const char *base, char **out, struct err *e);
/* The command line's values before any store is opened: cron "off" or a
 * schedule that parses, a prompt that is UTF-8 text with known variables
 * (prompt NULL: none given).  ST_INVALID otherwise. */
int heartbeat_check(const char *cron, const char *prompt, struct err *e);
/* Create or change the heartbeat task: cron "off" disables it; prompt
 * NULL keeps the current one (or the default for a new one).  *created
 * tells which. */
int heartbeat_set(struct store *st, const char *cron, const char *prompt, int64_t now,
    struct task *out, int *created, struct err *e);

#endif
