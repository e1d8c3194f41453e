/* deliver_json.h: what task-deliver sends about a run and says about an
 * attempt: the run.ended event a webhook gets, the notify hook's line an
 * exec: target reads, each with the run's tokens and dollars, and the
 * report line of a receipt.  The run before a run tells both whether a
 * run is delivered under deliver_on and which event a hook hears. */
#ifndef AC_DELIVER_JSON_H
#define AC_DELIVER_JSON_H

#include <stdint.h>

#include "store.h"
#include "store_deliver.h"

struct deliver_history {
	struct run prev;          /* the ended run before it (no texts) */
	int has_prev;
	char *prev_success;       /* the output of the success before it */
	int has_success;
};

/* deliver_json.c */
/* What came before run r in its task's latest 200 runs; free with
 * deliver_history_free, whatever it returns. */
int deliver_history_get(struct store *st, const struct run *r, struct deliver_history *h,
    struct err *e);
void deliver_history_free(struct deliver_history *h);
/* What changed in success r's answer since the success before it
 * (run_diff.h), malloc'd; NULL when r is no success, has none before it
 * or answered the same. */
char *deliver_change_diff(struct store *st, const struct run *r);
/* A webhook's body: the run, its whole answer and diff (NULL: null),
 * malloc'd. */
char *deliver_run_json(struct store *st, const struct run *r, const char *task_name, int64_t now,
    const char *diff);
/* An exec: target's input: a notify hook's line, with the whole answer
 * (and a change's whole diff), the delivery's id and the run's spending
 * (malloc'd, newline-ended; NULL when it cannot be made). */
char *deliver_hook_json(struct store *st, const struct run *r, const char *task_name,
    const char *delivery_id);
void deliver_report(const struct receipt *r);  /* the attempt's JSON line on stdout */

#endif
