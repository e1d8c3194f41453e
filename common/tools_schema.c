/* tools_schema.c: a tool's arguments as its JSON Schema says them: the
 * schema tools/list shows, the check of what a model sent against it (a
 * model's arguments are untrusted input), and the getters tool bodies read
 * checked arguments with. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "task_fields.h"
#include "tools_impl.h"

/* ---- arguments ---- */

const cJSON *
tools_arg(const cJSON *args, const char *name)
{
	const cJSON *v = cJSON_IsObject(args) ? cJSON_GetObjectItemCaseSensitive(args, name) : NULL;
	return v && !cJSON_IsNull(v) ? v : NULL;
}

const char *
tools_arg_str(const cJSON *args, const char *name)
{
	const cJSON *v = tools_arg(args, name);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int
int_text(const char *s, long *v)
{
	char *end;
	errno = 0;
	*v = strtol(s, &end, 10);
	return end != s && !*end && !errno ? 0 : -1;
}

int
tools_arg_int(const cJSON *args, const char *name, long *v)
{
	const cJSON *a = tools_arg(args, name);
	if (!cJSON_IsNumber(a))
		return 0;
	*v = a->valuedouble > 1e15 ? (long)1e15 : a->valuedouble < -1e15 ? (long)-1e15
	    : (long)a->valuedouble;
	return 1;
}

int
tools_arg_minutes(const cJSON *args, const char *name, int64_t *secs, struct err *e)
{
	long v;
	if (!tools_arg_int(args, name, &v))
		return ST_OK;
	if (v < 0 || v > 52560000)
		return err_set(e, ST_INVALID, "argument '%s' must be 0 to 52560000 minutes", name);
	*secs = (int64_t)v * 60;
	return ST_OK;
}

int
tools_arg_bool(const cJSON *args, const char *name, int *v)
{
	const cJSON *a = tools_arg(args, name);
	if (!cJSON_IsBool(a))
		return 0;
	*v = cJSON_IsTrue(a);
	return 1;
}

int
tools_arg_count(const cJSON *args, const char *const *names)
{
	int n = 0;
	for (; *names; names++)
		n += tools_arg(args, *names) != NULL;
	return n;
}

/* exact: only as written, as a task setting's names are (task_inputs):
 * its flag reads them so and applying it would refuse another case. */
static int
enum_ok(const struct tool_param *p, const char *s, int exact)
{
	for (const char *const *v = p->enums; *v; v++)
		if ((exact ? strcmp(*v, s) : strcasecmp(*v, s)) == 0)
			return 1;
	return 0;
}

static void
enum_list(const struct tool_param *p, struct buf *out)
{
	for (const char *const *v = p->enums; *v; v++)
		buf_printf(out, "%s%s", v == p->enums ? "" : v[1] ? ", " : " or ", *v);
}

static int
type_ok(const struct tool_param *p, const cJSON *v)
{
	long n;
	if (strcmp(p->type, "string") == 0)
		return cJSON_IsString(v) || cJSON_IsNumber(v);
	if (strcmp(p->type, "integer") == 0)
		/* In range before the cast: converting 1e300 to long is undefined. */
		return cJSON_IsNumber(v) ? v->valuedouble >= -1e15 && v->valuedouble <= 1e15 &&
		    v->valuedouble == (double)(long)v->valuedouble
		    : cJSON_IsString(v) && int_text(v->valuestring, &n) == 0;
	if (strcmp(p->type, "boolean") == 0)
		return cJSON_IsBool(v) || (cJSON_IsString(v) && (strcasecmp(v->valuestring, "true") == 0 ||
		    strcasecmp(v->valuestring, "false") == 0));
	if (strcmp(p->type, "object") == 0)
		return cJSON_IsObject(v);
	if (cJSON_IsString(v)) /* an array of strings: one string is a list of one */
		return 1;
	if (!cJSON_IsArray(v))
		return 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, v) if (!cJSON_IsString(it)) return 0;
	return 1;
}

