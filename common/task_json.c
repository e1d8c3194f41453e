/* task_json.c: a task and a run as JSON objects (task_json.h), both ways
 * from the tables of task_fields.c, and the printer every JSON line goes
 * through. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cron.h"
#include "exec.h"
#include "store.h"
#include "task_fields.h"
#include "task_json.h"
#include "deliver.h"
#include "tz.h"
#include "utf8.h"
#include "when.h"

cJSON *
json_time(int64_t t)
{
	if (t == TIME_NONE)
		return cJSON_CreateNull();
	char buf[40];
	time_fmt_utc(t, buf, sizeof buf);
	return cJSON_CreateString(buf);
}

char *
json_print_line(const cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);
	if (!s)
		abort();
	/* cJSON copies string bytes as they are; JSON's own escapes are
	 * ASCII, so making the whole line valid makes each string valid. */
	size_t n = strlen(s);
	if (utf8_valid(s, n))
		return s;
	char *clean = utf8_clean(s, n);
	free(s);
	return clean;
}

/* The next \u0000 escape inside a string of JSON text s[0..n), from *pos
 * (with *in: whether that is inside a string); -1 at the end. */
static ssize_t
next_nul(const char *s, size_t n, size_t *pos, int *in)
{
	for (size_t i = *pos; i < n; i++) {
		if (!*in) {
			*in = s[i] == '"';
		} else if (s[i] == '"') {
			*in = 0;
		} else if (s[i] == '\\' && i + 1 < n) {
			if (s[i + 1] == 'u' && i + 6 <= n && memcmp(s + i + 2, "0000", 4) == 0) {
				*pos = i + 6;
				return (ssize_t)i;
			}
			i++; /* the escaped character */
		}
	}
	*pos = n;
	return -1;
}

ssize_t
json_find_nul(const char *s, size_t n)
{
	size_t pos = 0;
	int in = 0;
	return next_nul(s, n, &pos, &in);
}

size_t
json_mask_nul(char *s, size_t n)
{
	size_t pos = 0, count = 0;
	int in = 0;
	ssize_t at;
	while ((at = next_nul(s, n, &pos, &in)) >= 0) {
		memcpy(s + at + 2, "FFFD", 4);
		count++;
	}
	return count;
}

const char *
json_utf8_bad(const cJSON *j)
{
	if (cJSON_IsString(j))
		return utf8_valid(j->valuestring, strlen(j->valuestring)) ? NULL : "";
	for (const cJSON *it = cJSON_IsObject(j) || cJSON_IsArray(j) ? j->child : NULL; it;
	    it = it->next) {
		if (it->string && !utf8_valid(it->string, strlen(it->string)))
			return it->string;
		const char *sub = json_utf8_bad(it);
		if (sub)
			return it->string ? it->string : sub;
	}
	return NULL;
}

static cJSON *
text_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *
number_or_null(int64_t v)
{
	return v < 0 ? cJSON_CreateNull() : cJSON_CreateNumber((double)v);
}

/* A reader of one expression finds the first of several in "cron"; the
 * whole list is "crons", there only when there are several. */
static cJSON *
first_cron(const char *text)
{
	if (!text || cron_list_count(text) < 2)
		return text_or_null(text);
	size_t n = strcspn(text, ";");
	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	char *one = xasprintf("%.*s", (int)n, text);
	cJSON *v = cJSON_CreateString(one);
	free(one);
	return v;
}

static cJSON *
crons_json(const struct task *t)
{
	if (t->kind != KIND_CRON || !t->cron || cron_list_count(t->cron) < 2)
		return cJSON_CreateNull();
	cJSON *v = cJSON_CreateArray();
	char *copy = xstrdup(t->cron), *save = NULL;
	for (char *w = strtok_r(copy, ";", &save); w; w = strtok_r(NULL, ";", &save))
		cJSON_AddItemToArray(v, cJSON_CreateString(str_trim(w)));
	free(copy);
	return v;
}

