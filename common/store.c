/* The store's front: opening picks the backend; tasks, runs, owners and
 * wake-ups, each from the backend's primitives.  What is not storage (id
 * prefixes, messages) is here, so both backends behave alike.  Units of
 * work, and claims, ends of runs and recovery built in them:
 * store_claim.c; conversations, model calls and the spend ledger:
 * store_calls.c. */
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
#include "chain_link.h"
#include "store_backend.h"

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

/* The store cf names when TASK_DB does not, else the default. */
static void
where_in(const struct config *cf, char *buf, size_t n)
{
	const char *env = getenv("TASK_DB"), *db = cf ? config_get(cf, "db") : NULL;
	if (!(env && *env) && db && *db)
		snprintf(buf, n, "%s", db);
	else
		store_default_path(buf, n);
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
	}
	where_in(cf, buf, n);
	config_free(cf);
	return ST_OK;
}

/* The kinds of store, one row each: the first row that claims a place
 * opens it, so another backend is one more row.  Each opener fills st->ops
 * with its operations (store_backend.h). */
struct backend {
	int (*claims)(const char *where);  /* NULL in the last row: it takes the rest */
	int (*open)(struct store *st, const char *where, struct err *e);
	/* Nothing stored at where yet, known without opening it; NULL: cannot tell. */
	int (*none_at)(const char *where);
	void (*locator)(const char *where, char *buf, size_t n); /* where, for TASK_DB and messages */
	const char *in_memory;    /* where an empty store of this kind lives in memory, or NULL */
	int server;               /* a database server that several hosts may share */
	/* store_open_pass's: open, unless the idle note holds (*done) */
	int (*open_pass)(struct store *st, const char *where, const char *cfg, int64_t now, int *done,
	    struct err *e);
};

static int
pg_claims(const char *where)
{
	return strncmp(where, "postgres://", 11) == 0 || strncmp(where, "postgresql://", 13) == 0 ||
	    pg_conninfo_is(where);
}

static int
no_file(const char *where)
{
	struct stat sb;
	return stat(where, &sb) != 0 && errno == ENOENT;
}

static void
path_locator(const char *where, char *buf, size_t n)
{
	char cwd[PATH_MAX];
	if (where[0] != '/' && strcmp(where, ":memory:") != 0 && getcwd(cwd, sizeof cwd))
		snprintf(buf, n, "%s/%s", cwd, where);
	else
		snprintf(buf, n, "%s", where);
}

static const struct backend backends[] = {
	/* PostgreSQL: a postgres:// URI or a "key=value" connection string */
	{pg_claims, store_pg_open, NULL, pg_uri_mask, NULL, 1, store_pg_open_pass},
	/* SQLite: any other place is a file's path; the last row takes what none claims */
	{NULL, store_sqlite_open, no_file, path_locator, ":memory:", 0, store_sqlite_open_pass},
};

static const struct backend *
backend_of(const char *where)
{
	size_t n = sizeof backends / sizeof backends[0];
	size_t i = 0;
	while (i + 1 < n && !backends[i].claims(where))
		i++;
	return &backends[i];
}

/* An empty store in memory: what a read finds where nothing is stored. */
static int
standin_open(struct store *st, struct err *e)
{
	for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
		if (backends[i].in_memory)
			return backends[i].open(st, backends[i].in_memory, e);
	return err_set(e, ST_ERR, "no store can live in memory");
}

