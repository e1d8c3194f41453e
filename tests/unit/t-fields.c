/* Every field of the tables of common/task_fields.c, through JSON and
 * through the store TASK_DB names (a file in the suite's SQLite pass, a
 * PostgreSQL database in its PostgreSQL pass: tests/0211-store-fields.t).
 * Each field is given a value unlike its default, chosen by its type, and
 * must come back as it went: added, read, listed, claimed and updated, so a
 * field is covered as soon as it is in its table, and one a backend drops
 * fails here.  Values this agentcron cannot read are written back as
 * stored. */
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_backend.h"
#include "tap.h"
#include "task_fields.h"
#include "task_json.h"

#define NTASKS 4 /* one of each kind with instants, expressions or an interval */
static const int kinds[NTASKS] = {KIND_CRON, KIND_AT, KIND_PLAN, KIND_EVERY};
static const int64_t base = 1795000000;

/* The fields of an interval, which only a task of that kind has. */
static int
interval_field(const struct field *f)
{
	return f->json && (strcmp(f->json, "every") == 0 || strcmp(f->json, "anchor") == 0);
}

/* A value of f unlike the default in dflt (variant v: another such value). */
static int
fill(const struct field *f, void *obj, const void *dflt, size_t i, int v)
{
	char s[64];
	if (interval_field(f))
		return 1; /* the task's schedule, set by the caller */
	snprintf(s, sizeof s, "f%zu-v%d \xc3\xa9\t'x'", i, v);
	switch (f->type) {
	case FT_ID: snprintf(FIELD_OF(obj, f, char), f->size, "%08zx-0000-4000-8000-%012d", i, v); break;
	case FT_STR: set_str(FIELD_OF(obj, f, char *), s); break;
	case FT_CHARS: snprintf(FIELD_OF(obj, f, char), f->size, "c%zu-%d", i, v); break;
	case FT_INT: *FIELD_OF(obj, f, int) = 1000 + 10 * (int)i + v; break;
	case FT_BOOL: *FIELD_OF(obj, f, int) = !*CFIELD_OF(dflt, f, int); break;
	case FT_OPT_INT: *FIELD_OF(obj, f, int) = 100 + (int)i + v; break;
	case FT_OPT_I64: *FIELD_OF(obj, f, int64_t) = 1000000000000 + (int64_t)i + v; break;
	case FT_TIME: *FIELD_OF(obj, f, int64_t) = base + 3600 * (int64_t)i + 60 * v; break;
	case FT_ENUM: {
		int d = *CFIELD_OF(dflt, f, int), w = 0;
		while (w == d || (v && w == d + 1))
			w++;
		if (strcmp(f->names->name(w), "unknown") == 0)
			w = d;
		*FIELD_OF(obj, f, int) = w;
		break;
	}
	case FT_ARRAY:
	case FT_OBJECT:
		snprintf(s, sizeof s, f->type == FT_ARRAY ? "[\"a%zu\",%d]" : "{\"k%zu\":%d}", i, v);
		set_str(FIELD_OF(obj, f, char *), s);
		break;
	case FT_PLAN:
	case FT_AT:
	case FT_CRONS:
	case FT_DESCRIPTION:
	case FT_DEDUP:
		break; /* the task's schedule, set by the caller; derived */
	default:
		return check(0, "field %s: no value for its type %d", f->json ? f->json : f->column,
		    f->type);
	}
	return 1;
}

static const char *
label(const struct field *f)
{
	return f->json ? f->json : f->column;
}

