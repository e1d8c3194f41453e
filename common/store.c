/* The store's front: opening picks the backend, and the atomic operations
 * of store.h (claims, the end of a run, recovery, a conversation's
 * exchange) are built here, once, from each backend's primitives inside one
 * unit of work.  What is not storage (id prefixes, messages, the order of a
 * conversation) is here too, so both backends behave alike. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "pg_uri.h"
#include "proc.h"
#include "chain.h"
#include "store_backend.h"
#include "store_audit.h"

const char *
store_default_path(char *buf, size_t n)
{
	const char *env = getenv("TASK_DB");
	if (env && *env) {
		snprintf(buf, n, "%s", env);
		return buf;
	}
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && *xdg == '/') {
		snprintf(buf, n, "%s/agentcron/tasks.db", xdg);
		return buf;
	}
	const char *home = getenv("HOME");
	snprintf(buf, n, "%s/.local/share/agentcron/tasks.db", home && *home ? home : ".");
	return buf;
}

int
store_where(char *buf, size_t n, struct err *e)
{
	const char *env = getenv("TASK_DB");
	struct config *cf = NULL;
	if (!(env && *env)) {
		int rc = config_load(&cf, e);
		if (rc)
			return rc;
		const char *db = config_get(cf, "db");
		if (db && *db) {
			snprintf(buf, n, "%s", db);
			config_free(cf);
			return ST_OK;
		}
		config_free(cf);
	}
	store_default_path(buf, n);
	return ST_OK;
}

int
store_is_uri(const char *where)
{
	return strncmp(where, "postgres://", 11) == 0 || strncmp(where, "postgresql://", 13) == 0 ||
	    pg_conninfo_is(where);
}

int
store_open(const char *where, int flags, struct store **out, struct err *e)
{
	char def[PATH_MAX];
	int rc;
	if (!where && (rc = store_where(def, sizeof def, e)))
		return rc;
	if (!where)
		where = def;
	struct store *st = xcalloc(1, sizeof *st);
	st->flags = flags;
	if (store_is_uri(where)) {
		rc = store_pg_open(st, where, e);
	} else {
		struct stat sb;
		/* Nothing to read is an empty store, and a read creates nothing. */
		if ((flags & STORE_READ) && stat(where, &sb) != 0 && errno == ENOENT) {
			rc = store_sqlite_open(st, ":memory:", e);
			if (!rc) {
				set_str(&st->name, where);
				set_str(&st->locator, where);
				set_str(&st->standin, where);
			}
		} else {
			rc = store_sqlite_open(st, where, e);
		}
	}
	if (rc == ST_NOTFOUND && (flags & STORE_READ)) {
		/* A database without our schema yet, read without creating it. */
		char *name = st->name, *locator = st->locator;
		st->name = st->locator = NULL;
		if (st->ops)
			st->ops->close(st);
		st->ops = NULL;
		rc = store_sqlite_open(st, ":memory:", e);
		free(st->name);
		free(st->locator);
		st->name = name;
		st->locator = locator;
		set_str(&st->standin, where);
	}
	if (rc) {
		store_close(st);
		return rc;
	}
	*out = st;
	return ST_OK;
}

int
store_absent(const struct store *st)
{
	return st->standin != NULL;
}

void
store_close(struct store *st)
{
	if (!st)
		return;
	if (st->ops) {
		if (st->has_owner)
			st->ops->owner_stop(st);
		st->ops->close(st);
	}
	free(st->name);
	free(st->locator);
	free(st->standin);
	free(st->audit_actor);
	free(st->audit_action);
	if (st->password) {
		explicit_bzero(st->password, strlen(st->password));
		free(st->password);
	}
	free(st);
}

int
store_writable(struct store *st, struct err *e)
{
	if (!st->standin)
		return ST_OK;
	/* The first write: now the store is made, where it was looked for. */
	char *where = st->standin;
	st->standin = NULL;
	st->ops->close(st);
	st->ops = NULL;
	st->flags &= ~STORE_READ;
	int rc = store_is_uri(where) ? store_pg_open(st, where, e) : store_sqlite_open(st, where, e);
	if (rc) {
		st->standin = where;
		store_sqlite_open(st, ":memory:", NULL);
		char name[PATH_MAX + 64];
		store_locator_of(where, name, sizeof name);
		set_str(&st->name, name);
		set_str(&st->locator, name);
		return rc;
	}
	free(where);
	return ST_OK;
}

const char *
store_name(const struct store *st)
{
	return st->name;
}

const char *
store_locator(const struct store *st)
{
	return st->locator;
}

const char *
store_password(const struct store *st)
{
	return st->password;
}

void
store_locator_of(const char *where, char *buf, size_t n)
{
	char cwd[PATH_MAX];
	if (store_is_uri(where))
		pg_uri_mask(where, buf, n);
	else if (where[0] != '/' && strcmp(where, ":memory:") != 0 && getcwd(cwd, sizeof cwd))
		snprintf(buf, n, "%s/%s", cwd, where);
	else
		snprintf(buf, n, "%s", where);
}

void
store_deadline(struct store *st, int64_t deadline_ms, int64_t op_ms)
{
	st->deadline_ms = deadline_ms;
	st->op_ms = op_ms;
}

int
store_durability(struct store *st, char *off, size_t n, struct err *e)
{
	if (n)
		off[0] = 0;
	return store_is_uri(st->locator) && !st->standin ? store_pg_durability(st, off, n, e) : ST_OK;
}

int
store_async_standbys(struct store *st, long *n, struct err *e)
{
	*n = 0;
	return store_is_uri(st->locator) && !st->standin ? store_pg_async_standbys(st, n, e) : ST_OK;
}

