/* task_json.c: a task and a run as JSON objects (task_json.h), one table of
 * fields for both directions, and the printer every JSON line goes
 * through. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "store.h"
#include "task_json.h"
#include "tz.h"
#include "utf8.h"
#include "when.h"

enum ftype { F_STR, F_KIND, F_STATUS, F_MISSED, F_BOOL, F_INT, F_TIME, F_ARRAY, F_OBJECT };

/* The JSON fields of a task in output order; offsets into struct task keep
 * reading and writing in one table. */
static const struct field {
	const char *name;
	enum ftype type;
	size_t off;
	int input; /* accepted by task_from_json */
} fields[] = {
	{"id", F_STR, 0, 1},
	{"name", F_STR, offsetof(struct task, name), 1},
	{"prompt", F_STR, offsetof(struct task, prompt), 1},
	{"system_prompt", F_STR, offsetof(struct task, system_prompt), 1},
	{"kind", F_KIND, offsetof(struct task, kind), 1},
	{"cron", F_STR, offsetof(struct task, cron), 1},
	{"at", F_TIME, 0, 1},
	{"plan", F_ARRAY, 0, 1},
	{"tz", F_STR, offsetof(struct task, tz), 1},
	{"description", F_STR, 0, 0},
	{"enabled", F_BOOL, offsetof(struct task, enabled), 1},
	{"status", F_STATUS, offsetof(struct task, status), 1},
	{"next_run_at", F_TIME, offsetof(struct task, next_run_at), 1},
	{"due_at", F_TIME, offsetof(struct task, due_at), 0},
	{"last_run_at", F_TIME, offsetof(struct task, last_run_at), 1},
	{"last_status", F_STR, offsetof(struct task, last_status), 1},
	{"last_error", F_STR, offsetof(struct task, last_error), 1},
	{"last_result", F_STR, offsetof(struct task, last_result), 1},
	{"consecutive_failures", F_INT, offsetof(struct task, consecutive_failures), 1},
	{"context", F_STR, offsetof(struct task, context), 1},
	{"attachments", F_ARRAY, offsetof(struct task, attachments), 1},
	{"model", F_STR, offsetof(struct task, model), 1},
	{"exec", F_STR, offsetof(struct task, exec), 1},
	{"timeout", F_INT, offsetof(struct task, timeout), 1},
	{"retries", F_INT, offsetof(struct task, retries), 1},
	{"intent", F_STR, offsetof(struct task, intent), 1},
	{"channel", F_STR, offsetof(struct task, channel), 1},
	{"payload", F_OBJECT, offsetof(struct task, payload), 1},
	{"key", F_STR, offsetof(struct task, key), 1},
	{"missed", F_MISSED, offsetof(struct task, missed), 1},
	{"jitter", F_INT, offsetof(struct task, jitter), 1},
	{"notify", F_STR, offsetof(struct task, notify), 1},
	{"queued", F_BOOL, offsetof(struct task, queued), 1},
	{"until", F_TIME, offsetof(struct task, until_at), 1},       /* a recurrence's end */
	{"count", F_INT, offsetof(struct task, count), 1},          /* ... or its number of runs */
	{"ends_at", F_TIME, offsetof(struct task, ends_at), 1},     /* the two, as armed */
	{"mcp", F_ARRAY, offsetof(struct task, mcp), 1},            /* MCP servers its runs use */
	{"mcp_allow", F_ARRAY, offsetof(struct task, mcp_allow), 1}, /* tools they may call */
	{"created_at", F_TIME, offsetof(struct task, created_at), 1},
	{"updated_at", F_TIME, offsetof(struct task, updated_at), 1},
	{"deleted_at", F_TIME, offsetof(struct task, deleted_at), 1}, /* in the trash since */
};
#define NFIELDS (sizeof fields / sizeof fields[0])

#define FIELD(t, f, type) ((type *)((char *)(t) + (f)->off))

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

cJSON *
task_to_json(const struct task *t, struct zones *zs)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct field *f = &fields[i];
		cJSON *v = NULL;
		if (strcmp(f->name, "id") == 0) {
			v = cJSON_CreateString(t->id);
		} else if (strcmp(f->name, "at") == 0) {
			v = json_time(t->kind == KIND_AT && t->nplan ? t->plan[0] : TIME_NONE);
		} else if (strcmp(f->name, "plan") == 0) {
			if (t->kind == KIND_PLAN) {
				v = cJSON_CreateArray();
				for (size_t j = 0; j < t->nplan; j++)
					cJSON_AddItemToArray(v, json_time(t->plan[j]));
			} else {
				v = cJSON_CreateNull();
			}
		} else if (strcmp(f->name, "description") == 0) {
			char d[256];
			task_describe(t, zs, d, sizeof d);
			v = cJSON_CreateString(d);
		} else {
			switch (f->type) {
			case F_STR: {
				const char *s = *FIELD(t, f, char *);
				v = s ? cJSON_CreateString(s) : cJSON_CreateNull();
				break;
			}
			case F_KIND: v = cJSON_CreateString(task_kind_name(*FIELD(t, f, int))); break;
			case F_STATUS: v = cJSON_CreateString(task_status_name(*FIELD(t, f, int))); break;
			case F_MISSED: v = cJSON_CreateString(task_missed_name(*FIELD(t, f, int))); break;
			case F_BOOL: v = cJSON_CreateBool(*FIELD(t, f, int)); break;
			case F_INT: v = cJSON_CreateNumber(*FIELD(t, f, int)); break;
			case F_TIME: v = json_time(*FIELD(t, f, int64_t)); break;
			case F_ARRAY:
			case F_OBJECT: {
				const char *s = *FIELD(t, f, char *);
				v = s ? cJSON_Parse(s) : NULL;
				if (!v)
					v = cJSON_CreateNull();
				break;
			}
			}
		}
		cJSON_AddItemToObject(o, f->name, v);
	}
	return o;
}