/* f of a and b are equal; says how they differ in *why. */
static int
same(const struct field *f, const void *a, const void *b, char *why, size_t n)
{
	const struct task *ta = a, *tb = b;
	int eq = 1;
	switch (f->type) {
	case FT_ID:
	case FT_CHARS:
		eq = strcmp(CFIELD_OF(a, f, char), CFIELD_OF(b, f, char)) == 0;
		snprintf(why, n, "'%s' and '%s'", CFIELD_OF(a, f, char), CFIELD_OF(b, f, char));
		break;
	case FT_STR:
	case FT_ARRAY:
	case FT_OBJECT: {
		const char *x = *CFIELD_OF(a, f, char *), *y = *CFIELD_OF(b, f, char *);
		eq = x && y ? strcmp(x, y) == 0 : x == y;
		snprintf(why, n, "'%s' and '%s'", x ? x : "(null)", y ? y : "(null)");
		break;
	}
	case FT_INT:
	case FT_BOOL:
	case FT_OPT_INT:
	case FT_ENUM:
		eq = *CFIELD_OF(a, f, int) == *CFIELD_OF(b, f, int);
		snprintf(why, n, "%d and %d", *CFIELD_OF(a, f, int), *CFIELD_OF(b, f, int));
		break;
	case FT_OPT_I64:
	case FT_TIME:
		eq = *CFIELD_OF(a, f, int64_t) == *CFIELD_OF(b, f, int64_t);
		snprintf(why, n, "%lld and %lld", (long long)*CFIELD_OF(a, f, int64_t),
		    (long long)*CFIELD_OF(b, f, int64_t));
		break;
	case FT_PLAN:
		eq = ta->nplan == tb->nplan && (!ta->nplan ||
		    memcmp(ta->plan, tb->plan, ta->nplan * sizeof *ta->plan) == 0);
		snprintf(why, n, "%zu and %zu instants", ta->nplan, tb->nplan);
		break;
	default:
		snprintf(why, n, "derived");
		break;
	}
	return eq;
}

enum { VIA_JSON_IN, VIA_JSON_OUT, VIA_STORE };

/* Has f a member that a path carries: JSON printed, JSON read (F_IN), or
 * the store (a column read back)? */
static int
carried(const struct field *f, int via)
{
	if (f->type == FT_AT || f->type == FT_DESCRIPTION || f->type == FT_DEDUP)
		return 0;
	switch (via) {
	case VIA_JSON_IN: return f->json && (f->flags & F_IN);
	case VIA_JSON_OUT: return f->json && f->type != FT_PLAN;
	default: return field_in(f, COLS_READ) || field_in(f, COLS_LARGE);
	}
}

/* got[k] equals want[k] in every field a path carries, one check a field. */
static void
check_fields(const struct fields *fs, const void *want, const void *got, size_t size, int n,
    int via, const char *path)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct field *f = &fs->f[i];
		if (!carried(f, via))
			continue;
		char why[256] = "";
		int ok = 1;
		for (int k = 0; k < n && ok; k++)
			ok = same(f, (const char *)want + k * size, (const char *)got + k * size, why,
			    sizeof why);
		if (!check(ok, "%s: %s", path, label(f)))
			printf("#   want and got: %s\n", why);
	}
}

/* The JSON value v of f, read here by its type, into obj: what was printed,
 * whether or not the codec reads it back. */
static void
printed(const struct field *f, const cJSON *v, void *obj)
{
	const char *s = cJSON_IsString(v) ? v->valuestring : NULL;
	double d = cJSON_IsNumber(v) ? v->valuedouble : -1;
	switch (f->type) {
	case FT_ID:
	case FT_CHARS: snprintf(FIELD_OF(obj, f, char), f->size, "%s", s ? s : ""); break;
	case FT_STR: set_str(FIELD_OF(obj, f, char *), s); break;
	case FT_INT:
	case FT_OPT_INT: *FIELD_OF(obj, f, int) = (int)d; break;
	case FT_BOOL: *FIELD_OF(obj, f, int) = cJSON_IsTrue(v); break;
	case FT_OPT_I64: *FIELD_OF(obj, f, int64_t) = (int64_t)d; break;
	case FT_TIME:
		if (!s || time_parse_rfc3339(s, FIELD_OF(obj, f, int64_t)))
			*FIELD_OF(obj, f, int64_t) = TIME_NONE;
		break;
	case FT_ENUM: *FIELD_OF(obj, f, int) = s ? f->names->parse(s) : -2; break;
	case FT_CRONS: {
		/* Several expressions: cron printed the first, crons has them all. */
		struct task *t = obj;
		const cJSON *it;
		struct buf b = {0};
		cJSON_ArrayForEach(it, v) buf_printf(&b, "%s%s", b.len ? "; " : "", it->valuestring);
		if (b.len) {
			free(t->cron);
			t->cron = b.data;
		}
		break;
	}
	case FT_ARRAY:
	case FT_OBJECT:
		free(*FIELD_OF(obj, f, char *));
		*FIELD_OF(obj, f, char *) = cJSON_IsNull(v) ? NULL : cJSON_PrintUnformatted(v);
		break;
	default:
		break;
	}
}