int64_t
store_clock_skew_ms(const struct store *st)
{
	return st->skew_ms;
}

int
store_now(const struct store *st, int64_t *now, struct err *e)
{
	const char *fixed = getenv("TASK_NOW");
	if (fixed && *fixed)
		return now_get(now, e);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	int64_t ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + st->skew_ms;
	*now = floor_div(ms, 1000);
	return ST_OK;
}

int
store_refresh(struct store *st, char *what, size_t n, struct err *e)
{
	if (n)
		what[0] = 0;
	return st->ops->refresh(st, what, n, e);
}

int
store_schema_newer(const struct store *st, int version, int ours, struct err *e)
{
	return err_set(e, ST_ERR, "store '%s' has schema version %d, newer than this agentcron's %d;"
	    " upgrade agentcron", st->name, version, ours);
}

/* ---- units of work ---- */

static int
unit_begin(struct store *st, int of_runs, struct err *e)
{
	if (st->depth)
		return err_set(e, ST_ERR, "store '%s': a unit of work is already open", st->name);
	int rc = st->ops->begin(st, of_runs, e);
	if (!rc)
		st->depth = 1;
	return rc;
}

int
store_begin(struct store *st, struct err *e)
{
	return unit_begin(st, 0, e);
}

int
store_commit(struct store *st, struct err *e)
{
	int rc = st->ops->commit(st, e);
	if (!rc)
		st->depth = 0;
	return rc;
}

void
store_rollback(struct store *st)
{
	if (st->depth)
		st->ops->rollback(st);
	st->depth = 0;
}

/* A unit around fn's steps unless the caller already has one. */
static int
own_begin(struct store *st, int *own, struct err *e)
{
	*own = !st->depth;
	return *own ? store_begin(st, e) : ST_OK;
}

static int
own_end(struct store *st, int own, int rc, struct err *e)
{
	if (!own)
		return rc;
	if (!rc)
		rc = store_commit(st, e);
	if (rc)
		store_rollback(st);
	return rc;
}

/* ---- tasks ---- */

/* The audit entry of a change from a to b (NULL: none, before or after),
 * when an actor is set: in the caller's unit of work. */
static int
audit_task(struct store *st, const struct task *a, const struct task *b, struct err *e)
{
	if (!st->audit_actor)
		return ST_OK;
	char *before, *after;
	const char *action;
	int same;
	audit_task_diff(a, b, &before, &after, &action, &same);
	int rc = same ? ST_OK : store_audit_note(st, action, (b ? b : a)->id, before, after, e);
	free(before);
	free(after);
	return rc;
}

void
task_filter_init(struct task_filter *f)
{
	memset(f, 0, sizeof *f);
	f->enabled = -1;
	f->due_within = -1;
	f->due_after = -1;
}

int
store_task_add(struct store *st, struct task *t, int dedup, int *is_dup, char dup_id[37],
    struct err *e)
{
	int own, rc = own_begin(st, &own, e);
	*is_dup = 0;
	if (rc)
		return rc;
	/* The key is checked even with --force: a retried create with the same
	 * key must never schedule twice.  A task added straight into the trash
	 * (an import) is nobody's twin. */
	if ((dedup || t->key) && t->deleted_at == TIME_NONE) {
		int found = 0;
		rc = st->ops->task_find_twin(st, t, &found, dup_id, e);
		if (!rc && found) {
			*is_dup = 1;
			return own_end(st, own, ST_OK, e);
		}
	}
	if (!rc && !t->id[0] && uuid4(t->id) != 0)
		rc = err_set(e, ST_ERR, "cannot generate a task id: %s", strerror(errno));
	if (!rc && (rc = st->ops->task_insert(st, t, e)) == ST_REFUSED)
		err_set(e, rc, "a task with id '%s' or key '%s' already exists", t->id, t->key ? t->key : "");
	if (!rc)
		rc = audit_task(st, NULL, t, e);
	return own_end(st, own, rc, e);
}

/* The ids a prefix stands for (matched in lower case), or ST_NOTFOUND with
 * what to give. */
static int
id_prefix(const char *prefix, struct id_range *ids, const char *what, struct err *e)
{
	size_t n = strlen(prefix);
	if (n < 4 || n > 36 || !id_prefix_ok(prefix))
		return err_set(e, ST_NOTFOUND, "no %s '%.40s' (an id or a prefix of 4+ of its characters)",
		    what, prefix);
	for (size_t i = 0; i <= n; i++)
		ids->from[i] = (char)(prefix[i] >= 'A' && prefix[i] <= 'F' ? prefix[i] + 32 : prefix[i]);
	/* '~' sorts after every character of an id. */
	snprintf(ids->to, sizeof ids->to, "%s~", ids->from);
	return ST_OK;
}

struct named {
	char (*found)[37];
	int n, max;
};

static int
take_named(const struct task *t, void *arg)
{
	struct named *nm = arg;
	memcpy(nm->found[nm->n++], t->id, 37);
	return nm->n == nm->max;
}

/* The tasks named exactly name, up to max. */
static int
by_name(struct store *st, const char *name, int trashed, char (*found)[37], int max, int *n,
    struct err *e)
{
	struct task_filter f;
	struct named nm = {found, 0, max};
	task_filter_init(&f);
	f.name = name;
	f.trashed = trashed;
	f.limit = max;
	int rc = st->ops->task_list(st, &f, take_named, &nm, e);
	*n = nm.n;
	return rc;
}

