/* The store's record of passes, its figures and the primitives of pruning
 * (store_history.h): each the backend's, the one place they meet. */
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"

int
store_pass_record(struct store *st, const struct pass *p, struct err *e)
{
	return st->ops->history->pass_put(st, p, e);
}

struct passes {
	struct pass *p;
	size_t n;
};

static int
take_pass(const struct pass *p, void *arg)
{
	struct passes *all = arg;
	all->p = xrealloc(all->p, (all->n + 1) * sizeof *all->p);
	all->p[all->n++] = *p;
	return 0;
}

/* Passes from cron that took an idle pass's note opened no store: the
 * note's time is its host's last pass when it is later (store_idle_passes),
 * if the store holds the pass that wrote it (not a note that outlived its
 * store, a new one made in its place). */
int
store_pass_list(struct store *st, int (*fn)(const struct pass *p, void *arg), void *arg,
    struct err *e)
{
	struct passes all = {0};
	struct pass idle[2];
	int64_t written[2];
	int nidle = store_idle_passes(st, idle, written);
	if (!nidle)
		return st->ops->history->pass_list(st, fn, arg, e);
	int rc = st->ops->history->pass_list(st, take_pass, &all, e);
	for (int k = 0; k < nidle; k++) {
		size_t i = 0;
		while (i < all.n && strcmp(all.p[i].host, idle[k].host) != 0)
			i++;
		if (i == all.n || all.p[i].at != written[k])
			continue;
		if (idle[k].at > all.p[i].at) {
			idle[k].pid = all.p[i].pid;
			all.p[i] = idle[k];
		}
		/* Latest first, as the store lists them. */
		for (; i > 0 && i < all.n && all.p[i].at > all.p[i - 1].at; i--) {
			struct pass t = all.p[i - 1];
			all.p[i - 1] = all.p[i];
			all.p[i] = t;
		}
	}
	for (size_t i = 0; !rc && i < all.n && !fn(&all.p[i], arg); i++)
		;
	free(all.p);
	return rc;
}

int
store_task_tally(struct store *st, struct task_tally *t, struct err *e)
{
	memset(t, 0, sizeof *t);
	return st->ops->history->task_tally(st, t, e);
}

int
store_task_due(struct store *st, int64_t now, int64_t late, long *due, long *overdue,
    struct err *e)
{
	*due = *overdue = 0;
	return st->ops->history->task_due(st, now, late, due, overdue, e);
}

int
store_run_counts(struct store *st, int64_t since,
    void (*fn)(const char *status, long long n, void *arg), void *arg, struct err *e)
{
	return st->ops->history->run_counts(st, since, fn, arg, e);
}

int
store_last_success(struct store *st,
    void (*fn)(const char *task_id, const char *name, int64_t at, void *arg), void *arg,
    struct err *e)
{
	return st->ops->history->last_success(st, fn, arg, e);
}

int
store_budget_tasks(struct store *st, void (*fn)(const char *task_id, void *arg), void *arg,
    struct err *e)
{
	return st->ops->history->budget_tasks(st, fn, arg, e);
}

int
store_call_tokens(struct store *st, int64_t since, long long *in, long long *out, struct err *e)
{
	*in = *out = 0;
	return st->ops->history->call_tokens(st, since, in, out, e);
}

int
store_pruned_totals(struct store *st, void (*fn)(const char *key, long long n, void *arg),
    void *arg, struct err *e)
{
	return st->ops->history->pruned_totals(st, fn, arg, e);
}

int
store_size(struct store *st, int64_t *bytes, int64_t *free_bytes, struct err *e)
{
	*bytes = 0;
	*free_bytes = -1;
	return st->ops->history->size(st, bytes, free_bytes, e);
}

int
store_prune_tasks(struct store *st, const char *after, int max, struct prune_task *out, int *n,
    struct err *e)
{
	*n = 0;
	return st->ops->history->prune_tasks(st, after, max, out, n, e);
}

void
prune_tasks_free(struct prune_task *t, int n)
{
	for (int i = 0; i < n; i++) {
		free(t[i].keep);
		t[i].keep = NULL;
	}
}

int
store_prune_bounds(struct store *st, const char *id, long nth0, long nth1, int64_t *oldest,
    int64_t *at0, int64_t *at1, struct err *e)
{
	*oldest = *at0 = *at1 = TIME_NONE;
	return st->ops->history->prune_bounds(st, id, nth0, nth1, oldest, at0, at1, e);
}

int
store_prune_runs(struct store *st, const char *id, int64_t before, long limit, int dry, long *runs,
    long *calls, struct err *e)
{
	*runs = *calls = 0;
	return st->ops->history->prune_runs(st, id, before, limit, dry, runs, calls, e);
}

int
store_prune_contexts(struct store *st, const char *after, int max, char **out, int *n,
    struct err *e)
{
	*n = 0;
	return st->ops->history->prune_contexts(st, after, max, out, n, e);
}

int
store_prune_messages(struct store *st, const char *context, long keep, long limit, int dry,
    long *n, struct err *e)
{
	*n = 0;
	return st->ops->history->prune_messages(st, context, keep, limit, dry, n, e);
}

int
store_prune_loose_calls(struct store *st, int64_t before, long limit, int dry, long *n,
    struct err *e)
{
	*n = 0;
	return st->ops->history->prune_loose_calls(st, before, limit, dry, n, e);
}

int
store_vacuum(struct store *st, int full, long max_pages, char *what, size_t n, struct err *e)
{
	if (n)
		what[0] = 0;
	return st->ops->history->vacuum(st, full, max_pages, what, n, e);
}
