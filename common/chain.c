/* Chains: tasks that follow other tasks (chain.h). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "fire_rules.h"
#include "store_chain.h"
#include "task_fields.h"
#include "utf8.h"

static const char *const on_verbs[CHAIN_ON_COUNT] = {"succeeds", "fails", "ends"};

/* The name of task id for messages; the id's start when it cannot be read.
 * *trashed (when given) says whether it is in the trash. */
static char *
name_of(struct store *st, const char *id, int *trashed)
{
	struct task t;
	struct err e;
	if (trashed)
		*trashed = 0;
	if (store_task_get(st, id, &t, &e) != ST_OK)
		return xasprintf("%.8s", id);
	char *name = xstrdup(t.name ? t.name : id);
	if (trashed)
		*trashed = t.deleted_at != TIME_NONE;
	task_free(&t);
	return name;
}

/* The loop search: from id upstream, looking for target. */
struct walk {
	struct store *st;
	const char *target;
	char (*seen)[37];
	size_t nseen;
	char (*path)[37];
	size_t depth;
	struct err *e;
	struct err scratch;           /* what is not the caller's to hear */
	int code;                     /* the error's, when -1 */
};

/* 1: target reached (path[0..depth) leads to it), 0: not, -1: error (in
 * w->e; a task that cannot be read is no proof there is no loop). */
static int
walk_up(struct walk *w, const char *id)
{
	if (strcmp(id, w->target) == 0)
		return 1;
	for (size_t i = 0; i < w->nseen; i++)
		if (strcmp(w->seen[i], id) == 0)
			return 0;
	if (w->nseen == CHAIN_DEPTH_MAX || w->depth == CHAIN_DEPTH_MAX) {
		err_set(w->e, ST_INVALID, "after: the chain above this task is too long to check"
		    " (more than %d tasks)", CHAIN_DEPTH_MAX);
		return -1;
	}
	memcpy(w->seen[w->nseen++], id, 37);
	struct chain_upstream u;
	int found = 0, rc = store_chain_upstream(w->st, id, &u, &found, w->e);
	if (rc) {
		w->code = rc;
		return -1;
	}
	if (!found)
		return 0;
	free(u.name);
	/* On the heap: CHAIN_DEPTH_MAX frames of them overflowed the stack. */
	struct chain_link *links = xcalloc(CHAIN_MAX, sizeof *links);
	size_t n = 0;
	found = 0;
	/* A task in the trash counts: task-rm --undo brings its links back. */
	if (u.after && chain_links(u.after, links, CHAIN_MAX, &n, &w->scratch) == ST_OK) {
		memcpy(w->path[w->depth++], id, 37);
		for (size_t i = 0; i < n && !found; i++)
			found = walk_up(w, links[i].ref);
		if (!found)
			w->depth--;
	}
	free(u.after);
	free(links);
	return found;
}

/* t following ups[0..n) would make a loop: said in e, in the order runs
 * flow ('t' -> 'x' -> ... -> 't'). */
static int
loop_check(struct store *st, const struct task *t, char (*ups)[37], size_t n, struct err *e)
{
	if (!t->id[0])
		return ST_OK; /* a new task: nothing follows it yet */
	int rc = store_chain_lock(st, e);
	if (rc)
		return rc;
	struct walk w = {.st = st, .target = t->id, .seen = xcalloc(CHAIN_DEPTH_MAX, 37),
	    .path = xcalloc(CHAIN_DEPTH_MAX, 37), .e = e, .code = ST_INVALID};
	int found = 0;
	for (size_t i = 0; i < n && !found; i++) {
		w.depth = 0;
		found = walk_up(&w, ups[i]);
	}
	rc = found < 0 ? w.code : ST_OK;
	if (found > 0) {
		struct buf b = {0};
		buf_printf(&b, "'%s'", t->name ? t->name : t->id);
		for (size_t i = w.depth; i-- > 0;) {
			struct chain_upstream u;
			int got = 0;
			struct err scratch;
			if (store_chain_upstream(st, w.path[i], &u, &got, &scratch) || !got)
				buf_printf(&b, " -> '%.8s'", w.path[i]);
			else
				buf_printf(&b, " -> '%s'%s", u.name ? u.name : w.path[i],
				    u.trashed ? " (in the trash)" : "");
			free(u.after);
			free(u.name);
		}
		buf_printf(&b, " -> '%s'", t->name ? t->name : t->id);
		rc = err_set(e, ST_INVALID, "after: that would make a loop: %s", b.data);
		buf_free(&b);
	}
	free(w.seen);
	free(w.path);
	return rc;
}

