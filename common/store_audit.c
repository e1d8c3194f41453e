/* The audit trail in the store (store_audit.h): its chain of hashes, its
 * verification and its retention, once for both backends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hmac.h"
#include "store_audit.h"
#include "store_backend.h"
#include "task_fields.h"
#include "task_json.h"

#define VERIFIED_KEY "audit_verified"  /* "SEQ HASH": the last entry a verification found sound */
#define BASE_KEY "audit_base"          /* "SEQ HASH": the last entry retention removed */

static const struct store_audit_hooks hooks;

void
store_audit_by(struct store *st, const char *actor)
{
	set_str(&st->audit_actor, actor);
	st->audit = &hooks;
}

void
store_audit_by_user(struct store *st)
{
	char *who = audit_actor_user();
	store_audit_by(st, who);
	free(who);
}

void
store_audit_action(struct store *st, const char *action)
{
	set_str(&st->audit_action, action);
}

int
store_audit_note(struct store *st, const char *action, const char *task_id, const char *before,
    const char *after, struct err *e)
{
	if (!st->audit_actor || st->standin)
		return ST_OK;
	struct audit_entry a = {0};
	int64_t last = 0;
	int rc = store_now(st, &a.at, e);
	if (!rc)
		rc = st->ops->audit->last(st, &last, a.prev, e);
	if (rc)
		return rc;
	if (!a.prev[0])
		memcpy(a.prev, AUDIT_ZERO, sizeof a.prev);
	a.seq = last + 1;
	a.actor = st->audit_actor;
	snprintf(a.action, sizeof a.action, "%s", st->audit_action ? st->audit_action : action);
	snprintf(a.task_id, sizeof a.task_id, "%s", task_id ? task_id : "");
	a.before = (char *)before;
	a.after = (char *)after;
	if (audit_hash(&a, a.hash) != 0)
		return err_set(e, ST_ERR, "cannot hash an audit entry: %s cannot be loaded", CRYPTO_LIB_SONAME);
	set_str(&st->audit_action, NULL);
	return st->ops->audit->append(st, &a, e);
}

int
store_audit_list(struct store *st, const char *task_id, int desc, long limit, audit_fn fn,
    void *arg, struct err *e)
{
	if (st->standin)
		return ST_OK;
	return st->ops->audit->list(st, task_id, desc, 0, limit, fn, arg, e);
}

/* A "SEQ HASH" setting; 0 and "" when unset or unreadable. */
static int
mark_get(struct store *st, const char *key, int64_t *seq, char hash[65], struct err *e)
{
	char *v = NULL;
	*seq = 0;
	hash[0] = 0;
	int rc = store_setting_get(st, key, &v, e);
	if (!rc && v) {
		long long n = 0;
		char h[65];
		if (sscanf(v, "%lld %64s", &n, h) == 2 && n > 0 && strlen(h) == 64) {
			*seq = n;
			memcpy(hash, h, 65);
		}
	}
	free(v);
	return rc;
}

static int
mark_set(struct store *st, const char *key, int64_t seq, const char *hash, struct err *e)
{
	char v[96];
	snprintf(v, sizeof v, "%lld %s", (long long)seq, hash);
	return store_setting_set(st, key, v, e);
}

struct walk {
	struct audit_check *c;
	int64_t want;          /* the next seq */
	char prev[65];
	int64_t mark_seq;      /* the checkpoint's entry */
	char mark[65], mark_seen[65];
	int failed;            /* libcrypto */
};