static const char *
type_phrase(const char *type)
{
	return strcmp(type, "string") == 0 ? "a string" : strcmp(type, "integer") == 0 ? "an integer"
	    : strcmp(type, "boolean") == 0 ? "true or false" : strcmp(type, "object") == 0
	    ? "a JSON object" : "a list of strings";
}

/* Give a checked value its declared type: models send 20 as "20", true as
 * "true", an id as a number, one state as a bare string. */
static cJSON *
normalize(const struct tool_param *p, const cJSON *v)
{
	long n;
	if (strcmp(p->type, "string") == 0 && cJSON_IsNumber(v)) {
		char num[32];
		snprintf(num, sizeof num, "%.15g", v->valuedouble);
		return cJSON_CreateString(num);
	}
	if (strcmp(p->type, "integer") == 0 && cJSON_IsString(v) && int_text(v->valuestring, &n) == 0)
		return cJSON_CreateNumber((double)n);
	if (strcmp(p->type, "boolean") == 0 && cJSON_IsString(v))
		return cJSON_CreateBool(strcasecmp(v->valuestring, "true") == 0);
	if (strcmp(p->type, "array") == 0 && cJSON_IsString(v)) {
		cJSON *a = cJSON_CreateArray();
		cJSON_AddItemToArray(a, cJSON_CreateString(v->valuestring));
		return a;
	}
	cJSON *copy = cJSON_Duplicate(v, 1);
	for (const struct tool_param *q = p->props; q && q->name && cJSON_IsObject(copy); q++) {
		cJSON *it = cJSON_GetObjectItemCaseSensitive(copy, q->name);
		if (it && !cJSON_IsNull(it) && type_ok(q, it))
			cJSON_ReplaceItemInObjectCaseSensitive(copy, q->name, normalize(q, it));
	}
	return copy;
}

/* A tool's parameters in order, a TOOL_TASK_INPUTS row standing for the
 * MCP arguments of task_inputs (task_fields.h). */
struct param_walk {
	const struct tool_param *p;
	size_t in;
	struct tool_param cur;
};

static int
is_inputs(const struct tool_param *p)
{
	return p->name && p->type && strcmp(p->type, TOOL_TASK_INPUTS) == 0;
}

static const struct tool_param *
walk_here(struct param_walk *w)
{
	while (is_inputs(w->p)) {
		while (w->in < ntask_inputs && !task_inputs[w->in].type)
			w->in++;
		if (w->in < ntask_inputs) {
			const struct task_input *ti = &task_inputs[w->in];
			w->cur = (struct tool_param){ti->json, ti->type, ti->desc, ti->names, 0, NULL, NULL};
			return &w->cur;
		}
		w->p++;
		w->in = 0;
	}
	return w->p->name ? w->p : NULL;
}

static const struct tool_param *
walk_first(struct param_walk *w, const struct tool_def *d)
{
	w->p = d->params;
	w->in = 0;
	return walk_here(w);
}

static const struct tool_param *
walk_next(struct param_walk *w)
{
	if (is_inputs(w->p))
		w->in++;
	else
		w->p++;
	return walk_here(w);
}

/* Check args against a tool's parameters: ST_OK with *norm a copy in the
 * declared types (the caller frees it), else ST_INVALID and a message. */