cJSON *
run_to_json(const struct run *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", r->id);
	cJSON_AddStringToObject(o, "task_id", r->task_id);
	cJSON_AddItemToObject(o, "slot", json_time(r->slot));
	cJSON_AddItemToObject(o, "trigger", r->trigger ? cJSON_CreateString(r->trigger) : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "status", run_status_name(r->status));
	cJSON_AddItemToObject(o, "started_at", json_time(r->started_at));
	cJSON_AddItemToObject(o, "ended_at", json_time(r->ended_at));
	cJSON_AddItemToObject(o, "exit_code", r->exit_code < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(r->exit_code));
	cJSON_AddItemToObject(o, "duration_ms", r->duration_ms < 0 ? cJSON_CreateNull()
	    : cJSON_CreateNumber((double)r->duration_ms));
	cJSON_AddNumberToObject(o, "attempt", r->attempt);
	if (r->note)
		cJSON_AddStringToObject(o, "note", r->note);
	if (r->output)
		cJSON_AddStringToObject(o, "output", r->output);
	if (r->error)
		cJSON_AddStringToObject(o, "error", r->error);
	return o;
}

static const struct field *
field_named(const char *name)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (strcmp(fields[i].name, name) == 0)
			return &fields[i];
	return NULL;
}

/* A schedule time from JSON: RFC 3339 or any time expression. */
static int
read_when(const char *s, int64_t now, int allow_past, unsigned flags, const struct tz *z,
    int64_t *out, struct err *e)
{
	flags = allow_past ? flags | WHEN_PAST_OK : flags & ~(unsigned)WHEN_PAST_OK;
	return when_read(s, now, z, flags, out, e);
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

int
task_from_json(const cJSON *obj, struct task *t, int64_t now, struct zones *zs,
    unsigned when_flags, struct err *e)
{
	if (!cJSON_IsObject(obj))
		return err_set(e, ST_INVALID, "expected a JSON object");
	const cJSON *it;
	const cJSON *at = NULL, *plan = NULL, *until = NULL;
	int kind_given = 0, next_given = 0;
	cJSON_ArrayForEach(it, obj) {
		const struct field *f = field_named(it->string);
		if (!f)
			return err_set(e, ST_INVALID, "unknown field '%s'", it->string);
		if (!f->input || cJSON_IsNull(it))
			continue;
		if (strcmp(f->name, "at") == 0) {
			at = it;
			continue;
		}
		if (strcmp(f->name, "plan") == 0) {
			plan = it;
			continue;
		}
		if (strcmp(f->name, "until") == 0) {
			until = it;
			continue;
		}
		switch (f->type) {
		case F_STR:
			if (!cJSON_IsString(it))
				return err_set(e, ST_INVALID, "field '%s' must be a string", f->name);
			if (strcmp(f->name, "id") == 0) {
				if (uuid_canonical(it->valuestring, t->id))
					return err_set(e, ST_INVALID, "field 'id' must be a UUID");
			} else {
				set_str(FIELD(t, f, char *), it->valuestring);
			}
			break;
		case F_KIND:
		case F_STATUS:
		case F_MISSED: {
			int v = !cJSON_IsString(it) ? -1
			    : f->type == F_KIND ? task_kind_parse(it->valuestring)
			    : f->type == F_STATUS ? task_status_parse(it->valuestring)
			    : task_missed_parse(it->valuestring);
			if (v < 0)
				return err_set(e, ST_INVALID, "field '%s' has an unknown value", f->name);
			*FIELD(t, f, int) = v;
			kind_given |= f->type == F_KIND;
			break;
		}
		case F_BOOL:
			if (!cJSON_IsBool(it))
				return err_set(e, ST_INVALID, "field '%s' must be true or false", f->name);
			*FIELD(t, f, int) = cJSON_IsTrue(it);
			break;
		case F_INT:
			/* Range first: converting an out-of-range double is undefined. */
			if (!cJSON_IsNumber(it) || !(it->valuedouble >= INT_MIN && it->valuedouble <= INT_MAX) ||
			    it->valuedouble != (double)(int)it->valuedouble)
				return err_set(e, ST_INVALID, "field '%s' must be an integer", f->name);
			*FIELD(t, f, int) = (int)it->valuedouble;
			break;
		case F_TIME:
			if (!cJSON_IsString(it) || time_parse_rfc3339(it->valuestring, FIELD(t, f, int64_t)))
				return err_set(e, ST_INVALID, "field '%s' must be an RFC 3339 time", f->name);
			next_given |= strcmp(f->name, "next_run_at") == 0;
			break;
		case F_ARRAY:
		case F_OBJECT:
			if (f->type == F_ARRAY ? !cJSON_IsArray(it) : !cJSON_IsObject(it))
				return err_set(e, ST_INVALID, "field '%s' must be a JSON %s", f->name,
				    f->type == F_ARRAY ? "array" : "object");
			free(*FIELD(t, f, char *));
			*FIELD(t, f, char *) = cJSON_PrintUnformatted(it);
			break;
		}
	}
	/* A command line that cannot be split would fail every run. */
	struct err sub;
	if (t->exec && *t->exec && exec_check(t->exec, &sub))
		return err_set(e, ST_INVALID, "field 'exec': %s", sub.msg);
	if (t->notify && *t->notify && exec_check(t->notify, &sub))
		return err_set(e, ST_INVALID, "field 'notify': %s", sub.msg);
	if (!kind_given)
		t->kind = t->cron ? KIND_CRON : at ? KIND_AT : plan ? KIND_PLAN : -1;
	if (t->kind < 0)
		return err_set(e, ST_INVALID, "no schedule: give \"cron\", \"at\", \"plan\" or \"kind\"");
	if ((t->cron != NULL) + (at != NULL) + (plan != NULL) > 1 ||
	    (t->cron && t->kind != KIND_CRON) || (at && t->kind != KIND_AT) ||
	    (plan && t->kind != KIND_PLAN))
		return err_set(e, ST_INVALID, "kind '%s' does not match the schedule fields given",
		    task_kind_name(t->kind));
	if (!t->tz)
		t->tz = xstrdup(zones_local(zs));
	const struct tz *z;
	int rc = zones_get(zs, t->tz, &z, e);
	if (rc)
		return rc;
	/* Times of a task being carried over (it has a next run, or is done)
	 * are history, not new requests, so the past is fine there. */
	int allow_past = next_given || t->status != STATUS_PENDING;
	if (at) {
		if (!cJSON_IsString(at))
			return err_set(e, ST_INVALID, "field 'at' must be a time string");
		t->plan = xcalloc(1, sizeof *t->plan);
		t->nplan = 1;
		if ((rc = read_when(at->valuestring, now, allow_past, when_flags, z, &t->plan[0], e)))
			return rc;
	}
	if (plan) {
		if (!cJSON_IsArray(plan) || cJSON_GetArraySize(plan) == 0)
			return err_set(e, ST_INVALID, "field 'plan' must be a non-empty array of times");
		t->nplan = (size_t)cJSON_GetArraySize(plan);
		t->plan = xcalloc(t->nplan, sizeof *t->plan);
		size_t i = 0;
		cJSON_ArrayForEach(it, plan) {
			if (!cJSON_IsString(it))
				return err_set(e, ST_INVALID, "field 'plan' must hold time strings");
			if ((rc = read_when(it->valuestring, now, allow_past, when_flags, z, &t->plan[i++], e)))
				return rc;
		}
		qsort(t->plan, t->nplan, sizeof *t->plan, cmp_int64);
	}
	if (until) {
		struct err sub;
		if (!cJSON_IsString(until))
			return err_set(e, ST_INVALID, "field 'until' must be a time string");
		if (read_when(until->valuestring, now, allow_past, when_flags, z, &t->until_at, &sub))
			return err_set(e, ST_INVALID, "field 'until': %s", sub.msg);
	}
	return ST_OK;
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

int
task_diff(const struct task *a, const struct task *b, struct zones *zs, struct buf *out)
{
	static const char *const skip[] = {"description", "due_at", "updated_at", "next_run_at",
		"ends_at"};
	cJSON *ja = task_to_json(a, zs), *jb = task_to_json(b, zs);
	int n = 0;
	const cJSON *vb;
	cJSON_ArrayForEach(vb, jb) {
		int skipped = 0;
		for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
			skipped |= strcmp(vb->string, skip[i]) == 0;
		const cJSON *va = cJSON_GetObjectItemCaseSensitive(ja, vb->string);
		if (skipped || cJSON_Compare(va, vb, 1))
			continue;
		buf_printf(out, "%s: ", vb->string);
		value_text(va, out);
		buf_puts(out, " -> ");
		value_text(vb, out);
		buf_puts(out, "\n");
		n++;
	}
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	return n;
}