/* j holds every JSON field of fs, in the table's order, and nothing else
 * (those it leaves out when none may be missing); what it prints of each
 * goes into out. */
static int
read_printed(const struct fields *fs, const cJSON *j, void *out)
{
	const cJSON *it = j ? j->child : NULL;
	int in_order = 1;
	for (size_t i = 0; i < fs->n; i++) {
		const struct field *f = &fs->f[i];
		if (!f->json || ((f->flags & F_OMIT) && (!it || strcmp(it->string, f->json) != 0)))
			continue;
		in_order &= it && strcmp(it->string, f->json) == 0;
		if (it)
			printed(f, it, out);
		it = it ? it->next : NULL;
	}
	return in_order && !it;
}

/* Task k: every field of the table unlike a new task's, its schedule of
 * kind kinds[k]; variant v another such set. */
static void
task_make(struct task *t, int k, int v)
{
	struct task dflt;
	task_init(&dflt);
	task_init(t);
	for (size_t i = 0; i < task_fields.n; i++)
		fill(&task_fields.f[i], t, &dflt, i, v);
	snprintf(t->id, sizeof t->id, "0000000%d-0000-4000-8000-00000000000%d", k, v);
	t->run_in_flight_set = 1; /* written, as by a claim */
	t->kind = kinds[k];
	set_str(&t->tz, v ? "Asia/Tokyo" : "Europe/Paris");
	set_str(&t->cron, t->kind == KIND_CRON ? (v ? "30 8 * * 1; 0 9 * * 6" : "0 7 * * *") : NULL);
	if (t->kind == KIND_EVERY) {
		t->every = 5400 + 60 * v;
		t->anchor = base + 60 * v;
	}
	t->nplan = t->kind == KIND_AT ? 1 : t->kind == KIND_PLAN ? 3 : 0;
	t->plan = t->nplan ? xcalloc(t->nplan, sizeof *t->plan) : NULL;
	for (size_t i = 0; i < t->nplan; i++)
		t->plan[i] = base + 86400 * (int64_t)(i + 1) + 60 * v;
	task_free(&dflt);
}

static void
test_task_json(const struct task *want, struct zones *zs)
{
	struct task got[NTASKS], out[NTASKS];
	for (int k = 0; k < NTASKS; k++) {
		cJSON *j = task_to_json(&want[k], zs);
		struct err e;
		task_init(&got[k]);
		task_init(&out[k]);
		if (!check(task_from_json(j, &got[k], base, zs, 0, &e) == ST_OK, "task %d from its JSON", k))
			printf("#   %s\n", e.msg);
		check(read_printed(&task_fields, j, &out[k]), "task %d JSON: the table's fields in order", k);
		cJSON_Delete(j);
	}
	check_fields(&task_fields, want, out, sizeof *out, NTASKS, VIA_JSON_OUT, "task JSON printed");
	check_fields(&task_fields, want, got, sizeof *got, NTASKS, VIA_JSON_IN, "task JSON read");
	for (int k = 0; k < NTASKS; k++) {
		task_free(&got[k]);
		task_free(&out[k]);
	}
}

static void
run_make(struct run *r, const char *task_id, int v)
{
	struct run dflt;
	run_init(&dflt);
	run_init(r);
	for (size_t i = 0; i < run_fields.n; i++)
		fill(&run_fields.f[i], r, &dflt, i, v);
	snprintf(r->task_id, sizeof r->task_id, "%s", task_id);
	run_free(&dflt);
}

static void
test_run_json(const struct run *want)
{
	cJSON *j = run_to_json(want);
	struct run got, out;
	struct err e;
	run_init(&out);
	if (!check(run_from_json(j, &got, &e) == ST_OK, "a run from its JSON"))
		printf("#   %s\n", e.msg);
	else
		check_fields(&run_fields, want, &got, sizeof got, 1, VIA_JSON_IN, "run JSON read");
	check(read_printed(&run_fields, j, &out), "run JSON: the table's fields in order");
	check_fields(&run_fields, want, &out, sizeof out, 1, VIA_JSON_OUT, "run JSON printed");
	run_free(&got);
	run_free(&out);
	cJSON_Delete(j);
}

/* ---- the store ---- */

struct seen {
	struct task *t;            /* NTASKS, by position of their ids in want */
	const struct task *want;
};

