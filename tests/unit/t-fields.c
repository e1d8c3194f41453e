/* Every field of the tables of common/task_fields.c, through JSON and
 * through the store TASK_DB names (a file in the suite's SQLite pass, a
 * PostgreSQL database in its PostgreSQL pass: tests/0210-store-fields.t).
 * Each field is given a value unlike its default, chosen by its type, and
 * must come back as it went: added, read, listed, claimed and updated, so a
 * field is covered as soon as it is in its table, and one a backend drops
 * fails here.  Values this agentcron cannot read are written back as
 * stored. */
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "tap.h"
#include "task_fields.h"
#include "task_json.h"

#define NTASKS 3 /* one of each kind with instants or an expression */
static const int kinds[NTASKS] = {KIND_CRON, KIND_AT, KIND_PLAN};
static const int64_t base = 1795000000;

/* A value of f unlike the default in dflt (variant v: another such value). */
static int
fill(const struct field *f, void *obj, const void *dflt, size_t i, int v)
{
	char s[64];
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
	case FT_ARRAY:
	case FT_OBJECT:
		free(*FIELD_OF(obj, f, char *));
		*FIELD_OF(obj, f, char *) = cJSON_IsNull(v) ? NULL : cJSON_PrintUnformatted(v);
		break;
	default:
		break;
	}
}

/* j holds every JSON field of fs, in the table's order, and nothing else;
 * what it prints of each goes into out. */
static int
read_printed(const struct fields *fs, const cJSON *j, void *out)
{
	const cJSON *it = j ? j->child : NULL;
	int in_order = 1;
	for (size_t i = 0; i < fs->n; i++) {
		const struct field *f = &fs->f[i];
		if (!f->json)
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
	t->kind = kinds[k];
	set_str(&t->tz, v ? "Asia/Tokyo" : "Europe/Paris");
	set_str(&t->cron, t->kind == KIND_CRON ? (v ? "30 8 * * 1" : "0 7 * * *") : NULL);
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
	for (int k = 0; k < NTASKS; k++)
		task_free(&want[k]);
	zones_free(zs);
	return tap_done();
}