/* f of obj (a struct task for a task's own types) as JSON. */
static cJSON *
field_json(const struct field *f, const void *obj, struct zones *zs)
{
	const struct task *t = obj;
	switch (f->type) {
	case FT_ID:
	case FT_CHARS: return cJSON_CreateString(CFIELD_OF(obj, f, char));
	case FT_STR:
		if (f->flags & F_FIRST)
			return first_cron(*CFIELD_OF(obj, f, char *));
		return text_or_null(*CFIELD_OF(obj, f, char *));
	case FT_CRONS: return crons_json(t);
	case FT_INT: return cJSON_CreateNumber(*CFIELD_OF(obj, f, int));
	case FT_BOOL: return cJSON_CreateBool(*CFIELD_OF(obj, f, int));
	case FT_OPT_INT: return number_or_null(*CFIELD_OF(obj, f, int));
	case FT_OPT_I64: return number_or_null(*CFIELD_OF(obj, f, int64_t));
	case FT_TIME: return json_time(*CFIELD_OF(obj, f, int64_t));
	case FT_ENUM: return cJSON_CreateString(f->names->name(*CFIELD_OF(obj, f, int)));
	case FT_ARRAY:
	case FT_OBJECT: {
		const char *s = *CFIELD_OF(obj, f, char *);
		cJSON *v = s ? cJSON_Parse(s) : NULL;
		return v ? v : cJSON_CreateNull();
	}
	case FT_AT: return json_time(t->kind == KIND_AT && t->nplan ? t->plan[0] : TIME_NONE);
	case FT_PLAN: {
		if (t->kind != KIND_PLAN)
			return cJSON_CreateNull();
		cJSON *v = cJSON_CreateArray();
		for (size_t j = 0; j < t->nplan; j++)
			cJSON_AddItemToArray(v, json_time(t->plan[j]));
		return v;
	}
	case FT_DESCRIPTION: {
		char d[256];
		task_describe(t, zs, d, sizeof d);
		return cJSON_CreateString(d);
	}
	case FT_DEDUP:
		break;
	}
	return cJSON_CreateNull();
}

static cJSON *
fields_json(const struct fields *fs, const void *obj, struct zones *zs)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; i < fs->n; i++) {
		const struct field *f = &fs->f[i];
		if (!f->json)
			continue;
		cJSON *v = field_json(f, obj, zs);
		if ((f->flags & F_OMIT) && cJSON_IsNull(v))
			cJSON_Delete(v);
		else
			cJSON_AddItemToObject(o, f->json, v);
	}
	return o;
}

/* Delivery targets hold secrets (deliver.h): JSON shows them masked. */
cJSON *
task_to_json(const struct task *t, struct zones *zs)
{
	cJSON *o = fields_json(&task_fields, t, zs);
	if (t->deliver) {
		char *masked = deliver_targets_mask(t->deliver);
		cJSON *arr = cJSON_Parse(masked);
		free(masked);
		if (arr)
			cJSON_ReplaceItemInObjectCaseSensitive(o, "deliver", arr);
	}
	return o;
}

cJSON *
run_to_json(const struct run *r)
{
	return fields_json(&run_fields, r, NULL);
}

static const struct field *
field_named(const struct fields *fs, const char *name)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].json && strcmp(fs->f[i].json, name) == 0)
			return &fs->f[i];
	return NULL;
}

/* The last value of name in obj that is not null (what a loop over its
 * members that skips nulls ends with). */
static const cJSON *
last_named(const cJSON *obj, const char *name)
{
	const cJSON *it, *last = NULL;
	cJSON_ArrayForEach(it, obj)
		if (strcmp(it->string, name) == 0 && !cJSON_IsNull(it))
			last = it;
	return last;
}

/* A UUID in its canonical 8-4-4-4-12 form, in any case; copied lower-cased
 * into out, the only form id prefixes are matched against. */
static int
uuid_canonical(const char *s, char out[37])
{
	if (strlen(s) != 36)
		return -1;
	for (int i = 0; i < 36; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
			return -1;
		out[i] = (char)tolower((unsigned char)s[i]);
	}
	out[36] = 0;
	return 0;
}