int
chain_resolve(struct store *st, struct task *t, struct err *e)
{
	struct chain_link links[CHAIN_MAX];
	size_t n = 0;
	int rc = chain_links(t->after, links, CHAIN_MAX, &n, e);
	if (rc)
		return rc;
	char ids[CHAIN_MAX][37];
	int ons[CHAIN_MAX];
	size_t m = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		char id[37];
		struct err re;
		int r = store_task_resolve(st, links[i].ref, 0, id, &re);
		if (r) {
			rc = err_set(e, r == ST_NOTFOUND ? ST_INVALID : r, "after: %s", re.msg);
			break;
		}
		if (strcmp(id, t->id) == 0) {
			rc = err_set(e, ST_INVALID, "after '%s': a task cannot follow itself", links[i].ref);
			break;
		}
		/* One link a task: success and failure of one task make any. */
		size_t k = 0;
		while (k < m && strcmp(ids[k], id) != 0)
			k++;
		if (k < m) {
			if (ons[k] != links[i].on)
				ons[k] = CHAIN_ANY;
			continue;
		}
		memcpy(ids[m], id, 37);
		ons[m++] = links[i].on;
	}
	if (!rc)
		rc = loop_check(st, t, ids, m, e);
	cJSON *out = cJSON_CreateArray();
	for (size_t i = 0; !rc && i < m; i++) {
		char *s = xasprintf("%s:%s", ids[i], chain_on_name(ons[i]));
		cJSON_AddItemToArray(out, cJSON_CreateString(s));
		free(s);
	}
	if (!rc) {
		char *text = m ? cJSON_PrintUnformatted(out) : NULL;
		free(t->after);
		t->after = text ? xstrdup(text) : NULL;
		cJSON_free(text);
	}
	cJSON_Delete(out);
	return rc;
}

/* src into dst[0..n), whole characters only, "..." where it was cut. */
static void
put_cut(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);
	if (!n)
		return;
	if (len < n) {
		memcpy(dst, src, len + 1);
		return;
	}
	if (n < 4) {
		dst[0] = 0;
		return;
	}
	int keep = utf8_cut(src, n - 4);
	memcpy(dst, src, (size_t)keep);
	memcpy(dst + keep, "...", 4);
}

void
chain_describe(struct store *st, const struct task *t, char *buf, size_t n)
{
	struct chain_link links[CHAIN_MAX];
	size_t k = 0;
	struct err e;
	buf[0] = 0;
	if (chain_links(t->after, links, CHAIN_MAX, &k, &e) || !k)
		return;
	struct buf b = {0};
	for (size_t i = 0; i < k; i++) {
		char *name = name_of(st, links[i].ref, NULL);
		buf_printf(&b, "%s'%s' %s", i ? " or " : "after ", name, on_verbs[links[i].on]);
		free(name);
	}
	put_cut(buf, n, b.data);
	buf_free(&b);
}

void
chain_describe_task(struct store *st, const struct task *t, char *desc, size_t n)
{
	char chain[512];
	chain_describe(st, t, chain, sizeof chain);
	if (!chain[0])
		return;
	if (t->kind == KIND_MANUAL) {
		put_cut(desc, n, chain);
		return;
	}
	size_t l = strlen(desc);
	if (l + 6 <= n) {
		memcpy(desc + l, "; ", 3);
		put_cut(desc + l + 2, n - l - 2, chain);
	}
}

/* Would run r's occurrence be tried again (its followers wait for the end)? */
static int
retried(const struct task *t, struct zones *zs, const struct run *r)
{
	if (r->prev_status[0] || r->status == RUN_SUCCESS || r->status == RUN_BLOCKED)
		return 0;
	if (task_repeats(t))
		return rules_is_retry(t, zs);
	if (t->kind == KIND_AT)
		return t->status == STATUS_PENDING && t->next_run_at != TIME_NONE;
	if (t->kind == KIND_PLAN)
		return t->status == STATUS_PENDING && t->nplan && r->slot == t->plan[t->nplan - 1];
	return 0;
}