int
store_task_resolve(struct store *st, const char *prefix, int trashed, char id[37], struct err *e)
{
	char found[6][37];
	struct id_range ids;
	struct err sub;
	int n = 0, rc, named = 0, idlike = id_prefix(prefix, &ids, "task", &sub) == ST_OK;
	size_t len = strlen(prefix);
	/* An id or a prefix of one first; else the task of that exact name. */
	if (idlike && (rc = st->ops->task_prefix(st, &ids, trashed, found, 6, &n, e)))
		return rc;
	if (n == 0) {
		named = 1;
		if (*prefix && (rc = by_name(st, prefix, trashed, found, 6, &n, e)))
			return rc;
	}
	if (n == 0 && len && len < 4 && strspn(prefix, "0123456789abcdefABCDEF-") == len)
		return err_set(e, ST_NOTFOUND, "no task '%s': an id prefix needs 4 or more characters,"
		    " and no task has that name", prefix);
	if (n == 0 && !idlike)
		return err_set(e, ST_NOTFOUND, "no task '%.40s'%s (an id, a prefix of 4+ of its"
		    " characters, or its name)", prefix, trashed ? " in the trash" : "");
	if (n == 0)
		return err_set(e, ST_NOTFOUND, trashed ? "no task '%s' in the trash" : "no task '%s'",
		    prefix);
	if (n > 1) {
		struct buf b = {0};
		for (int i = 0; i < n && i < 5; i++)
			buf_printf(&b, "%s%.13s", i ? ", " : "", found[i]);
		err_set(e, ST_REFUSED, named ? "name '%s' is ambiguous: tasks %s%s; give an id" :
		    "id prefix '%s' is ambiguous: %s%s; give more characters", prefix, b.data,
		    n > 5 ? ", ..." : "");
		buf_free(&b);
		return ST_REFUSED;
	}
	memcpy(id, found[0], 37);
	return ST_OK;
}

/* What a backend's bare ST_NOTFOUND means for task id. */
static int
no_task(int rc, const char *id, struct err *e)
{
	return rc == ST_NOTFOUND ? err_set(e, rc, "no task '%s'", id) : rc;
}

int
store_task_get(struct store *st, const char *id, struct task *t, struct err *e)
{
	return no_task(st->ops->task_get(st, id, t, e), id, e);
}

/* A write of the scheduler's own (claims, ends of runs): never audited. */
static int
task_put_plain(struct store *st, const struct task *t, struct err *e)
{
	int rc = st->ops->task_put(st, t, e);
	if (rc == ST_REFUSED)
		return err_set(e, rc, "another task already has key '%s'", t->key ? t->key : "");
	return no_task(rc, t->id, e);
}

int
store_task_put(struct store *st, const struct task *t, struct err *e)
{
	if (!st->audit_actor)
		return task_put_plain(st, t, e);
	struct task old;
	int own, got = 0, rc = own_begin(st, &own, e);
	if (!rc && !(rc = st->ops->task_get(st, t->id, &old, e)))
		got = 1;
	if (!rc)
		rc = task_put_plain(st, t, e);
	if (!rc)
		rc = audit_task(st, &old, t, e);
	if (got)
		task_free(&old);
	return own_end(st, own, no_task(rc, t->id, e), e);
}

int
store_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	return st->ops->task_list(st, f, fn, arg, e);
}

int
store_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e)
{
	return st->ops->task_count(st, f, n, e);
}

int
store_task_trash(struct store *st, const char *id, int64_t now, struct err *e)
{
	/* Its followers are disabled with it, saying why (chain.h). */
	struct task t;
	int own, rc = own_begin(st, &own, e), got = 0;
	if (!rc && !(rc = st->ops->task_get(st, id, &t, e)))
		got = 1;
	if (!rc)
		rc = st->ops->task_trash(st, id, now, e);
	if (!rc)
		rc = audit_task(st, &t, NULL, e);
	if (!rc)
		rc = chain_orphan(st, id, t.name ? t.name : id, now, NULL, e);
	if (got)
		task_free(&t);
	return own_end(st, own, no_task(rc, id, e), e);
}

int
store_trash_restore(struct store *st, const char *id, char restored[37], struct err *e)
{
	int own, rc = own_begin(st, &own, e);
	if (!rc)
		rc = st->ops->trash_restore(st, id, restored, e);
	if (!rc)
		rc = store_audit_note(st, "restore", restored, NULL, NULL, e);
	rc = own_end(st, own, rc, e);
	if (rc == ST_REFUSED)
		return err_set(e, rc, "cannot restore '%s': a live task has the same key",
		    id ? id : "the latest deletion");
	if (rc == ST_NOTFOUND)
		return id ? err_set(e, rc, "no task '%s' in the trash", id)
			  : err_set(e, rc, "the trash is empty");
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

/* An entry for each task the trash holds, before it is emptied. */
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

int
store_trash_purge(struct store *st, long *n, struct err *e)
{
	/* Their runs go with them; their model calls and the totals of both
	 * are the history's (store_history.h). */
	int own, rc = own_begin(st, &own, e);
	if (!rc && st->audit_actor)
		rc = audit_purge(st, e);
	if (!rc)
		rc = st->ops->history->forget_trash(st, e);
	if (!rc)
		rc = st->ops->trash_purge(st, n, e);
	return own_end(st, own, rc, e);
}

int
store_task_queue(struct store *st, const char *id, int64_t now, struct err *e)
{
	if (!st->audit_actor)
		return no_task(st->ops->task_queue(st, id, now, e), id, e);
	int own, rc = own_begin(st, &own, e);
	if (!rc)
		rc = no_task(st->ops->task_queue(st, id, now, e), id, e);
	if (!rc)
		rc = store_audit_note(st, "run", id, NULL, NULL, e);
	return own_end(st, own, rc, e);
}

int
store_setting_get(struct store *st, const char *key, char **value, struct err *e)
{
	*value = NULL;
	return st->ops->setting_get(st, key, value, e);
}

int
store_setting_set(struct store *st, const char *key, const char *value, struct err *e)
{
	return st->ops->setting_set(st, key, value, e);
}

/* ---- runs ---- */

void
run_filter_init(struct run_filter *f)
{
	memset(f, 0, sizeof *f);
	f->status = -1;
	f->since = TIME_NONE;
}

int
store_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e)
{
	return st->ops->run_list(st, f, fn, arg, e);
}

