/* store_deliver.c: the receipts of deliveries (store_deliver.h), through
 * the backend's deliver_ops. */
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"
#include "store_deliver.h"

static const char *const status_names[RECEIPT_STATUS_COUNT] = {"pending", "delivered", "failed"};

const char *
receipt_status_name(int status)
{
	return status >= 0 && status < RECEIPT_STATUS_COUNT ? status_names[status] : "unknown";
}

int
receipt_status_parse(const char *s)
{
	for (int i = 0; i < RECEIPT_STATUS_COUNT; i++)
		if (s && strcmp(s, status_names[i]) == 0)
			return i;
	return -1;
}

void
receipt_init(struct receipt *r)
{
	memset(r, 0, sizeof *r);
	r->created_at = r->next_at = r->last_at = TIME_NONE;
}

void
receipt_free(struct receipt *r)
{
	free(r->target);
	free(r->answer);
	free(r->error);
	free(r->task_name);
	r->target = r->answer = r->error = r->task_name = NULL;
}

int
store_receipt_add(struct store *st, const struct receipt *r, int *added, struct err *e)
{
	return st->ops->deliver->add(st, r, added, e);
}

int
store_receipt_list(struct store *st, const struct receipt_filter *f, receipt_fn fn, void *arg,
    struct err *e)
{
	return st->ops->deliver->list(st, f, fn, arg, e);
}

int
store_receipt_due(struct store *st, int64_t now, long max, receipt_fn fn, void *arg, struct err *e)
{
	return st->ops->deliver->due(st, now, max, fn, arg, e);
}

int
store_receipt_claim(struct store *st, const char *id, const char *owner, int64_t now,
    int64_t lease_until, int *got, struct err *e)
{
	return st->ops->deliver->claim(st, id, owner, now, lease_until, got, e);
}

int
store_receipt_finish(struct store *st, const struct receipt *r, const char *owner, int *ours,
    struct err *e)
{
	return st->ops->deliver->finish(st, r, owner, ours, e);
}

int
store_deliver_work(struct store *st, int64_t now, int *due, int *targets, struct err *e)
{
	return st->ops->deliver->work(st, now, due, targets, e);
}

int
store_receipt_counts(struct store *st, void (*fn)(const char *kind, const char *status,
    long long n, void *arg), void *arg, struct err *e)
{
	return st->ops->deliver->counts(st, fn, arg, e);
}