/* it as the member of obj that f describes (not a task's own types). */
static int
field_from_json(const struct field *f, const cJSON *it, void *obj, struct err *e)
{
	double d = cJSON_IsNumber(it) ? it->valuedouble : 0.5;
	switch (f->type) {
	case FT_ID:
	case FT_CHARS:
	case FT_STR:
		if (!cJSON_IsString(it))
			return err_set(e, ST_INVALID, "field '%s' must be a string", f->json);
		if (f->type == FT_ID && uuid_canonical(it->valuestring, FIELD_OF(obj, f, char)))
			return err_set(e, ST_INVALID, "field '%s' must be a UUID", f->json);
		if (f->type == FT_CHARS && (size_t)snprintf(FIELD_OF(obj, f, char), f->size, "%s",
		    it->valuestring) >= f->size)
			return err_set(e, ST_INVALID, "field '%s' is too long", f->json);
		if (f->type == FT_STR)
			set_str(FIELD_OF(obj, f, char *), it->valuestring);
		return ST_OK;
	case FT_ENUM: {
		int v = cJSON_IsString(it) ? f->names->parse(it->valuestring) : -1;
		if (v < 0)
			return err_set(e, ST_INVALID, "field '%s' has an unknown value", f->json);
		*FIELD_OF(obj, f, int) = v;
		return ST_OK;
	}
	case FT_BOOL:
		if (!cJSON_IsBool(it))
			return err_set(e, ST_INVALID, "field '%s' must be true or false", f->json);
		*FIELD_OF(obj, f, int) = cJSON_IsTrue(it);
		return ST_OK;
	case FT_INT:
	case FT_OPT_INT:
		/* Range first: converting an out-of-range double is undefined. */
		if (!(d >= INT_MIN && d <= INT_MAX) || d != (double)(int)d)
			return err_set(e, ST_INVALID, "field '%s' must be an integer", f->json);
		*FIELD_OF(obj, f, int) = (int)d;
		return ST_OK;
	case FT_OPT_I64:
		if (!(d >= -9007199254740992.0 && d <= 9007199254740992.0) || d != (double)(int64_t)d)
			return err_set(e, ST_INVALID, "field '%s' must be an integer", f->json);
		*FIELD_OF(obj, f, int64_t) = (int64_t)d;
		return ST_OK;
	case FT_TIME:
		if (!cJSON_IsString(it) || time_parse_rfc3339(it->valuestring, FIELD_OF(obj, f, int64_t)))
			return err_set(e, ST_INVALID, "field '%s' must be an RFC 3339 time", f->json);
		return ST_OK;
	case FT_ARRAY:
	case FT_OBJECT:
		if (f->type == FT_ARRAY ? !cJSON_IsArray(it) : !cJSON_IsObject(it))
			return err_set(e, ST_INVALID, "field '%s' must be a JSON %s", f->json,
			    f->type == FT_ARRAY ? "array" : "object");
		free(*FIELD_OF(obj, f, char *));
		*FIELD_OF(obj, f, char *) = cJSON_PrintUnformatted(it);
		return ST_OK;
	default:
		return err_set(e, ST_INVALID, "field '%s' cannot be read here", f->json);
	}
}

/* The members of obj that fs reads (F_IN), but the task's own types and
 * F_WHEN fields, which need the task's zone: those are left to the caller. */
static int
fields_from_json(const struct fields *fs, const cJSON *obj, void *dst, struct err *e)
{
	if (!cJSON_IsObject(obj))
		return err_set(e, ST_INVALID, "expected a JSON object");
	const cJSON *it;
	cJSON_ArrayForEach(it, obj) {
		/* Which of two values would win is no one's guess to make. */
		for (const cJSON *before = obj->child; before != it; before = before->next)
			if (strcmp(before->string, it->string) == 0)
				return err_set(e, ST_INVALID, "field '%s' is given twice", it->string);
		const struct field *f = field_named(fs, it->string);
		if (!f && it->string && strcmp(it->string, "forecast") == 0)
			continue; /* task-add's and task-edit's, computed: read back as nothing */
		if (!f)
			return err_set(e, ST_INVALID, "unknown field '%s'", it->string);
		if (!(f->flags & F_IN) || cJSON_IsNull(it) || f->type == FT_AT || f->type == FT_PLAN ||
		    f->type == FT_CRONS || (f->flags & F_WHEN))
			continue;
		int rc = field_from_json(f, it, dst, e);
		if (rc)
			return rc;
	}
	return ST_OK;
}