static int
walk_one(const struct audit_entry *a, void *arg)
{
	struct walk *w = arg;
	struct audit_check *c = w->c;
	char h[65];
	if (a->seq <= c->base_seq)
		return 0;
	c->entries++;
	if (a->seq != w->want) {
		c->bad_seq = w->want;
		c->removed = 1;
		return 1;
	}
	if (audit_hash(a, h) != 0) {
		w->failed = 1;
		return 1;
	}
	if (strcmp(h, a->hash) != 0) {
		c->bad_seq = a->seq;
		return 1;
	}
	if (strcmp(a->prev, w->prev) != 0) {
		/* The one before was rewritten with a hash to match. */
		c->bad_seq = a->seq - 1 > c->base_seq ? a->seq - 1 : a->seq;
		c->removed = a->seq - 1 <= c->base_seq;
		return 1;
	}
	if (a->seq == w->mark_seq)
		memcpy(w->mark_seen, a->hash, 65);
	memcpy(w->prev, a->hash, 65);
	c->head_seq = a->seq;
	memcpy(c->head, a->hash, 65);
	w->want++;
	return 0;
}

int
store_audit_verify(struct store *st, int64_t now, struct audit_check *c, struct err *e)
{
	struct walk w = {.c = c};
	char base[65];
	(void)now;
	memset(c, 0, sizeof *c);
	if (st->standin)
		return ST_OK;
	int rc = mark_get(st, BASE_KEY, &c->base_seq, base, e);
	if (!rc)
		rc = mark_get(st, VERIFIED_KEY, &w.mark_seq, w.mark, e);
	if (rc)
		return rc;
	w.want = c->base_seq + 1;
	memcpy(w.prev, c->base_seq ? base : AUDIT_ZERO, 65);
	c->head_seq = c->base_seq;
	if ((rc = st->ops->audit->list(st, NULL, 0, 0, 0, walk_one, &w, e)))
		return rc;
	if (w.failed)
		return err_set(e, ST_ERR, "cannot hash an audit entry (libcrypto)");
	if (c->bad_seq)
		return ST_OK;
	/* The end is known only from the last checkpoint: what came off it
	 * since leaves no gap in the chain. */
	if (w.mark_seq > c->head_seq) {
		c->bad_seq = c->head_seq + 1;
		c->removed = 1;
		return ST_OK;
	}
	if (w.mark_seq > c->base_seq && strcmp(w.mark_seen, w.mark) != 0) {
		c->bad_seq = w.mark_seq;
		return ST_OK;
	}
	if (c->head_seq > c->base_seq && c->head_seq != w.mark_seq &&
	    (rc = store_writable(st, e)) == ST_OK)
		rc = mark_set(st, VERIFIED_KEY, c->head_seq, c->head, e);
	return rc;
}

struct cut {
	int64_t upto, before, last;
	char hash[65];
};

static int
cut_one(const struct audit_entry *a, void *arg)
{
	struct cut *x = arg;
	if (a->seq > x->upto || a->at >= x->before)
		return 1;
	x->last = a->seq;
	memcpy(x->hash, a->hash, 65);
	return 0;
}

int
store_audit_prune(struct store *st, int64_t before, int dry, long *n, struct err *e)
{
	struct cut x = {.before = before};
	int64_t base = 0;
	char h[65];
	*n = 0;
	if (st->standin)
		return ST_OK;
	int rc = store_begin(st, e);
	if (!rc)
		rc = mark_get(st, VERIFIED_KEY, &x.upto, h, e);
	if (!rc)
		rc = mark_get(st, BASE_KEY, &base, h, e);
	/* Oldest first, only the entries before the checkpoint, and only up to
	 * the first that is not old enough: what stays is one piece. */
	if (!rc && x.upto > base)
		rc = st->ops->audit->list(st, NULL, 0, base + 1, 0, cut_one, &x, e);
	if (!rc && x.last > base) {
		*n = (long)(x.last - base);
		if (!dry && !(rc = st->ops->audit->prune(st, x.last, n, e)))
			rc = mark_set(st, BASE_KEY, x.last, x.hash, e);
	}
	if (!rc && !dry)
		rc = store_commit(st, e);
	if (rc || dry)
		store_rollback(st);
	return rc;
}

