/* Model-call usage summed per task, model or day (usage.h). */
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "tz.h"
#include "usage.h"

static const char *const bys[] = {"task", "model", "day"};

int
usage_parse_by(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(s, bys[i]) == 0)
			return i;
	return -1;
}

struct collect {
	struct usage *u;
	int by;
	const char *task_id;
	const struct tz *z;
};

/* A row's identity: its key, and by model also its name (the model that
 * answered, when the provider named another). */
static size_t
row_hash(const struct usage_row *r)
{
	return str_hash(r->key) ^ (r->by_both && r->name ? str_hash(r->name) * 31 : 0);
}

static int
same_row(const struct usage_row *r, const char *key, const char *name)
{
	if (strcmp(r->key, key) != 0)
		return 0;
	if (!r->by_both)
		return 1;
	return !r->name || !name ? !r->name && !name : strcmp(r->name, name) == 0;
}

/* Rows by key, in a table at most half full. */
static void
rehash(struct usage *u)
{
	free(u->slots);
	u->nslots = u->nslots ? u->nslots * 2 : 64;
	u->slots = xcalloc(u->nslots, sizeof *u->slots); /* 0: empty, else row index + 1 */
	for (size_t i = 0; i < u->n; i++) {
		size_t k = row_hash(&u->rows[i]) & (u->nslots - 1);
		while (u->slots[k])
			k = (k + 1) & (u->nslots - 1);
		u->slots[k] = i + 1;
	}
}

static struct usage_row *
row_of(struct usage *u, const char *key, const char *name, int by_both)
{
	if (2 * (u->n + 1) > u->nslots)
		rehash(u);
	struct usage_row want = {.key = (char *)key, .name = (char *)name, .by_both = by_both};
	size_t k = row_hash(&want) & (u->nslots - 1);
	for (; u->slots[k]; k = (k + 1) & (u->nslots - 1))
		if (same_row(&u->rows[u->slots[k] - 1], key, name))
			return &u->rows[u->slots[k] - 1];
	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 16;
		u->rows = xrealloc(u->rows, u->cap * sizeof *u->rows);
	}
	struct usage_row *r = &u->rows[u->n];
	*r = (struct usage_row){.key = xstrdup(key), .name = xstrdup(name), .by_both = by_both};
	u->slots[k] = ++u->n;
	return r;
}

static void
add(struct usage_row *r, const struct call_usage *c)
{
	r->calls++;
	r->in += c->input_tokens > 0 ? c->input_tokens : 0;
	r->out += c->output_tokens > 0 ? c->output_tokens : 0;
	if (c->cost >= 0)
		r->cost += c->cost;
	else
		r->unpriced++;
}

static int
collect_one(const struct call_usage *c, void *arg)
{
	struct collect *x = arg;
	if (x->task_id && (!c->task_id || strcmp(c->task_id, x->task_id) != 0))
		return 0;
	char day[16];
	const char *key = "", *name = NULL;
	if (x->by == USAGE_BY_TASK) {
		key = c->task_id ? c->task_id : "";
		name = c->name;
	} else if (x->by == USAGE_BY_MODEL) {
		key = c->model ? c->model : "";
		name = c->answered_model;
	} else {
		struct civil d;
		tz_to_civil(x->z, c->created_at, &d);
		snprintf(day, sizeof day, "%04lld-%02d-%02d", (long long)d.year, d.month, d.day);
		key = day;
	}
	add(row_of(x->u, key, name, x->by == USAGE_BY_MODEL), c);
	add(&x->u->total, c);
	return 0;
}

static int
by_spend(const void *a, const void *b)
{
	const struct usage_row *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	if (x->in + x->out != y->in + y->out)
		return x->in + x->out > y->in + y->out ? -1 : 1;
	int d = strcmp(x->key, y->key);
	return d ? d : strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static int
by_key(const void *a, const void *b)
{
	return strcmp(((const struct usage_row *)a)->key, ((const struct usage_row *)b)->key);
}

int
usage_collect(struct store *st, int by, int64_t since, const char *task_id,
    const struct tz *z, struct usage *u, struct err *e)
{
	memset(u, 0, sizeof *u);
	struct collect x = {u, by, task_id, z};
	int rc = store_call_usage(st, since, collect_one, &x, e);
	if (!rc && u->n)
		qsort(u->rows, u->n, sizeof *u->rows, by == USAGE_BY_DAY ? by_key : by_spend);
	return rc;
}

void
usage_free(struct usage *u)
{
	for (size_t i = 0; i < u->n; i++) {
		free(u->rows[i].key);
		free(u->rows[i].name);
	}
	free(u->rows);
	free(u->slots);
	memset(u, 0, sizeof *u);
}