/* The instants of t's schedule: at, plan, and the fields read in its zone. */
static int
schedule_from_json(const cJSON *obj, struct task *t, int64_t now, const struct tz *z,
    unsigned flags, struct err *e)
{
	int rc;
	for (size_t i = 0; i < task_fields.n; i++) {
		const struct field *f = &task_fields.f[i];
		const cJSON *v = f->json ? last_named(obj, f->json) : NULL, *it;
		if (!v || !(f->flags & F_IN))
			continue;
		if (f->type == FT_AT) {
			if (!cJSON_IsString(v))
				return err_set(e, ST_INVALID, "field '%s' must be a time string", f->json);
			t->plan = xcalloc(1, sizeof *t->plan);
			t->nplan = 1;
			if ((rc = when_read(v->valuestring, now, z, flags, &t->plan[0], e)))
				return rc;
		} else if (f->type == FT_PLAN) {
			if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
				return err_set(e, ST_INVALID, "field '%s' must be a non-empty array of times",
				    f->json);
			t->nplan = (size_t)cJSON_GetArraySize(v);
			t->plan = xcalloc(t->nplan, sizeof *t->plan);
			size_t k = 0;
			cJSON_ArrayForEach(it, v) {
				if (!cJSON_IsString(it))
					return err_set(e, ST_INVALID, "field '%s' must hold time strings", f->json);
				if ((rc = when_read(it->valuestring, now, z, flags, &t->plan[k++], e)))
					return rc;
			}
			qsort(t->plan, t->nplan, sizeof *t->plan, cmp_int64);
		} else if (f->flags & F_WHEN) {
			struct err sub;
			if (!cJSON_IsString(v))
				return err_set(e, ST_INVALID, "field '%s' must be a time string", f->json);
			if (when_read(v->valuestring, now, z, flags, FIELD_OF(t, f, int64_t), &sub))
				return err_set(e, ST_INVALID, "field '%s': %s", f->json, sub.msg);
		}
	}
	return ST_OK;
}

/* "crons", the whole list, into t->cron; "cron" beside it must be its
 * first, as task_to_json writes them. */
static int
crons_from_json(const cJSON *obj, struct task *t, struct err *e)
{
	const cJSON *v = last_named(obj, "crons"), *it;
	if (!v)
		return ST_OK;
	int n = cJSON_GetArraySize(v);
	if (!cJSON_IsArray(v) || n == 0)
		return err_set(e, ST_INVALID, "field 'crons' must be a non-empty array of cron expressions");
	const char **list = xcalloc((size_t)n, sizeof *list);
	int k = 0, rc = ST_OK;
	cJSON_ArrayForEach(it, v) {
		if (!cJSON_IsString(it) || strchr(it->valuestring, ';')) {
			rc = err_set(e, ST_INVALID, "field 'crons' must hold cron expressions, one a string");
			break;
		}
		list[k++] = it->valuestring;
	}
	if (!rc && t->cron) {
		const char *one = t->cron;
		char *a = cron_list_text(&one, 1), *b = cron_list_text(list, 1);
		if (strcmp(a, b) != 0)
			rc = err_set(e, ST_INVALID, "field 'cron' must be the first of 'crons' (or give "
			    "'crons' alone)");
		free(a);
		free(b);
	}
	if (!rc) {
		free(t->cron);
		t->cron = cron_list_text(list, (size_t)n);
	}
	free(list);
	return rc;
}

