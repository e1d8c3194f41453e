/* backfill.c: task-run --backfill FROM..TO (backfill.h): the past
 * occurrences of a recurring task in a range, each run unless it ran. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backfill.h"
#include "fire.h"
#include "store.h"
#include "task.h"
#include "tz.h"
#include "when.h"

#define BACKFILL_MAX 100 /* occurrences in one --backfill range, at most */
#define BACKFILL_WAIT_MS 200 /* between looks at a task another run holds */

/* --backfill's range in t's zone: both ends in the past, in order. */
static int
backfill_range(struct backfill *b, const struct task *t, int64_t *from, int64_t *to, struct err *e)
{
	const char *dots = strstr(b->range, "..");
	const struct tz *z;
	struct err sub;
	int rc = zones_get(b->zs, t->tz, &z, e);
	if (rc)
		return rc;
	if (!dots || dots == b->range || !dots[2])
		return err_set(e, ST_INVALID, "bad --backfill '%s': expected FROM..TO, e.g."
		    " 2026-11-20T00:00Z..2026-11-21T00:00Z", b->range);
	char *a = xstrndup(b->range, (size_t)(dots - b->range));
	rc = when_read(a, b->now, z, b->when_flags | WHEN_PAST_OK, from, &sub);
	if (!rc)
		rc = when_read(dots + 2, b->now, z, b->when_flags | WHEN_PAST_OK, to, &sub);
	free(a);
	if (rc)
		return err_set(e, ST_INVALID, "bad --backfill '%s': %s", b->range, sub.msg);
	if (*to > b->now)
		return err_set(e, ST_INVALID, "--backfill '%s' ends in the future: only past occurrences"
		    " are backfilled", b->range);
	if (*from > *to)
		return err_set(e, ST_INVALID, "--backfill '%s' ends before it starts", b->range);
	if (!task_repeats(t))
		return err_set(e, ST_INVALID, "task '%s' (%.8s) has no recurring schedule to backfill",
		    t->name, t->id);
	return ST_OK;
}

/* The occurrences in [from, to], at most BACKFILL_MAX; those before the
 * task was made only with --before-created (a task made today has no
 * debt from last week), saying how many were left out. */
static int
backfill_slots(struct backfill *b, const struct task *t, int64_t from, int64_t to, int64_t *slots,
    int *n, struct err *e)
{
	int64_t s = from - 1;
	long before = 0;
	*n = 0;
	if (!b->before_created && t->created_at != TIME_NONE && from < t->created_at) {
		for (int64_t at = from - 1;;) {
			int rc = task_next_slot(t, b->zs, at, &at, e);
			if (rc)
				return rc;
			if (at == TIME_NONE || at > to || at >= t->created_at)
				break;
			before++;
		}
		if (before) {
			char made[40];
			time_fmt_utc(t->created_at, made, sizeof made);
			fprintf(stderr, "%s: %ld occurrence%s of '%.60s' before it was made (%s) left out;"
			    " --before-created runs %s too\n", b->prog, before, before == 1 ? "" : "s",
			    t->name, made, before == 1 ? "it" : "them");
		}
		s = t->created_at - 1;
		if (s < from - 1)
			s = from - 1;
	}
	for (;;) {
		int rc = task_next_slot(t, b->zs, s, &s, e);
		if (rc)
			return rc;
		if (s == TIME_NONE || s > to)
			return ST_OK;
		if (*n == BACKFILL_MAX)
			return err_set(e, ST_INVALID, "--backfill '%s' holds more than %d occurrences of"
			    " task '%.8s'; backfill a shorter range at a time", b->range, BACKFILL_MAX,
			    t->id);
		slots[(*n)++] = s;
	}
}

/* After a store error: was it the store going away (a server restarting,
 * a failover), for which a backfill waits until until, as task-tick
 * does?  An error of a store that answers is not waited for. */
static int
store_gone(struct backfill *b, int64_t until)
{
	char what[512];
	struct err e;
	if (mono_ms() >= until)
		return 0;
	return store_refresh(b->st, what, sizeof what, &e) != ST_OK || what[0];
}

/* One occurrence: run it unless it ran, waiting while the task runs and
 * while its store is away. */
static int
backfill_one(struct backfill *b, const char *id, int64_t slot, struct err *e)
{
	char run_id[37], when[40];
	int ran = 0, rc;
	time_fmt_utc(slot, when, sizeof when);
	if (b->dry_run) {
		if ((rc = fire_slot_ran(b->f, id, slot, &ran, e)) || ran)
			return rc;
		if (b->json)
			printf("{\"task_id\":\"%s\",\"slot\":\"%s\"}\n", id, when);
		else
			printf("%s\n", when);
		return ST_OK;
	}
	/* Each occurrence is held to the budget the runs before it spent. */
	if (b->budget_ok && ((rc = fire_slot_ran(b->f, id, slot, &ran, e)) || ran ||
	    (rc = b->budget_ok(b->arg, id, e))))
		return rc;
	int64_t store_until = mono_ms() + BACKFILL_STORE_WAIT_MS;
	while ((rc = fire_backfill(b->f, id, slot, run_id, &ran, e)) == ST_REFUSED ||
	    (rc == ST_ERR && store_gone(b, store_until))) {
		if (b->stopped(b->arg))
			return ST_ERR;
		poll(NULL, 0, BACKFILL_WAIT_MS);
	}
	if (rc || ran)
		return rc;
	return b->wait(b->arg, run_id, e);
}

int
backfill_task(struct backfill *b, const char *id, struct err *e)
{
	struct task t;
	int64_t from, to, slots[BACKFILL_MAX];
	int n = 0, rc = store_task_get(b->st, id, &t, e), worst = ST_OK;
	if (rc)
		return rc;
	if (!(rc = backfill_range(b, &t, &from, &to, e)))
		rc = backfill_slots(b, &t, from, to, slots, &n, e);
	task_free(&t);
	for (int i = 0; !rc && i < n && !b->stopped(b->arg); i++) {
		int one = backfill_one(b, id, slots[i], e);
		/* A failed run said so; an error of the store ends it. */
		if (one && one != ST_ERR)
			rc = one;
		else if (one > worst)
			worst = one;
	}
	return rc ? rc : b->stopped(b->arg) ? ST_ERR : worst;
}