static int
count_one_run(const struct run *r, void *arg)
{
	(void)r;
	++*(long *)arg;
	return 0;
}

int
store_run_count(struct store *st, const struct run_filter *f, long *n, struct err *e)
{
	*n = 0;
	return st->ops->run_list(st, f, count_one_run, n, e);
}

int
store_run_note(struct store *st, const char *id, const char *note, struct err *e)
{
	return st->ops->run_note(st, id, note, e);
}

int
store_run_get(struct store *st, const char *prefix, struct run *r, struct err *e)
{
	struct id_range ids;
	struct run two[2];
	int n = 0, rc;
	if ((rc = id_prefix(prefix, &ids, "run", e)) || (rc = st->ops->run_prefix(st, &ids, two, &n, e)))
		return rc;
	if (n == 0)
		return err_set(e, ST_NOTFOUND, "no run '%s'", prefix);
	if (n > 1) {
		run_free(&two[0]);
		run_free(&two[1]);
		return err_set(e, ST_REFUSED, "run id prefix '%s' is ambiguous; give more characters", prefix);
	}
	*r = two[0];
	return ST_OK;
}

/* ---- owners ---- */

int
owner_self(struct owner *o, struct err *e)
{
	memset(o, 0, sizeof *o);
	if (uuid4(o->id) != 0)
		return err_set(e, ST_ERR, "cannot make a process id: no randomness");
	if (gethostname(o->host, sizeof o->host - 1) != 0)
		snprintf(o->host, sizeof o->host, "localhost");
	if (proc_node_id(o->node, sizeof o->node) != 0)
		snprintf(o->node, sizeof o->node, "%.*s", (int)sizeof o->node - 1, o->host);
	o->pid = getpid();
	int64_t start;
	if (proc_start_time(getpid(), &start) != 0)
		return err_set(e, ST_ERR, "cannot read this process's start time from /proc");
	o->start = start;
	return ST_OK;
}

int
store_owner_start(struct store *st, const struct owner *o, struct err *e)
{
	st->self = *o;
	st->has_owner = 1;
	return st->ops->owner_start(st, e);
}

int
store_owner_beat(struct store *st, int *alive, struct err *e)
{
	*alive = 1;
	return st->ops->owner_beat(st, alive, e);
}

void
store_owner_stop(struct store *st)
{
	if (st->has_owner)
		st->ops->owner_stop(st);
	st->has_owner = 0;
}

/* ---- claims ---- */

void
due_cursor_init(struct due_cursor *c)
{
	c->due = INT64_MIN;
	c->id[0] = 0;
}

void
claimed_free(struct claimed *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		task_free(&c[i].task);
		run_free(&c[i].run);
	}
}

/* What becomes of a run's task when it ends, and of a late success's. */
struct end_rules {
	end_fn fn;
	late_fn late;
	void *arg;
};
/* The tasks a group of ends changed (w, each as read beside it in was),
 * when a claim writes them with its own: one statement for both. */
struct end_writes {
	struct task *t, *read;
	const struct task **w, **was;
	int *found;
	size_t n, nw;
};
static void end_writes_free(struct end_writes *ew);
static int ends_write(struct store *st, struct run_end *ends, size_t n, const struct end_rules *er,
    struct end_writes *keep, struct err *e);
static int tasks_put_many(struct store *st, const struct task *const *t,
    const struct task *const *before, size_t n, struct err *e);

/* What a claim decided for each task it read (the first n), the task as read
 * beside it where the backend writes only what changed. */
struct decided {
	struct task *read;
	struct run *runs;
	int *decision, *dup;
	int n;
};

/* The one run in flight of a task is on its row, set by the claim that
 * starts it and cleared by the write that ends it, so that a run's end
 * changes no indexed column of runs. */
static void
in_flight_set(struct task *t, const char *run_id)
{
	snprintf(t->run_in_flight, sizeof t->run_in_flight, "%s", run_id);
	t->run_in_flight_set = 1;
}

/* The end of r on its task t (held): no longer its run in flight, and its
 * last success if r succeeded; whether t changed. */
static int
task_run_ended(struct task *t, const struct run *r)
{
	int changed = 0;
	if (r->status == RUN_SUCCESS && r->ended_at != TIME_NONE &&
	    (t->last_success_at == TIME_NONE || r->ended_at > t->last_success_at)) {
		t->last_success_at = r->ended_at;
		changed = 1;
	}
	if (strcmp(t->run_in_flight, r->id) == 0) {
		in_flight_set(t, "");
		changed = 1;
	}
	return changed;
}

static int
decide(struct store *st, claim_fn fn, void *arg, struct task *tasks, const int *last, int got,
    struct decided *d, struct err *e)
{
	int rc = ST_OK;
	for (d->n = 0; !rc && d->n < got; d->n++) {
		int i = d->n;
		run_init(&d->runs[i]);
		d->decision[i] = CLAIM_SKIP;
		if (d->read)
			task_copy(&d->read[i], &tasks[i]);
		rc = fn(&tasks[i], last[i], &d->runs[i], &d->decision[i], arg, e);
		if (!rc && d->decision[i] == CLAIM_FIRE && !st->has_owner)
			rc = err_set(e, ST_ERR, "store '%s': starting a run needs a registered owner",
			    st->name);
		if (d->decision[i] == CLAIM_WRITE)
			d->runs[i].lease_until = TIME_NONE; /* a record: nothing runs */
	}
	return rc;
}