int
task_from_json(const cJSON *obj, struct task *t, int64_t now, struct zones *zs,
    unsigned when_flags, struct err *e)
{
	int rc = fields_from_json(&task_fields, obj, t, e);
	if (rc)
		return rc;
	/* A command line that cannot be split would fail every run. */
	for (size_t i = 0; i < task_fields.n; i++) {
		const struct field *f = &task_fields.f[i];
		const char *cmd = f->flags & F_COMMAND ? *FIELD_OF(t, f, char *) : NULL;
		struct err sub;
		if (cmd && *cmd && exec_check(cmd, &sub))
			return err_set(e, ST_INVALID, "field '%s': %s", f->json, sub.msg);
	}
	if ((rc = crons_from_json(obj, t, e)))
		return rc;
	/* "" would fail every run (no file has that name); a stored task
	 * holding one still loads, so the check is here, on new objects. */
	const cJSON *it, *att = last_named(obj, "attachments");
	if (!cJSON_IsArray(att))
		att = NULL;
	cJSON_ArrayForEach(it, att)
		if (cJSON_IsString(it) && !*it->valuestring)
			return err_set(e, ST_INVALID, "field 'attachments' holds an empty path");
	const cJSON *at = last_named(obj, "at"), *plan = last_named(obj, "plan"), *kind;
	kind = last_named(obj, "kind");
	/* A negative interval is none to the task: said, not read as no schedule. */
	if (t->every < 0 && last_named(obj, "every"))
		return err_set(e, ST_INVALID, "an interval (--every) must be from 1 minute to 366 days");
	int every = t->every >= 0;
	if (!kind)
		t->kind = t->cron ? KIND_CRON : at ? KIND_AT : plan ? KIND_PLAN : every ? KIND_EVERY : -1;
	if (t->kind < 0)
		return err_set(e, ST_INVALID, "no schedule: give \"cron\", \"at\", \"plan\", \"every\""
		    " or \"kind\"");
	if ((t->cron != NULL) + (at != NULL) + (plan != NULL) + every > 1 ||
	    (t->cron && t->kind != KIND_CRON) || (at && t->kind != KIND_AT) ||
	    (plan && t->kind != KIND_PLAN) || (every && t->kind != KIND_EVERY))
		return err_set(e, ST_INVALID, "kind '%s' does not match the schedule fields given",
		    task_kind_name(t->kind));
	const struct tz *z;
	/* The local zone loaded as such, so a bad one says "(from TZ)". */
	if (!t->tz && (rc = zones_get(zs, NULL, &z, e)))
		return rc;
	if (!t->tz)
		t->tz = xstrdup(zones_local(zs));
	if ((rc = zones_get(zs, t->tz, &z, e)))
		return rc;
	/* Times of a task being carried over (it has a next run, or is done)
	 * are history, not new requests, so the past is fine there. */
	int allow_past = last_named(obj, "next_run_at") || t->status != STATUS_PENDING;
	unsigned flags = allow_past ? when_flags | WHEN_PAST_OK : when_flags & ~(unsigned)WHEN_PAST_OK;
	return schedule_from_json(obj, t, now, z, flags, e);
}

int
run_from_json(const cJSON *obj, struct run *r, struct err *e)
{
	run_init(r);
	int rc = fields_from_json(&run_fields, obj, r, e);
	if (rc)
		run_free(r);
	return rc;
}

static void
value_text(const cJSON *v, struct buf *out)
{
	if (!v || cJSON_IsNull(v)) {
		buf_puts(out, "none");
	} else if (cJSON_IsString(v)) {
		const char *s = v->valuestring;
		size_t n = strcspn(s, "\n");
		if (n > 60)
			n = utf8_cut(s, 57);
		buf_add(out, s, n);
		if (s[n])
			buf_puts(out, "...");
	} else {
		char *p = cJSON_PrintUnformatted(v);
		buf_puts(out, p ? p : "?");
		free(p);
	}
}

static void
diff_line(const char *name, const cJSON *va, const cJSON *vb, struct buf *out)
{
	buf_printf(out, "%s: ", name);
	value_text(va, out);
	buf_puts(out, " -> ");
	value_text(vb, out);
	buf_puts(out, "\n");
}

int
task_diff(const struct task *a, const struct task *b, struct zones *zs, struct buf *out)
{
	static const char *const skip[] = {"description", "due_at", "updated_at", "next_run_at",
		"ends_at"};
	cJSON *ja = task_to_json(a, zs), *jb = task_to_json(b, zs);
	int n = 0;
	const cJSON *vb;
	/* A field left out of b's JSON when none (crons, every): none there. */
	const cJSON *va0;
	cJSON_ArrayForEach(va0, ja)
		if (!cJSON_GetObjectItemCaseSensitive(jb, va0->string))
			cJSON_AddItemToObject(jb, va0->string, cJSON_CreateNull());
	cJSON_ArrayForEach(vb, jb) {
		int skipped = 0;
		for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
			skipped |= strcmp(vb->string, skip[i]) == 0;
		const cJSON *va = cJSON_GetObjectItemCaseSensitive(ja, vb->string);
		if (skipped || cJSON_Compare(va, vb, 1))
			continue;
		diff_line(vb->string, va, vb, out);
		n++;
	}
	/* A field left out when none (F_OMIT) that was set. */
	const cJSON *va;
	cJSON *none = cJSON_CreateNull();
	cJSON_ArrayForEach(va, ja) {
		if (cJSON_GetObjectItemCaseSensitive(jb, va->string))
			continue;
		diff_line(va->string, va, none, out);
		n++;
	}
	cJSON_Delete(none);
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	return n;
}
