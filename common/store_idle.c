/* The note an idle pass from cron leaves for the next ones (store.h,
 * idle_hint.h): looked at in one unit on a file, from the pass's own
 * snapshot on a server, written by the backend. */
#include "store_backend.h"

/* Nothing paused, queued or due at now (a note may say so). */
static int
idle_fits(const struct claim_look *look, int64_t now)
{
	return !look->paused && !look->queued && (look->next == TIME_NONE || look->next > now);
}

int
store_idle_mark(struct store *st, const char *cfg, int64_t now, int64_t written, int *marked,
    struct err *e)
{
	struct claim_look look;
	*marked = 0;
	if (!st->ops->idle_mark || st->standin)
		return ST_OK;
	if (st->ops->idle_look) {
		if (st->ops->idle_look(st, &look) && idle_fits(&look, now))
			return st->ops->idle_mark(st, cfg, look.next, written, marked, e);
		return ST_OK;
	}
	int rc = store_begin(st, e);
	if (rc)
		return rc;
	rc = store_claim_look(st, &look, e);
	if (!rc && idle_fits(&look, now))
		rc = st->ops->idle_mark(st, cfg, look.next, written, marked, e);
	/* Not a commit: SQLite calls the commit hook, which retires the note,
	 * for any unit that took the write lock, written or not. */
	store_rollback(st);
	return rc;
}

int
store_idle_passes(struct store *st, struct pass *p, int64_t *written)
{
	int n = 0;
	for (int which = 0; which < 2 && st->ops->idle_pass && !st->standin; which++)
		n += st->ops->idle_pass(st, which, &p[n], &written[n]);
	return n;
}
