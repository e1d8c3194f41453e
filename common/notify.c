/* The events of finished runs (notify.h); the policies' words are
 * notify_on.c's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify.h"
#include "store.h"
#include "task.h"

int
notify_run_event(const struct task *t, const struct run *r, unsigned mask, char hash[17])
{
	hash[0] = 0;
	unsigned happened = 0;
	/* A replay is no occurrence: nothing to hear of, no answer to compare. */
	if (r->trigger == TRIGGER_REPLAY)
		return -1;
	if (r->status == RUN_SUCCESS) {
		snprintf(hash, 17, "%016llx", (unsigned long long)str_hash(r->output ? r->output : ""));
		happened |= 1u << EV_SUCCESS;
		/* A first success is news too: nothing was heard before it. */
		if (!t->output_hash || strcmp(t->output_hash, hash) != 0)
			happened |= 1u << EV_CHANGE;
		const char *last = t->last_status;
		if (t->consecutive_failures > 0 || (last && (strcmp(last, "failed") == 0 ||
		    strcmp(last, "timeout") == 0 || strcmp(last, "interrupted") == 0 ||
		    strcmp(last, "blocked") == 0)))
			happened |= 1u << EV_RECOVERY;
	} else if (r->status == RUN_FAILED || r->status == RUN_TIMEOUT ||
	    r->status == RUN_INTERRUPTED || r->status == RUN_BLOCKED) {
		/* Blocked needs a person: told as a failure, its status saying which. */
		happened |= 1u << EV_FAILURE;
	}
	/* The most telling of what happened that the policy asks for. */
	for (int ev = EV_FAILURE; ev <= EV_SUCCESS; ev++)
		if (happened & mask & (1u << ev))
			return ev;
	return -1;
}

struct fallback_scan {
	const char *run_id;
	int64_t day_start;
	long long mine;             /* the id of run_id's call that fell back, or 0 */
	long long first;            /* the oldest such call of the day, of any run */
	char *reason;
	size_t n;
};

static int
fallback_call(const struct llm_call *c, void *arg)
{
	struct fallback_scan *x = arg;
	if (c->created_at < x->day_start)
		return 1;
	if (!c->fallback_from)
		return 0;
	x->first = c->id;
	if (!x->mine && c->run_id && strcmp(c->run_id, x->run_id) == 0) {
		x->mine = c->id;
		snprintf(x->reason, x->n, "the model '%.100s' does not exist or was retired; '%.100s'"
		    " answered instead", c->fallback_from, c->model ? c->model : "?");
	}
	return 0;
}

int
notify_fallback_first(struct store *st, const char *task_id, const char *run_id,
    int64_t day_start, char *reason, size_t n)
{
	struct fallback_scan x = {run_id, day_start, 0, 0, reason, n};
	struct err e;
	/* Newest first: a day of a task's calls, within reason. */
	if (store_call_list(st, NULL, task_id, 5000, fallback_call, &x, &e) || !x.mine)
		return 0;
	return x.first == x.mine;
}