/* The runs decided: those fired, running under this process, and the
 * records written; dup[i] set for those a unique key refused and for
 * those fired whose task has a run in flight (held: the claim locked it). */
static int
insert_runs(struct store *st, const struct task *tasks, struct decided *d, struct err *e)
{
	const struct run **r = xcalloc((size_t)d->n, sizeof *r);
	int *running = xcalloc((size_t)d->n, sizeof *running), *dup = xcalloc((size_t)d->n, sizeof *dup);
	int *at = xcalloc((size_t)d->n, sizeof *at), m = 0, rc = ST_OK;
	for (int i = 0; i < d->n; i++) {
		d->dup[i] = d->decision[i] == CLAIM_FIRE && tasks[i].run_in_flight[0];
		if (d->dup[i])
			continue;
		if (d->decision[i] == CLAIM_FIRE || (d->decision[i] == CLAIM_WRITE && d->runs[i].id[0])) {
			r[m] = &d->runs[i];
			running[m] = d->decision[i] == CLAIM_FIRE;
			at[m++] = i;
		}
	}
	if (m > 1 && st->ops->runs_insert_many)
		rc = st->ops->runs_insert_many(st, r, running, (size_t)m, dup, e);
	else
		for (int k = 0; !rc && k < m; k++)
			rc = st->ops->run_insert(st, r[k], running[k], &dup[k], e);
	for (int k = 0; !rc && k < m; k++)
		d->dup[at[k]] = dup[k];
	free(r);
	free(running);
	free(dup);
	free(at);
	return rc;
}

/* The tasks decided written, with those of the ends before them, the
 * runs fired handed out (out, *n). */
static int
write_decided(struct store *st, struct task *tasks, struct decided *d, const struct end_writes *ew,
    struct claimed *out, int *n, struct err *e)
{
	const struct task **w = xcalloc((size_t)d->n + ew->nw + 1, sizeof *w);
	const struct task **was = xcalloc((size_t)d->n + ew->nw + 1, sizeof *was);
	int rc = ST_OK, batch = d->read != NULL;
	size_t nw = ew->nw;
	for (size_t i = 0; i < ew->nw; i++) {
		w[i] = ew->w[i];
		was[i] = ew->was[i];
	}
	for (int i = 0; !rc && i < d->n; i++) {
		int fired = d->decision[i] == CLAIM_FIRE && !d->dup[i];
		/* A fired occurrence that already has its run changes nothing. */
		int put = d->decision[i] != CLAIM_SKIP && !(d->decision[i] == CLAIM_FIRE && d->dup[i]);
		if (fired)
			in_flight_set(&tasks[i], d->runs[i].id);
		if (put && !batch)
			rc = task_put_plain(st, &tasks[i], e);
		if (put && batch)
			was[nw] = &d->read[i];
		if (!rc && fired) {
			out[*n].task = tasks[i];
			out[*n].run = d->runs[i];
			run_init(&d->runs[i]);
			task_init(&tasks[i]);
			if (put && batch)
				w[nw++] = &out[*n].task;
			(*n)++;
		} else if (put && batch) {
			w[nw++] = &tasks[i];
		}
	}
	if (!rc && nw)
		rc = tasks_put_many(st, w, was, nw, e);
	/* Copies handed out: a later write of one keeps the store's marker. */
	for (int i = 0; i < *n; i++)
		out[i].task.run_in_flight_set = 0;
	free(w);
	free(was);
	return rc;
}

#define READ_BACK_MS 10000   /* how long a claim whose commit went unanswered looks for its outcome */

/* A claim's commit whose connection broke (the server died or was
 * demoted): made or not, it is read back on the server that answers now
 * (the primary again, through the host list) before anything starts, by
 * one of its runs; rc, the commit's failure, when none was inserted or the
 * outcome stays unknown (its runs, if made, are then recovered as this
 * process's lost ones). */
static int
claim_read_back(struct store *st, const struct claimed *out, int n, int rc)
{
	/* The runs inserted were handed to out by write_decided. */
	const char *id = NULL;
	for (int i = 0; i < n && !id; i++)
		if (out[i].run.id[0])
			id = out[i].run.id;
	store_rollback(st);
	if (!id)
		return rc;
	struct err e2;
	/* Never past the store's deadline: a ticker's runs in flight are
	 * fenced then, which waiting here would delay. */
	int64_t until = mono_ms() + READ_BACK_MS;
	if (st->deadline_ms && st->deadline_ms < until)
		until = st->deadline_ms;
	for (;;) {
		struct run r;
		int got = store_run_get(st, id, &r, &e2);
		if (got == ST_OK) {
			run_free(&r);
			return ST_OK;
		}
		if (got == ST_NOTFOUND || mono_ms() >= until)
			return rc;
		struct timespec ts = {0, 250 * 1000000L};
		nanosleep(&ts, NULL);
	}
}