int
store_audit_auto_pause(struct store *st, const struct task *t, int was_enabled, struct err *e)
{
	cJSON *b = cJSON_CreateObject(), *a = cJSON_CreateObject();
	cJSON_AddBoolToObject(b, "enabled", was_enabled);
	cJSON_AddNullToObject(b, "paused");
	cJSON_AddBoolToObject(a, "enabled", t->enabled);
	if (t->paused)
		cJSON_AddStringToObject(a, "paused", t->paused);
	else
		cJSON_AddNullToObject(a, "paused");
	char *before = json_print_line(b), *after = json_print_line(a);
	cJSON_Delete(b);
	cJSON_Delete(a);
	char *mine = audit_actor_scheduler(), *theirs = st->audit_actor, *action = st->audit_action;
	st->audit_actor = mine;
	st->audit_action = NULL;
	int rc = store_audit_note(st, "pause", t->id, before, after, e);
	st->audit_actor = theirs;
	st->audit_action = action;
	free(mine);
	free(before);
	free(after);
	return rc;
}

/* ---- the entries of store.c's task writes ---- */

static int
audit_task(struct store *st, const struct task *a, const struct task *b, struct err *e)
{
	if (!st->audit_actor)
		return ST_OK;
	char *before, *after;
	const char *action;
	int same;
	if (!st->audit_zones)
		st->audit_zones = zones_new();
	audit_task_diff(a, b, st->audit_zones, &before, &after, &action, &same);
	int rc = same ? ST_OK : store_audit_note(st, action, (b ? b : a)->id, before, after, e);
	free(before);
	free(after);
	return rc;
}

struct purge_ctx {
	char (*ids)[37];
	size_t n, cap;
};

static int
purge_one(const struct task *t, void *arg)
{
	struct purge_ctx *x = arg;
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 16;
		x->ids = xrealloc(x->ids, x->cap * sizeof *x->ids);
	}
	memcpy(x->ids[x->n++], t->id, 37);
	return 0;
}

static int
audit_purge(struct store *st, struct err *e)
{
	struct task_filter f;
	struct purge_ctx x = {NULL, 0, 0};
	task_filter_init(&f);
	f.trashed = 1;
	int rc = st->ops->task_list(st, &f, purge_one, &x, e);
	for (size_t i = 0; !rc && i < x.n; i++)
		rc = store_audit_note(st, "purge", x.ids[i], NULL, NULL, e);
	free(x.ids);
	return rc;
}

static const struct store_audit_hooks hooks = {audit_task, store_audit_note, audit_purge};

/* ---- the backends' rows ---- */

void
store_audit_row(struct row *p, const struct audit_entry *a)
{
	row_int(p, a->seq);
	row_int(p, a->at);
	row_text(p, a->actor);
	row_text(p, a->action);
	row_text(p, a->task_id[0] ? a->task_id : NULL);
	row_text(p, a->before);
	row_text(p, a->after);
	row_text(p, a->prev);
	row_text(p, a->hash);
}

static char *
cell_text(struct cell c)
{
	return c.kind == CELL_NULL ? NULL : xstrdup(c.s);
}

static void
cell_copy(struct cell c, char *dst, size_t n)
{
	snprintf(dst, n, "%s", c.kind == CELL_NULL ? "" : c.s);
}

void
store_audit_read(struct audit_entry *a, cell_fn cell, void *src)
{
	*a = (struct audit_entry){0};
	a->seq = cell(src, 0, 1).i;
	a->at = cell(src, 1, 1).i;
	a->actor = cell_text(cell(src, 2, 0));
	cell_copy(cell(src, 3, 0), a->action, sizeof a->action);
	cell_copy(cell(src, 4, 0), a->task_id, sizeof a->task_id);
	a->before = cell_text(cell(src, 5, 0));
	a->after = cell_text(cell(src, 6, 0));
	cell_copy(cell(src, 7, 0), a->prev, sizeof a->prev);
	cell_copy(cell(src, 8, 0), a->hash, sizeof a->hash);
}