int
store_is_uri(const char *where)
{
	return backend_of(where)->server;
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
	const struct backend *b = backend_of(where);
	/* Nothing to read is an empty store, and a read creates nothing. */
	if ((flags & STORE_READ) && b->none_at && b->none_at(where)) {
		rc = standin_open(st, e);
		if (!rc) {
			set_str(&st->name, where);
			set_str(&st->locator, where);
			set_str(&st->standin, where);
		}
	} else {
		rc = b->open(st, where, e);
	}
	if (rc == ST_NOTFOUND && (flags & STORE_READ)) {
		/* A database without our schema yet, read without creating it. */
		char *name = st->name, *locator = st->locator;
		st->name = st->locator = NULL;
		if (st->ops)
			st->ops->close(st);
		st->ops = NULL;
		rc = standin_open(st, e);
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

int
store_open_pass(const struct config *cf, int cron, int64_t now, struct store **out,
    struct err *e)
{
	char where[PATH_MAX];
	where_in(cf, where, sizeof where);
	*out = NULL;
	if (!cron)
		return store_open(where, 0, out, e);
	struct store *st = xcalloc(1, sizeof *st);
	int done = 0, rc = backend_of(where)->open_pass(st, where, config_path(cf), now, &done, e);
	if (rc || done)
		store_close(st);
	else
		*out = st;
	return rc;
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
	zones_free(st->audit_zones);
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
	int rc = backend_of(where)->open(st, where, e);
	if (rc) {
		st->standin = where;
		standin_open(st, NULL);
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
	backend_of(where)->locator(where, buf, n);
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
	return st->ops->durability && !st->standin ? st->ops->durability(st, off, n, e) : ST_OK;
}

int
store_async_standbys(struct store *st, long *n, struct err *e)
{
	*n = 0;
	return st->ops->async_standbys && !st->standin ? st->ops->async_standbys(st, n, e) : ST_OK;
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

/* ---- tasks ---- */

/* The audit trail's steps, where the layer above installed them
 * (store_audit_by). */
static int
audit_task(struct store *st, const struct task *a, const struct task *b, struct err *e)
{
	return st->audit ? st->audit->task(st, a, b, e) : ST_OK;
}

static int
audit_note(struct store *st, const char *action, const char *task_id, struct err *e)
{
	return st->audit ? st->audit->note(st, action, task_id, NULL, NULL, e) : ST_OK;
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
	int own, rc = store_own_begin(st, &own, e);
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
			return store_own_end(st, own, ST_OK, e);
		}
	}
	if (!rc && !t->id[0] && uuid4(t->id) != 0)
		rc = err_set(e, ST_ERR, "cannot generate a task id: %s", strerror(errno));
	if (t->after)
		st->unfollowed = 0;
	if (!rc && (rc = st->ops->task_insert(st, t, e)) == ST_REFUSED)
		err_set(e, rc, "a task with id '%s' or key '%s' already exists", t->id, t->key ? t->key : "");
	if (!rc)
		rc = audit_task(st, NULL, t, e);
	return store_own_end(st, own, rc, e);
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
	} else if (n == 1 && len < 36) {
		/* A name that is also the start of another task's id names
		 * neither: picking one would be a guess ("c155", "2024"). */
		char other[1][37];
		int m = 0;
		if ((rc = by_name(st, prefix, trashed, other, 1, &m, e)))
			return rc;
		if (m && strcmp(other[0], found[0]) != 0)
			return err_set(e, ST_REFUSED, "'%s' is the name of task %s and the start of task"
			    " %s's id; give the id you mean", prefix, other[0], found[0]);
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

int
store_task_look(struct store *st, const char *id, struct task *t, struct err *e)
{
	return no_task((st->ops->task_look ? st->ops->task_look : st->ops->task_get)(st, id, t, e), id, e);
}

int
store_task_put(struct store *st, const struct task *t, struct err *e)
{
	if (t->after)
		st->unfollowed = 0;
	if (!st->audit_actor)
		return store_task_put_plain(st, t, e);
	struct task old;
	int own, got = 0, rc = store_own_begin(st, &own, e);
	if (!rc && !(rc = st->ops->task_get(st, t->id, &old, e)))
		got = 1;
	if (!rc)
		rc = store_task_put_plain(st, t, e);
	if (!rc)
		rc = audit_task(st, &old, t, e);
	if (got)
		task_free(&old);
	return store_own_end(st, own, no_task(rc, t->id, e), e);
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

struct orphan_ctx {
	struct store *st;
	const char *upstream, *name;
	int64_t now;
	int rc;
	struct err *e;
};

static int
orphan(const char *id, const char *after, int enabled, void *arg)
{
	struct orphan_ctx *x = arg;
	struct chain_link links[CHAIN_MAX];
	size_t n = 0;
	struct err le;
	int match = 0;
	if (!enabled || chain_links(after, links, CHAIN_MAX, &n, &le))
		return 0;
	for (size_t i = 0; i < n; i++)
		match |= strcmp(links[i].ref, x->upstream) == 0;
	if (!match)
		return 0;
	struct task t;
	if ((x->rc = store_task_get(x->st, id, &t, x->e)))
		return 1;
	t.enabled = 0;
	char *why = store_orphaned_why(x->name);
	set_str(&t.paused, why);
	free(why);
	t.updated_at = x->now;
	x->rc = store_task_put(x->st, &t, x->e);
	task_free(&t);
	return x->rc != ST_OK;
}

/* upstream (named name) was deleted: its followers are disabled with the
 * reason, inside the caller's unit of work. */
static int
orphan_followers(struct store *st, const char *upstream, const char *name, int64_t now,
    struct err *e)
{
	struct orphan_ctx x = {st, upstream, name, now, ST_OK, e};
	int rc = store_followers(st, upstream, orphan, &x, e);
	return x.rc ? x.rc : rc;
}

int
store_task_trash(struct store *st, const char *id, int64_t now, struct err *e)
{
	/* Its followers are disabled with it, saying why. */
	struct task t;
	int own, rc = store_own_begin(st, &own, e), got = 0;
	if (!rc && !(rc = st->ops->task_get(st, id, &t, e)))
		got = 1;
	if (!rc)
		rc = st->ops->task_trash(st, id, now, e);
	if (!rc)
		rc = audit_task(st, &t, NULL, e);
	if (!rc)
		rc = orphan_followers(st, id, t.name ? t.name : id, now, e);
	if (got)
		task_free(&t);
	return store_own_end(st, own, no_task(rc, id, e), e);
}

int
store_trash_restore(struct store *st, const char *id, char restored[37], struct err *e)
{
	int own, rc = store_own_begin(st, &own, e);
	if (!rc)
		rc = st->ops->trash_restore(st, id, restored, e);
	if (!rc)
		rc = audit_note(st, "restore", restored, e);
	rc = store_own_end(st, own, rc, e);
	if (rc == ST_REFUSED)
		return err_set(e, rc, "cannot restore '%s': a live task has the same key",
		    id ? id : "the latest deletion");
	if (rc == ST_NOTFOUND)
		return id ? err_set(e, rc, "no task '%s' in the trash", id)
			  : err_set(e, rc, "the trash is empty");
	return rc;
}

int
store_trash_purge(struct store *st, long *n, struct err *e)
{
	/* Their runs go with them; their model calls and the totals of both
	 * are the history's (store_history.h). */
	int own, rc = store_own_begin(st, &own, e);
	if (!rc && st->audit_actor && st->audit)
		rc = st->audit->purge(st, e);
	if (!rc)
		rc = st->ops->history->forget_trash(st, e);
	if (!rc)
		rc = st->ops->trash_purge(st, n, e);
	return store_own_end(st, own, rc, e);
}

int
store_task_queue(struct store *st, const char *id, int64_t now, struct err *e)
{
	if (!st->audit_actor)
		return no_task(st->ops->task_queue(st, id, now, e), id, e);
	int own, rc = store_own_begin(st, &own, e);
	if (!rc)
		rc = no_task(st->ops->task_queue(st, id, now, e), id, e);
	if (!rc)
		rc = audit_note(st, "run", id, e);
	return store_own_end(st, own, rc, e);
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
store_owner_sign(struct store *st, struct owner *self, int *renewed, struct err *e)
{
	int alive = 1, rc = st->ops->owner_beat(st, &alive, e);
	*renewed = !rc && !alive;
	if (rc || alive)
		return rc;
	return (rc = owner_self(self, e)) ? rc : store_owner_start(st, self, e);
}

void
store_owner_stop(struct store *st)
{
	if (st->has_owner)
		st->ops->owner_stop(st);
	st->has_owner = 0;
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