int
store_claim(struct store *st, const struct claim_req *req, claim_fn fn, void *arg,
    struct claimed *out, int *n, struct err *e)
{
	*n = 0;
	int cap = req->what == CLAIM_ONE ? 1 : req->max, got = 0;
	if (cap < 1)
		return ST_OK;
	struct task *tasks = xcalloc((size_t)cap, sizeof *tasks);
	int *last = xcalloc((size_t)cap, sizeof *last);
	int rc = unit_begin(st, 1, e), alive = 1;
	/* A sign of life in the same transaction: a process others declared
	 * dead (its runs recovered) claims nothing.  A claim that only looks
	 * (a dry run) needs no owner. */
	if (!rc && st->has_owner && !(rc = st->ops->owner_beat(st, &alive, e)) && !alive)
		rc = err_set(e, ST_REFUSED, "store '%s': this process was silent too long and declared"
		    " dead; it claims nothing under that identity", st->name);
	/* Ends first.  Their tasks are written with the claim's when it
	 * claims due tasks: none of theirs (still running in the store until
	 * then), and a task whose run ended is due to the next claim. */
	struct end_writes ew = {0};
	if (!rc && req->nends)
		rc = ends_write(st, req->ends, req->nends,
		    &(struct end_rules){req->end, req->late, req->end_arg},
		    req->what == CLAIM_DUE ? &ew : NULL, e);
	if (!rc)
		rc = st->ops->claim_scan(st, req, tasks, last, &got, e);
	/* The cursor moves past every task looked at, as it was read. */
	if (!rc && req->what == CLAIM_DUE && got) {
		req->cur->due = tasks[got - 1].due_at;
		memcpy(req->cur->id, tasks[got - 1].id, sizeof req->cur->id);
	}
	/* Every task decided, then their runs inserted and the tasks written,
	 * together where the backend can (only what changed, from the tasks
	 * as read). */
	size_t k = got > 0 ? (size_t)got : 1;
	int batch = got > 0 && st->ops->tasks_put_many;
	struct decided d = {
		.read = batch ? xcalloc(k, sizeof *d.read) : NULL, .runs = xcalloc(k, sizeof *d.runs),
		.decision = xcalloc(k, sizeof *d.decision), .dup = xcalloc(k, sizeof *d.dup),
	};
	if (!rc)
		rc = decide(st, fn, arg, tasks, last, got, &d, e);
	if (!rc)
		rc = insert_runs(st, tasks, &d, e);
	if (!rc)
		rc = write_decided(st, tasks, &d, &ew, out, n, e);
	end_writes_free(&ew);
	if (!rc && (rc = store_commit(st, e)) && st->commit_unknown)
		rc = claim_read_back(st, out, *n, rc);
	if (rc) {
		store_rollback(st);
		claimed_free(out, (size_t)*n);
		*n = 0;
	}
	for (int i = 0; i < d.n; i++) {
		run_free(&d.runs[i]);
		if (d.read)
			task_free(&d.read[i]);
	}
	for (int i = 0; i < got; i++)
		task_free(&tasks[i]);
	free(d.read);
	free(d.runs);
	free(d.decision);
	free(d.dup);
	free(tasks);
	free(last);
	return rc;
}

int
store_run_gate(struct store *st, const char *run_id, const char *model, int max_all,
    int max_model, int64_t lease, int *got, struct err *e)
{
	int own, rc = own_begin(st, &own, e);
	*got = 0;
	if (!rc)
		rc = st->ops->run_gate(st, run_id, model, max_all, max_model, lease, got, e);
	return own_end(st, own, rc, e);
}

int
store_due_next(struct store *st, int64_t *due, int *queued, struct err *e)
{
	*due = TIME_NONE;
	*queued = 0;
	return st->ops->due_next(st, due, queued, e);
}

/* What a late result looks like once recovery had ended its run. */
static char *
late_note(const struct run *r, int completed)
{
	char when[40];
	time_fmt_utc(r->ended_at, when, sizeof when);
	const char *err = r->error ? r->error : "";
	const char *out = r->output ? r->output : "";
	return xasprintf("late result, after the run had been recovered: %s at %s, exit %d, %lld ms%s%s%.*s%s%.*s",
	    run_status_name(r->status), when, r->exit_code, (long long)r->duration_ms,
	    completed ? "; it completed the occurrence, and the retry armed at recovery was cancelled" : "",
	    *err ? "; error: " : "", (int)strcspn(err, "\n"), err,
	    *out ? "; output: " : "", (int)(strlen(out) < 1024 ? strlen(out) : 1024), out);
}

