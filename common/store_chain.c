/* store_chain.c: the inputs of chained and event runs (store_chain.h),
 * through the backend's chain_ops. */
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"
#include "store_chain.h"

static const char *const kind_names[INPUT_KIND_COUNT] = {"after", "event", "replay"};

const char *
input_kind_name(int kind)
{
	return kind >= 0 && kind < INPUT_KIND_COUNT ? kind_names[kind] : "unknown";
}

int
input_kind_parse(const char *s)
{
	for (int i = 0; s && i < INPUT_KIND_COUNT; i++)
		if (strcmp(s, kind_names[i]) == 0)
			return i;
	return INPUT_EVENT;
}

void
run_input_init(struct run_input *in)
{
	memset(in, 0, sizeof *in);
	in->slot = in->created_at = TIME_NONE;
}

void
run_input_free(struct run_input *in)
{
	free(in->key);
	free(in->text);
	in->key = in->text = NULL;
}

int
store_input_add(struct store *st, const struct run_input *in, int *added, struct err *e)
{
	return st->ops->chain->input_add(st, in, added, e);
}

int
store_input_find(struct store *st, int by, const char *task_id, const char *key,
    struct run_input *out, int *found, struct err *e)
{
	*found = 0;
	run_input_init(out);
	return st->ops->chain->input_find(st, by, task_id, key, out, found, e);
}

int
store_input_bind(struct store *st, const char *id, const char *run_id, int *got, struct err *e)
{
	*got = 0;
	return st->ops->chain->input_bind(st, id, run_id, got, e);
}

int
store_followers(struct store *st, const char *upstream_id, follower_fn fn, void *arg,
    struct err *e)
{
	/* The ends of a group of runs share a unit: in a store where no task
	 * follows another (most), one look for all of them instead of a
	 * round trip each.  A task given an `after` list in the unit clears
	 * the answer; one another program adds meanwhile, the next unit finds. */
	if (st->depth && st->unfollowed == st->unit)
		return ST_OK;
	if (st->depth) {
		int any = 1;
		int rc = st->ops->chain->followed(st, &any, e);
		if (rc)
			return rc;
		if (!any) {
			st->unfollowed = st->unit;
			return ST_OK;
		}
	}
	return st->ops->chain->followers(st, upstream_id, fn, arg, e);
}

int
store_chain_lock(struct store *st, struct err *e)
{
	return st->ops->chain->lock(st, e);
}

int
store_chain_upstream(struct store *st, const char *id, struct chain_upstream *u, int *found,
    struct err *e)
{
	memset(u, 0, sizeof *u);
	*found = 0;
	return st->ops->chain->upstream(st, id, u, found, e);
}

char *
store_orphaned_why(const char *name)
{
	return xasprintf("disabled: the task it follows, '%s', was deleted", name);
}