static int
keep_listed(const struct task *t, void *arg)
{
	struct seen *s = arg;
	for (int k = 0; k < NTASKS; k++)
		if (strcmp(t->id, s->want[k].id) == 0) {
			task_free(&s->t[k]);
			task_copy(&s->t[k], t);
		}
	return 0;
}

static int
keep_claimed(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	(void)last_attempt, (void)r, (void)e;
	*decision = CLAIM_SKIP;
	return keep_listed(t, arg);
}

static void
get_all(struct store *st, const struct task *want, struct task *got, const char *path)
{
	for (int k = 0; k < NTASKS; k++) {
		struct err e;
		if (!check(store_task_get(st, want[k].id, &got[k], &e) == ST_OK, "%s: task %d read", path, k)) {
			printf("#   %s\n", e.msg);
			task_init(&got[k]);
		}
	}
	check_fields(&task_fields, want, got, sizeof *got, NTASKS, VIA_STORE, path);
	for (int k = 0; k < NTASKS; k++)
		task_free(&got[k]);
}

/* Written with a value this agentcron does not know, each field that
 * keeps what is stored keeps it. */
static void
test_keeps(struct store *st, const struct task *stored)
{
	for (size_t i = 0; i < task_fields.n; i++) {
		const struct field *f = &task_fields.f[i];
		if (!field_keeps(f))
			continue;
		struct task t[NTASKS];
		struct err e;
		int ok = 1;
		for (int k = 0; k < NTASKS; k++) {
			task_copy(&t[k], &stored[k]);
			if (f->type == FT_ENUM)
				*FIELD_OF(&t[k], f, int) = -1;
			else if (f->type == FT_PLAN)
				t[k].nplan = 0;
			else if (f->flags & F_GUARD) {
				/* Not a claim's or an end's write: the store's stands. */
				snprintf(FIELD_OF(&t[k], f, char), f->size, "not written");
				t[k].run_in_flight_set = 0;
			}
			ok &= store_task_put(st, &t[k], &e) == ST_OK;
			task_free(&t[k]);
		}
		check(ok, "task store: written with %s unknown", label(f));
		char path[64];
		snprintf(path, sizeof path, "task store: %s unknown, kept", label(f));
		get_all(st, stored, t, path);
	}
}

/* Field f of to as in from. */
static void
field_copy(const struct field *f, struct task *to, const struct task *from)
{
	if (f->type == FT_PLAN) {
		free(to->plan);
		to->nplan = from->nplan;
		to->plan = from->nplan ? xcalloc(from->nplan, sizeof *to->plan) : NULL;
		if (from->nplan)
			memcpy(to->plan, from->plan, from->nplan * sizeof *to->plan);
	} else if (field_is_text(f)) {
		set_str(FIELD_OF(to, f, char *), *CFIELD_OF(from, f, char *));
	} else {
		memcpy((char *)to + f->off, (const char *)from + f->off, f->size);
	}
}

/* A backend that writes several tasks at once from the tasks as read
 * writes only the columns that changed: task k changes stored field
 * j + k, so each round writes the union of four, and over the rounds each
 * field changes alone in one task; then a write that changes nothing. */
static void
test_changed_only(struct store *st, const struct task *stored, const struct task *other)
{
	if (!st->ops->tasks_put_many)
		return; /* a backend without it writes a task's row whole */
	const struct field *fs[ROW_MAX];
	size_t nf = 0;
	for (size_t i = 0; i < task_fields.n; i++) {
		const struct field *f = &task_fields.f[i];
		if (field_in(f, COLS_WRITE) && f->type != FT_ID && f->type != FT_DEDUP)
			fs[nf++] = f;
	}
	struct task was[NTASKS], now[NTASKS], got[NTASKS];
	const struct task *pw[NTASKS], *pn[NTASKS];
	for (int k = 0; k < NTASKS; k++) {
		task_copy(&was[k], &stored[k]);
		pw[k] = &was[k];
		pn[k] = &now[k];
	}
	for (size_t j = 0; j <= nf; j++) {
		struct err e;
		for (int k = 0; k < NTASKS; k++) {
			task_copy(&now[k], &was[k]);
			if (j < nf)
				field_copy(fs[(j + (size_t)k) % nf], &now[k], &other[k]);
		}
		char path[96];
		snprintf(path, sizeof path, "task store: changed only %s and three more, written",
		    j < nf ? label(fs[j]) : "nothing");
		if (!check(st->ops->tasks_put_many(st, pn, pw, NTASKS, &e) == ST_OK, "%s", path))
			printf("#   %s\n", e.msg);
		get_all(st, now, got, path);
		for (int k = 0; k < NTASKS; k++) {
			task_free(&was[k]);
			was[k] = now[k];
		}
	}
	for (int k = 0; k < NTASKS; k++)
		task_free(&was[k]);
}