struct fire_ctx {
	struct store *st;
	const struct run *r;
	int ok;
	int64_t now;
	int queued, rc;
	struct err *e;
};

static int
follow(const char *id, const char *after, int enabled, void *arg)
{
	struct fire_ctx *x = arg;
	struct chain_link links[CHAIN_MAX];
	size_t n = 0;
	struct err le;
	if (!enabled || chain_links(after, links, CHAIN_MAX, &n, &le))
		return 0;
	int match = 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(links[i].ref, x->r->task_id) == 0)
			match |= links[i].on == CHAIN_ANY || (links[i].on == CHAIN_SUCCESS) == x->ok;
	if (!match)
		return 0;
	/* A cancelled task (task-rm --cancel) fires no more, as a deleted one. */
	struct task f;
	if ((x->rc = store_task_get(x->st, id, &f, x->e)))
		return 1;
	int cancelled = f.status == STATUS_CANCELLED;
	task_free(&f);
	if (cancelled)
		return 0;
	struct run_input in;
	run_input_init(&in);
	if (uuid4(in.id) != 0) {
		x->rc = err_set(x->e, ST_ERR, "cannot make an input's id: no randomness");
		return 1;
	}
	memcpy(in.task_id, id, sizeof in.task_id);
	in.kind = INPUT_AFTER;
	in.key = (char *)x->r->id;
	memcpy(in.upstream_run, x->r->id, sizeof in.upstream_run);
	in.slot = x->r->slot;
	in.text = (char *)(!str_empty(x->r->output) || x->ok ? x->r->output : x->r->error);
	in.created_at = x->now;
	int added = 0;
	x->rc = store_input_add(x->st, &in, &added, x->e);
	if (!x->rc && added && !(x->rc = store_task_queue(x->st, id, x->now, x->e)))
		x->queued++;
	return x->rc != ST_OK;
}

int
chain_fire(struct store *st, struct zones *zs, const struct task *t, const struct run *r,
    int64_t now, int *queued, struct err *e)
{
	int ok = r->status == RUN_SUCCESS;
	*queued = 0;
	/* Blocked (a person is needed) is told as a failure, never retried. */
	if (!ok && r->status != RUN_FAILED && r->status != RUN_TIMEOUT &&
	    r->status != RUN_INTERRUPTED && r->status != RUN_BLOCKED)
		return ST_OK;
	if (retried(t, zs, r))
		return ST_OK;
	struct fire_ctx x = {st, r, ok, now, 0, ST_OK, e};
	int rc = store_followers(st, r->task_id, follow, &x, e);
	*queued = x.queued;
	return x.rc ? x.rc : rc;
}

/* The newest attempt of an occurrence (slot) that failed, into out. */
struct attempt_look {
	int64_t slot;
	struct run *out;
};

static int
failed_attempt(const struct run *r, void *arg)
{
	struct attempt_look *l = arg;
	if (r->slot != l->slot || r->prev_status[0] || (r->status != RUN_FAILED &&
	    r->status != RUN_TIMEOUT && r->status != RUN_INTERRUPTED) ||
	    (r->trigger != TRIGGER_SCHEDULE && r->trigger != TRIGGER_RETRY &&
	    r->trigger != TRIGGER_CATCHUP && r->trigger != TRIGGER_HEARTBEAT))
		return 0;
	*l->out = *r;
	fields_copy_text(&run_fields, l->out);
	return 1;
}

int
chain_fire_given_up(struct store *st, struct zones *zs, const struct task *t, int64_t slot,
    int64_t now, int *queued, struct err *e)
{
	struct run last;
	run_init(&last);
	struct attempt_look l = {slot, &last};
	struct run_filter rf;
	run_filter_init(&rf);
	rf.task_id = t->id;
	rf.since = slot;
	rf.with_output = 1;
	*queued = 0;
	int rc = slot == TIME_NONE ? ST_OK : store_run_list(st, &rf, failed_attempt, &l, e);
	if (!rc && last.id[0])
		rc = chain_fire(st, zs, t, &last, now, queued, e);
	run_free(&last);
	return rc;
}