/* After a run ended: its task as fn says, held and written. */
static int
task_after(struct store *st, const struct run *r, end_fn fn, void *arg, struct err *e)
{
	struct task t;
	int write = 0, rc = st->ops->task_get(st, r->task_id, &t, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	rc = fn(&t, r, &write, arg, e);
	if (!rc && (task_run_ended(&t, r) || write))
		rc = task_put_plain(st, &t, e);
	task_free(&t);
	return rc;
}

/* A late success whose recovery armed a retry that has not started (late
 * says, and puts the task back as the run found it): the occurrence did
 * run, so it completes as fn says of a success, and the retry is
 * cancelled.  *completed says whether it did. */
static int
late_success(struct store *st, const struct run *r, const struct end_rules *er, int *completed,
    struct err *e)
{
	struct task t;
	*completed = 0;
	if (!er->late)
		return ST_OK;
	int rc = st->ops->task_get(st, r->task_id, &t, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	if (er->late(&t, r, er->arg)) {
		int write = 0;
		rc = er->fn(&t, r, &write, er->arg, e);
		if (!rc && write)
			rc = task_put_plain(st, &t, e);
		*completed = !rc;
	}
	task_free(&t);
	return rc;
}

/* Tasks a claim or a group of ends wrote, together (the backend's batch). */
static int
tasks_put_many(struct store *st, const struct task *const *t, const struct task *const *before,
    size_t n, struct err *e)
{
	if (n == 1 && !(before && before[0]))
		return task_put_plain(st, t[0], e);
	int rc = n ? st->ops->tasks_put_many(st, t, before, n, e) : ST_OK;
	if (rc == ST_REFUSED)
		return err_set(e, rc, "store '%s': a task's key is already another's", st->name);
	return rc == ST_NOTFOUND ? err_set(e, rc, "store '%s': a task is gone", st->name) : rc;
}

/* Two ends of one task: their changes to it must be made one after the other. */
static int
same_task(const struct run_end *ends, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(ends[i].run->task_id, ends[j].run->task_id) == 0)
				return 1;
	return 0;
}

static void
end_writes_free(struct end_writes *ew)
{
	for (size_t i = 0; i < ew->n; i++) {
		if (ew->found[i])
			task_free(&ew->t[i]);
		task_free(&ew->read[i]);
	}
	free(ew->t);
	free(ew->read);
	free(ew->w);
	free(ew->was);
	free(ew->found);
	*ew = (struct end_writes){0};
}

/* ends_write in a few statements for the group: every run finished, and
 * the tasks of those still ours read and held, at once; fn on each, the
 * tasks it changed in ew, to write at once. */
static int
ends_write_many(struct store *st, struct run_end *ends, size_t n, const struct end_rules *er,
    struct end_writes *ew, struct err *e)
{
	ew->n = n;
	ew->t = xcalloc(n, sizeof *ew->t);
	ew->read = xcalloc(n, sizeof *ew->read);
	ew->w = xcalloc(n, sizeof *ew->w);
	ew->was = xcalloc(n, sizeof *ew->was);
	ew->found = xcalloc(n, sizeof *ew->found);
	int rc = st->ops->runs_finish_many(st, ends, n, ew->t, ew->found, e);
	for (size_t i = 0; !rc && i < n; i++) {
		int write = 0;
		if (!ew->found[i])
			continue;
		task_copy(&ew->read[i], &ew->t[i]);
		if (!(rc = er->fn(&ew->t[i], ends[i].run, &write, er->arg, e)) &&
		    (task_run_ended(&ew->t[i], ends[i].run) || write)) {
			ew->was[ew->nw] = &ew->read[i];
			ew->w[ew->nw++] = &ew->t[i];
		}
	}
	/* Late results: tasks of their own (two ends of one task are never
	 * in one group). */
	for (size_t i = 0; !rc && i < n; i++) {
		if (!ends[i].ours) {
			rc = late_success(st, ends[i].run, er, &ends[i].completed, e);
			char *note = rc ? NULL : late_note(ends[i].run, ends[i].completed);
			if (note)
				rc = st->ops->run_note(st, ends[i].run->id, note, e);
			free(note);
		}
	}
	return rc;
}

/* The ends of runs, inside the caller's unit of work. */
static int
ends_write(struct store *st, struct run_end *ends, size_t n, const struct end_rules *er,
    struct end_writes *keep, struct err *e)
{
	if (!st->has_owner)
		return err_set(e, ST_ERR, "store '%s': ending runs needs a registered owner", st->name);
	if (n > 1 && st->ops->runs_finish_many && !same_task(ends, n)) {
		struct end_writes mine = {0}, *ew = keep ? keep : &mine;
		int rc = ends_write_many(st, ends, n, er, ew, e);
		if (!keep && !rc)
			rc = tasks_put_many(st, ew->w, ew->was, ew->nw, e);
		end_writes_free(&mine);
		return rc;
	}
	int rc = ST_OK;
	for (size_t i = 0; !rc && i < n; i++) {
		ends[i].ours = 0;
		const char *owner = ends[i].owner ? ends[i].owner : st->self.id;
		if ((rc = st->ops->run_finish(st, ends[i].run, owner, &ends[i].ours, e)))
			break;
		if (ends[i].ours) {
			rc = task_after(st, ends[i].run, er->fn, er->arg, e);
		} else {
			rc = late_success(st, ends[i].run, er, &ends[i].completed, e);
			char *note = rc ? NULL : late_note(ends[i].run, ends[i].completed);
			if (note)
				rc = st->ops->run_note(st, ends[i].run->id, note, e);
			free(note);
		}
	}
	return rc;
}

int
store_runs_end(struct store *st, struct run_end *ends, size_t n, end_fn fn, late_fn late,
    void *arg, struct err *e)
{
	int rc = unit_begin(st, 1, e);
	if (!rc)
		rc = ends_write(st, ends, n, &(struct end_rules){fn, late, arg}, NULL, e);
	if (!rc)
		rc = store_commit(st, e);
	if (rc)
		store_rollback(st);
	return rc;
}

int
store_run_claims(struct store *st, int (*fn)(const struct run_claim *c, void *arg), void *arg,
    struct err *e)
{
	struct run_claim *all = NULL;
	size_t n = 0;
	/* Read whole first: fn writes. */
	int rc = st->ops->run_claims(st, &all, &n, e);
	for (size_t i = 0; !rc && i < n; i++)
		if (fn(&all[i], arg))
			break;
	free(all);
	return rc;
}

int
store_run_recover(struct store *st, const struct run_claim *c, int64_t stale_after,
    struct run *r, end_fn fn, void *arg, int *done, struct err *e)
{
	int dead = 1;
	*done = 0;
	int rc = store_begin(st, e);
	if (!rc && stale_after > 0)
		rc = st->ops->owner_bury(st, c->owner.id, stale_after, &dead, e);
	if (!rc && dead)
		rc = st->ops->run_finish(st, r, c->owner.id, done, e);
	if (!rc && *done)
		rc = task_after(st, r, fn, arg, e);
	if (!rc)
		rc = store_commit(st, e);
	if (rc) {
		store_rollback(st);
		*done = 0;
	}
	return rc;
}

/* ---- wake-ups ---- */

void
store_wake(struct store *st)
{
	st->ops->wake(st);
}

int
store_wake_fd(struct store *st, struct err *e)
{
	return st->ops->wake_fd(st, e);
}

int
store_wake_take(struct store *st)
{
	return st->ops->wake_take(st);
}

/* ---- conversations and model calls ---- */

void
history_free(struct history_msg *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].role);
		free(m[i].content);
		free(m[i].run_id);
	}
	free(m);
}