/* A twin (FT_DEDUP) of a pending task is found, not added. */
static void
test_twin(struct store *st, const struct task *want, char id[37])
{
	struct task a, b;
	struct err e;
	int dup = 0;
	char dup_id[37] = "";
	task_copy(&a, want);
	a.deleted_at = TIME_NONE;
	a.status = STATUS_PENDING;
	a.run_in_flight[0] = 0;
	set_str(&a.key, NULL);
	snprintf(a.id, sizeof a.id, "%s", "0000000a-0000-4000-8000-000000000000");
	task_copy(&b, &a);
	b.id[0] = 0;
	check(store_task_add(st, &a, 1, &dup, dup_id, &e) == ST_OK && !dup, "task store: a pending task");
	check(store_task_add(st, &b, 1, &dup, dup_id, &e) == ST_OK && dup && strcmp(dup_id, a.id) == 0,
	    "task store: its twin is found by the stored dedup key");
	memcpy(id, a.id, 37);
	task_free(&a);
	task_free(&b);
}

static void
test_task_store(struct store *st, const struct task *want)
{
	struct task got[NTASKS], next[NTASKS];
	struct err e;
	int dup;
	char dup_id[37];
	for (int k = 0; k < NTASKS; k++) {
		struct task t;
		task_copy(&t, &want[k]);
		if (!check(store_task_add(st, &t, 0, &dup, dup_id, &e) == ST_OK, "task store: task %d added", k))
			printf("#   %s\n", e.msg);
		task_free(&t);
	}
	get_all(st, want, got, "task store: added, read");
	/* The filler's deleted_at puts them in the trash. */
	struct task_filter f;
	task_filter_init(&f);
	f.trashed = 1;
	struct seen seen = {got, want};
	for (int k = 0; k < NTASKS; k++)
		task_init(&got[k]);
	check(store_task_list(st, &f, keep_listed, &seen, &e) == ST_OK, "task store: listed");
	check_fields(&task_fields, want, got, sizeof *got, NTASKS, VIA_STORE, "task store: listed");
	for (int k = 0; k < NTASKS; k++) {
		int n = 0;
		struct claim_req req = {.what = CLAIM_ONE, .id = want[k].id};
		task_free(&got[k]);
		task_init(&got[k]);
		check(store_claim(st, &req, keep_claimed, &seen, NULL, &n, &e) == ST_OK, "task store:"
		    " task %d claimed", k);
	}
	check_fields(&task_fields, want, got, sizeof *got, NTASKS, VIA_STORE, "task store: claimed");
	for (int k = 0; k < NTASKS; k++) {
		task_free(&got[k]);
		task_make(&next[k], k, 1);
		memcpy(next[k].id, want[k].id, sizeof next[k].id);
		if (!check(store_task_put(st, &next[k], &e) == ST_OK, "task store: task %d updated", k))
			printf("#   %s\n", e.msg);
	}
	get_all(st, next, got, "task store: updated, read");
	test_keeps(st, next);
	test_changed_only(st, next, want);
	for (int k = 0; k < NTASKS; k++)
		task_free(&next[k]);
}

struct fire_one {
	const struct run *run;
};

static int
fire_one(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	const struct run *want = ((struct fire_one *)arg)->run;
	(void)t, (void)last_attempt, (void)e;
	*r = *want;
	fields_copy_text(&run_fields, r);
	*decision = CLAIM_FIRE;
	return ST_OK;
}

static int
no_change(struct task *t, const struct run *r, int *write, void *arg, struct err *e)
{
	(void)t, (void)r, (void)arg, (void)e;
	*write = 0;
	return ST_OK;
}

static int
keep_run(const struct run *r, void *arg)
{
	struct run *out = arg;
	run_free(out);
	*out = *r;
	fields_copy_text(&run_fields, out);
	return 1;
}

