/* status_facts.h: what task-status says of the scheduler, gathered and
 * judged once for all who show it (task-status's four printers, task-web's
 * overview): each host's last pass, whether firing is paused, the tasks
 * due, overdue, failing, blocked, paused and over budget (the first
 * STATUS_SHOWN_MAX of each, all counted), the runs of 24 hours by status,
 * today's tokens and spend, the deliveries of 24 hours, the store's size;
 * and the verdict (OK, WARNING, CRITICAL) with its one-line summary. */
#ifndef AC_STATUS_FACTS_H
#define AC_STATUS_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "store_deliver.h"
#include "store_history.h"

#define STATUS_SHOWN_MAX 100          /* overdue or failing tasks listed, at most */
#define STATUS_SILENCE_DEFAULT 180

/* Also the exit statuses of a monitoring plugin. */
enum { VERDICT_OK, VERDICT_WARNING, VERDICT_CRITICAL, VERDICT_UNKNOWN };
extern const char *const status_verdicts[];   /* "OK" ... "UNKNOWN" */

struct status_item {
	char id[37];
	char *name, *error;
	int64_t due;
	int failures;
	char last[16];
};

struct status_count {
	char name[24];
	long long n;
};

struct status {
	struct store *st;
	int64_t now, max_silence;
	char *paused;
	struct pass *passes;
	size_t npasses;
	long tasks, enabled, due, by_status[STATUS_COUNT];
	struct status_item overdue[STATUS_SHOWN_MAX], failing[STATUS_SHOWN_MAX], paused_by[STATUS_SHOWN_MAX], over[STATUS_SHOWN_MAX];
	struct status_item blocked[STATUS_SHOWN_MAX]; /* last run blocked: waiting for a person */
	long noverdue, nfailing, npaused, nover, nblocked;
	char global_over[256];     /* why all tasks are over the global budget, or "" */
	double dollars_today;
	struct status_count runs[16];
	size_t nruns;
	long gate_skips;           /* of the skipped runs of 24 h, those their gate skipped */
	long long tok_in, tok_out;
	int64_t bytes, free_bytes;
	long long receipts[RECEIPT_STATUS_COUNT]; /* deliveries of 24 h by status (task-deliver(1)) */
	int verdict;
	char summary[1024];
};

/* Fill s (s->st and s->max_silence set, the rest zero) and judge it. */
int status_gather(struct status *s, struct err *e);
/* --check --task: the task is late when the first occurrence after its
 * last success (or its creation) is more than grace past, grace being
 * by default the gap to the occurrence after that one (its period);
 * failing while not yet late is a warning.  s->now set; *limit the
 * seconds allowed from the base, *age since the last success (-1: none). */
int status_judge_task(struct status *s, const char *which, int64_t grace, int64_t *limit,
    int64_t *age, struct err *e);
void status_free(struct status *s);
/* When the latest pass was, or TIME_NONE. */
int64_t status_last_pass(const struct status *s);
/* "35 s", "4 min", "2 h 5 min", "3 days". */
void status_ago_fmt(int64_t secs, char *buf, size_t n);

#endif
