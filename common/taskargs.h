/* taskargs.h: the task fields as command-line options, shared by task-add
 * and task-edit so both accept and validate exactly the same flags. */
#ifndef AC_TASKARGS_H
#define AC_TASKARGS_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "task.h"
#include "task_fields.h"
#include "util.h"

struct task_args {
	const char *name, *prompt, *system_prompt, *tz, *context, *model, *exec, *notify;
	const char *intent, *channel, *payload, *key, *jitter;
	const char *cron, *at, *daily, *weekly;   /* one more of each (the tools') */
	const char **crons;          /* --cron, repeatable: the union (cron.h) */
	size_t ncrons;
	const char **dailies;        /* --daily, repeatable, in that union */
	size_t ndailies;
	char **weeklies;             /* --weekly, repeatable: "DAY TIME", owned */
	size_t nweeklies;
	const char *every, *from;    /* --every DURATION [--from TIME] */
	const char *not_before;      /* "" or "none" removes it */
	const char *until, *count;   /* a recurrence's end; "none" and "0" remove it */
	const char *in[TASK_INPUTS_MAX]; /* the values of task_inputs (task_fields.h), by row */
	char in_number[TASK_INPUTS_MAX][24]; /* an MCP integer argument's text, for in[] */
	const char **plan, **attach;
	size_t nplan, nattach;
	const char **words[WORD_LISTS]; /* the word lists' flags (task_fields.h), repeatable */
	size_t nwords[WORD_LISTS];
	const char **deliver;        /* --deliver, repeatable; "none" removes them all */
	size_t ndeliver;
	const char *gate;            /* --gate COMMAND; "" removes it */
	const char **after;          /* --after TASK[:ON], repeatable; "none" removes them all */
	size_t nafter;
	int manual, heartbeat;
	int enabled;            /* -1 unchanged */
	const char *kinds[8];   /* the schedule options given, for the error (--cron, --daily
	                           and --weekly, which combine, once) */
	int nkinds;
	unsigned when_flags;    /* how --at, --plan and --until are read: WHEN_DMY (when.h), or 0 */
	int creating;           /* for a new task: --count 0 is refused, not "no end" */
	int cron_given;         /* one of --cron, --daily, --weekly was given */
};

/* taskargs.c */
void taskargs_init(struct task_args *a);
void taskargs_free(struct task_args *a);
/* The long options of the task fields followed by extra (ending with a
 * zeroed entry), and in shortopts the optstring for getopt_long: ':' (so
 * missing values come back as ':'), the fields' letters, extra_short.
 * Free the result. */
struct option *taskargs_options(const struct option *extra, const char *extra_short,
    char *shortopts, size_t n);
/* The same for a subset: TASKARGS_ALL, or TASKARGS_SCHEDULE, the options
 * that say when a task fires (--cron, --at, --plan, --daily, --weekly,
 * --every, --not-before; task-when has its own --from), for
 * task-when to preview exactly what task-add would add. */
enum { TASKARGS_ALL, TASKARGS_SCHEDULE };
struct option *taskargs_options_of(int which, const struct option *extra,
    const char *extra_short, char *shortopts, size_t n);
/* Take one option getopt_long returned; 1 if it was a task field, 0 if not
 * ours.  argv/optind let --weekly take "mon" "09:00" as two words. */
int taskargs_take(struct task_args *a, int opt, const char *arg, char **argv, int argc, int *optind);
/* Apply the given fields to t (an existing task, or a fresh task_init one).
 * *schedule_changed tells whether next_run_at must be recomputed from now:
 * a new schedule, zone, jitter, --until or --count, or a disabled task
 * enabled again; a new schedule, zone, --until or --count also re-arms the
 * end (ends_at is cleared, task_finalize counts it from now).  Every
 * value must be UTF-8 text, and a command line (--exec, --notify) one that
 * exec_split can split. */
int taskargs_apply(const struct task_args *a, struct task *t, int64_t now, struct zones *zs,
    int *schedule_changed, struct err *e);
/* The values that mean the same whatever the task (texts, commands,
 * numbers, lists, the zone), checked as taskargs_apply checks them: for
 * task-edit, before the store is opened and the task looked for. */
int taskargs_check(const struct task_args *a, struct zones *zs, struct err *e);
int parse_duration(const char *s, long *secs);  /* "90", "90s", "5m", "2h", "1d" */
/* parse_duration for a value typed now (an option, a tool's argument):
 * digits first, not strtol's blanks and '+', which the config file's
 * deadline goes on taking. */
int parse_duration_typed(const char *s, long *secs);
/* The --help lines of the settings described by tables (task_fields.h:
 * task_inputs, then word_lists), each option and what it does, aligned
 * and wrapped under 80 columns; or (flags_only) their options alone, as
 * one wrapped list, for task-edit. */
void taskargs_help(struct buf *b, int flags_only);

#endif