static void
run_check_read(struct store *st, const struct run *want, const char *path)
{
	struct run got;
	struct err e;
	if (!check(store_run_get(st, want->id, &got, &e) == ST_OK, "%s: read", path)) {
		printf("#   %s\n", e.msg);
		return;
	}
	check_fields(&run_fields, want, &got, sizeof got, 1, VIA_STORE, path);
	run_free(&got);
}

/* The run in flight task_id's row names. */
static void
in_flight_check(struct store *st, const char *task_id, const char *want, const char *path)
{
	struct task t;
	struct err e;
	if (!check(store_task_get(st, task_id, &t, &e) == ST_OK, "%s: read", path)) {
		printf("#   %s\n", e.msg);
		return;
	}
	if (!check(strcmp(t.run_in_flight, want) == 0, "%s", path))
		printf("#   want and got: '%s' and '%s'\n", want, t.run_in_flight);
	task_free(&t);
}

/* A run of task_id recorded by a claim (every column), then ended (F_END
 * columns), read by id and listed. */
static void
test_run_store(struct store *st, const char *task_id)
{
	struct run want, ended, dflt;
	struct owner self;
	struct err e;
	run_make(&want, task_id, 0);
	want.status = RUN_RUNNING;
	check(owner_self(&self, &e) == ST_OK && store_owner_start(st, &self, &e) == ST_OK,
	    "run store: an owner");
	struct claimed out[1];
	struct fire_one arg = {&want};
	struct claim_req req = {.what = CLAIM_ONE, .id = task_id};
	int n = 0;
	if (!check(store_claim(st, &req, fire_one, &arg, out, &n, &e) == ST_OK && n == 1,
	    "run store: recorded by a claim"))
		printf("#   %s\n", e.msg);
	claimed_free(out, (size_t)n);
	run_check_read(st, &want, "run store: recorded");
	in_flight_check(st, task_id, want.id, "run store: recorded, on its task's row");
	/* Its end: the F_END fields another value. */
	run_make(&ended, task_id, 0);
	ended.status = RUN_RUNNING;
	run_init(&dflt);
	for (size_t i = 0; i < run_fields.n; i++)
		if (run_fields.f[i].flags & F_END)
			fill(&run_fields.f[i], &ended, &dflt, i, 1);
	struct run_end end = {.run = &ended};
	if (!check(store_runs_end(st, &end, 1, no_change, NULL, NULL, &e) == ST_OK && end.ours,
	    "run store: ended by its owner"))
		printf("#   %s\n", e.msg);
	run_check_read(st, &ended, "run store: ended");
	in_flight_check(st, task_id, "", "run store: ended, gone from its task's row");
	struct run_filter f;
	struct run got;
	run_filter_init(&f);
	f.task_id = task_id;
	f.with_output = 1;
	run_init(&got);
	check(store_run_list(st, &f, keep_run, &got, &e) == ST_OK, "run store: listed");
	check_fields(&run_fields, &ended, &got, sizeof got, 1, VIA_STORE, "run store: listed");
	/* Without output: the large fields are not read. */
	f.with_output = 0;
	check(store_run_list(st, &f, keep_run, &got, &e) == ST_OK, "run store: listed, small");
	for (size_t i = 0; i < run_fields.n; i++)
		if (run_fields.f[i].flags & F_LARGE)
			set_str(FIELD_OF(&ended, &run_fields.f[i], char *), NULL);
	check_fields(&run_fields, &ended, &got, sizeof got, 1, VIA_STORE, "run store: listed, small");
	run_free(&got);
	run_free(&want);
	run_free(&ended);
	run_free(&dflt);
	store_owner_stop(st);
}

int
main(void)
{
	struct zones *zs = zones_new();
	struct task want[NTASKS];
	for (int k = 0; k < NTASKS; k++)
		task_make(&want[k], k, 0);
	test_task_json(want, zs);
	struct run r;
	run_make(&r, want[0].id, 0);
	test_run_json(&r);
	run_free(&r);

	struct store *st;
	struct err e;
	if (!check(store_open(NULL, 0, &st, &e) == ST_OK, "open the store (TASK_DB)")) {
		printf("#   %s\n", e.msg);
		return tap_done();
	}
	test_task_store(st, want);
	char id[37];
	test_twin(st, &want[0], id);
	test_run_store(st, id);
	store_close(st);
	for (int k = 0; k < NTASKS; k++)
		task_free(&want[k]);
	zones_free(zs);
	return tap_done();
}
