/* One attempt of a receipt, what it sends and what it leaves
 * (deliver_attempt.h): the policy of task-deliver's attempts, apart from
 * the pass that claims and sends them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "deliver_attempt.h"
#include "deliver_send.h"
#include "store.h"
#include "store_deliver.h"

static const int backoff[] = {30, 120, 600, 1800, 3600};

int64_t
deliver_lease_secs(const struct config *cf)
{
	const char *v = config_get(cf, "deliver_timeout");
	long t = v ? strtol(v, NULL, 10) : 0;
	if (t <= 0 || t > 3600)
		t = DELIVER_TIMEOUT;
	/* Room for a message in several parts, each within the timeout. */
	return 10 * t + 60;
}

int
deliver_part_taken(void *arg, int parts_done, char *why, size_t n)
{
	struct deliver_lease *l = arg;
	struct err e;
	int64_t now;
	int ours = 0;
	int rc = store_now(l->st, &now, &e);
	if (!rc)
		rc = store_receipt_progress(l->st, l->id, l->owner, parts_done,
		    now + deliver_lease_secs(l->cf), &ours, &e);
	if (rc)
		snprintf(why, n, "after part %d: %s", parts_done, e.msg);
	else if (!ours)
		snprintf(why, n, "its lease ran out after part %d; another pass sends the rest", parts_done);
	return rc || !ours;
}

char *
deliver_text_of(const struct run *run, const char *diff)
{
	if (run->status == RUN_SUCCESS && diff) {
		const char *out = run->output ? run->output : "";
		size_t n = strlen(out);
		return xasprintf("%s%s\nChanged since the answer before:\n%s", out,
		    n && out[n - 1] != '\n' ? "\n" : "", diff);
	}
	if (run->status == RUN_SUCCESS)
		return xstrdup(run->output ? run->output : "");
	/* A failure without output is its error alone, no blank lines after. */
	return xasprintf("%s%s%s", run->error ? run->error : "", run->error && run->output &&
	    *run->output ? "\n\n" : "", run->output ? run->output : "");
}

void
deliver_settle(struct receipt *r, const struct deliver_outcome *o, int64_t now)
{
	r->last_at = now;
	r->parts_done = o->parts_done;
	set_str(&r->answer, o->delivered ? o->answer : NULL);
	set_str(&r->error, o->delivered ? NULL : o->error);
	if (o->delivered) {
		r->status = RECEIPT_DELIVERED;
		r->next_at = TIME_NONE;
	} else if (o->permanent) {
		r->status = RECEIPT_FAILED;
		r->next_at = TIME_NONE;
	} else {
		int n = (int)(sizeof backoff / sizeof backoff[0]);
		int64_t usual = backoff[r->attempts - 1 < n ? r->attempts - 1 : n - 1], wait = usual;
		if (o->retry_after >= 0)
			wait = o->retry_after > 0 ? o->retry_after : 1;
		r->next_at = now + wait;
		r->status = RECEIPT_PENDING;
		if (r->next_at > r->created_at + DELIVER_GIVE_UP) {
			r->status = RECEIPT_FAILED;
			r->next_at = TIME_NONE;
			char why[ERR_MAX];
			const char *s = r->attempts == 1 ? "" : "s";
			/* A wait the receiver asked for, not the backoff, may be what
			 * ends it: then that is why. */
			if (o->retry_after >= 0 && now + usual <= r->created_at + DELIVER_GIVE_UP)
				snprintf(why, sizeof why, "gave up after %d attempt%s: the receiver asked to wait"
				    " %lld s (Retry-After), past the 24 hours a delivery is tried for: %.300s",
				    r->attempts, s, (long long)o->retry_after, o->error);
			else
				snprintf(why, sizeof why, "gave up after %d attempt%s in 24 hours: %.400s",
				    r->attempts, s, o->error);
			set_str(&r->error, why);
		}
	}
}