int
store_history_load(struct store *st, const char *context, size_t max, struct history_msg **out,
    size_t *n, struct err *e)
{
	struct history_msg *m = NULL;
	size_t len = 0;
	*out = NULL;
	*n = 0;
	int rc = st->ops->history_load(st, context, max, &m, &len, e);
	if (rc)
		return rc;
	for (size_t i = 0; i < len / 2; i++) {
		struct history_msg t = m[i];
		m[i] = m[len - 1 - i];
		m[len - 1 - i] = t;
	}
	/* A window cut in mid-exchange starts at its first user message:
	 * providers want the user to speak first. */
	size_t skip = 0;
	while (skip < len && (!m[skip].role || strcmp(m[skip].role, "user") != 0))
		skip++;
	for (size_t i = 0; i < skip; i++) {
		free(m[i].role);
		free(m[i].content);
		free(m[i].run_id);
	}
	if (skip)
		memmove(m, m + skip, (len - skip) * sizeof *m);
	len -= skip;
	if (!len) {
		free(m);
		m = NULL;
	}
	*out = m;
	*n = len;
	return ST_OK;
}

int
store_history_append(struct store *st, const char *context, const char *prompt,
    const char *answer, const char *run_id, int64_t now, struct err *e)
{
	int own, rc = own_begin(st, &own, e);
	if (!rc)
		rc = st->ops->history_add(st, context, "user", prompt, run_id, now, e);
	if (!rc)
		rc = st->ops->history_add(st, context, "assistant", answer, run_id, now, e);
	return own_end(st, own, rc, e);
}

int
store_history_clear(struct store *st, const char *context, long *n, struct err *e)
{
	long none;
	return st->ops->history_clear(st, context, n ? n : &none, e);
}

int
store_call_add(struct store *st, struct llm_call *c, struct err *e)
{
	/* The record and the ledger in one transaction: a prune of the one
	 * never takes from the other. */
	int own, rc = own_begin(st, &own, e);
	if (!rc)
		rc = st->ops->call_add(st, c, e);
	long long tokens = (c->input_tokens > 0 ? c->input_tokens : 0) +
	    (c->output_tokens > 0 ? c->output_tokens : 0) - c->ledger_tokens;
	double dollars = (c->cost > 0 ? c->cost : 0) - c->ledger_dollars;
	/* What the ledger has already is not counted twice. */
	if (!rc && (tokens > 0 || dollars > 0))
		rc = store_spend_add(st, c->task_id, c->run_id, c->created_at,
		    dollars > 0 ? dollars : 0, tokens > 0 ? tokens : 0, e);
	return own_end(st, own, rc, e);
}

int
store_spend_add(struct store *st, const char *task_id, const char *run_id, int64_t at,
    double dollars, long long tokens, struct err *e)
{
	int64_t bucket = at - (at % STORE_SPEND_BUCKET + STORE_SPEND_BUCKET) % STORE_SPEND_BUCKET;
	int own, rc = own_begin(st, &own, e);
	if (!rc)
		rc = st->ops->spend_add(st, task_id, run_id, bucket, dollars, tokens, e);
	return own_end(st, own, rc, e);
}

int
store_spend_read(struct store *st, const char *task_id, int64_t since, const char *except_run,
    double *dollars, long long *tokens, struct err *e)
{
	*dollars = 0;
	*tokens = 0;
	/* The ledger's grain: the quarter-hour that holds since counts whole. */
	if (since > INT64_MIN + STORE_SPEND_BUCKET)
		since -= (since % STORE_SPEND_BUCKET + STORE_SPEND_BUCKET) % STORE_SPEND_BUCKET;
	return st->ops->spend_read(st, task_id, since, except_run, dollars, tokens, e);
}

int
store_reserve(struct store *st, const char *run_id, const char *task_id, double dollars,
    long long tokens, struct err *e)
{
	return st->ops->reserve(st, run_id, task_id, dollars, tokens, e);
}

int
store_run_cost(struct store *st, const char *task_id, double *dollars, long long *tokens,
    int *known, struct err *e)
{
	*dollars = 0;
	*tokens = 0;
	*known = 0;
	return st->ops->run_cost(st, task_id, dollars, tokens, known, e);
}

int
store_call_list(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e)
{
	return st->ops->call_list(st, run_id, task_id, limit, fn, arg, e);
}

int
store_call_spend(struct store *st, const char *task_id, int64_t since, double *dollars,
    long long *tokens, struct err *e)
{
	*dollars = 0;
	*tokens = 0;
	return st->ops->call_spend(st, task_id, since, dollars, tokens, e);
}

int
store_others_wrote(struct store *st, int64_t *version, struct err *e)
{
	*version = -1;
	return st->ops->others_wrote ? st->ops->others_wrote(st, version, e) : ST_OK;
}

int
store_call_usage(struct store *st, int64_t since, call_usage_fn fn, void *arg, struct err *e)
{
	return st->ops->call_usage(st, since, fn, arg, e);
}

void
llm_call_free(struct llm_call *c)
{
	free(c->run_id);
	free(c->task_id);
	free(c->context);
	free(c->provider);
	free(c->model);
	free(c->answered_model);
	free(c->fallback_from);
	free(c->system_prompt);
	free(c->prompt);
	free(c->answer);
	free(c->finish_reason);
	free(c->error);
	free(c->tool_calls);
	free(c->request);
	memset(c, 0, sizeof *c);
}