int
tools_args_check(const struct tool_def *d, const cJSON *args, cJSON **norm, struct buf *out)
{
	const cJSON *v;
	*norm = NULL;
	if (!cJSON_IsObject(args)) {
		buf_printf(out, "The arguments of %s must be a JSON object.", d->name);
		return ST_INVALID;
	}
	struct param_walk w;
	cJSON_ArrayForEach(v, args) {
		const struct tool_param *p = walk_first(&w, d);
		while (p && strcmp(p->name, v->string) != 0)
			p = walk_next(&w);
		if (!p) {
			buf_printf(out, "Unknown argument '%.*s' for %s.", utf8_cut(v->string, 64), v->string,
			    d->name);
			int n = 0;
			for (p = walk_first(&w, d); p; p = walk_next(&w))
				buf_printf(out, "%s%s", n++ ? ", " : " Valid arguments: ", p->name);
			buf_puts(out, n ? "." : " It takes no arguments.");
			return ST_INVALID;
		}
		if (cJSON_IsNull(v))
			continue;
		if (!type_ok(p, v)) {
			buf_printf(out, "Argument '%s' must be %s.", p->name, type_phrase(p->type));
			return ST_INVALID;
		}
		if (!p->enums)
			continue;
		/* A string may arrive as a number (type_ok): compare its text. */
		cJSON *nv = normalize(p, v);
		const cJSON *it = nv;
		int ok = 1, exact = is_inputs(w.p);
		if (cJSON_IsArray(nv)) {
			cJSON_ArrayForEach(it, nv) if (!enum_ok(p, it->valuestring, exact)) { ok = 0; break; }
		} else {
			ok = enum_ok(p, nv->valuestring, exact);
		}
		if (!ok) {
			buf_printf(out, "Argument '%s' must be ", p->name);
			enum_list(p, out);
			buf_printf(out, ", not '%.*s'.", utf8_cut(it->valuestring, 64), it->valuestring);
		}
		cJSON_Delete(nv);
		if (!ok)
			return ST_INVALID;
	}
	for (const struct tool_param *p = walk_first(&w, d); p; p = walk_next(&w)) {
		v = tools_arg(args, p->name);
		if (p->required && (!v || (cJSON_IsString(v) && str_empty(v->valuestring)))) {
			if (p->missing)
				buf_puts(out, p->missing);
			else
				buf_printf(out, "Missing required argument '%s'.", p->name);
			return ST_INVALID;
		}
	}
	*norm = cJSON_CreateObject();
	for (const struct tool_param *p = walk_first(&w, d); p; p = walk_next(&w))
		if ((v = tools_arg(args, p->name)))
			cJSON_AddItemToObject(*norm, p->name, normalize(p, v));
	return ST_OK;
}

/* ---- the schema ---- */

static cJSON *
param_schema(const struct tool_param *p)
{
	cJSON *s = cJSON_CreateObject();
	cJSON *target = s;
	if (strcmp(p->type, "array") == 0) {
		cJSON_AddStringToObject(s, "type", "array");
		target = cJSON_AddObjectToObject(s, "items");
		cJSON_AddStringToObject(target, "type", "string");
	} else {
		cJSON_AddStringToObject(s, "type", p->type);
	}
	if (p->enums) {
		cJSON *en = cJSON_AddArrayToObject(target, "enum");
		for (const char *const *v = p->enums; *v; v++)
			cJSON_AddItemToArray(en, cJSON_CreateString(*v));
	}
	if (p->props) {
		cJSON *props = cJSON_AddObjectToObject(s, "properties");
		for (const struct tool_param *q = p->props; q->name; q++)
			cJSON_AddItemToObject(props, q->name, param_schema(q));
	}
	cJSON_AddStringToObject(s, "description", p->desc);
	return s;
}

void
tools_schema_add(cJSON *list, const struct tool_def *d)
{
	cJSON *t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "name", d->name);
	cJSON_AddStringToObject(t, "description", d->desc);
	cJSON *schema = cJSON_AddObjectToObject(t, "inputSchema");
	cJSON_AddStringToObject(schema, "type", "object");
	cJSON *props = cJSON_AddObjectToObject(schema, "properties");
	cJSON *req = cJSON_CreateArray();
	struct param_walk w;
	for (const struct tool_param *p = walk_first(&w, d); p; p = walk_next(&w)) {
		cJSON_AddItemToObject(props, p->name, param_schema(p));
		if (p->required)
			cJSON_AddItemToArray(req, cJSON_CreateString(p->name));
	}
	if (cJSON_GetArraySize(req))
		cJSON_AddItemToObject(schema, "required", req);
	else
		cJSON_Delete(req);
	cJSON_AddBoolToObject(schema, "additionalProperties", 0);
	cJSON_AddItemToArray(list, t);
}

