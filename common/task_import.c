/* task_import.c: tasks read from a stream of JSON objects (task_import.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "task_import.h"
#include "task_json.h"
#include "utf8.h"

/* Advance a line count from *from to at, so numbering a stream stays linear. */
static int
line_at(int *line, const char **from, const char *at)
{
	for (; *from < at; (*from)++)
		*line += **from == '\n';
	return *line;
}

/* JSON text is UTF-8, and no field can hold a NUL, which cJSON would read
 * as the end of the string: the rest of a name or prompt would be lost,
 * and a key could match another task's. */
int
task_import_check(const struct buf *in, struct err *e)
{
	const char *from = in->data;
	int line = 1;
	ssize_t nul = json_find_nul(in->data, in->len);
	if (nul >= 0)
		return err_set(e, ST_INVALID, "stdin:%d: a string holds \\u0000 (NUL), which no field can hold",
		    line_at(&line, &from, in->data + nul));
	for (size_t i = 0; i < in->len;) {
		uint32_t c;
		size_t l = utf8_decode(in->data + i, in->len - i, &c);
		if (!l)
			return err_set(e, ST_INVALID, "stdin:%d: not UTF-8 text", line_at(&line, &from,
			    in->data + i));
		/* A NUL byte ends the text the parser sees: what follows would be lost. */
		if (!c)
			return err_set(e, ST_INVALID, "stdin:%d: holds a NUL byte; it must be text",
			    line_at(&line, &from, in->data + i));
		i += l;
	}
	return ST_OK;
}

int
task_import(const struct buf *in, int64_t now, struct zones *zs, unsigned when_flags,
    task_import_fn fn, void *arg, long *count, struct err *e)
{
	int rc = ST_OK;
	const char *p = in->data, *counted = in->data;
	int lineno = 1;
	*count = 0;
	while (!rc) {
		p += strspn(p, " \t\r\n");
		if (!*p)
			break;
		const char *end = NULL;
		int line = line_at(&lineno, &counted, p);
		cJSON *j = cJSON_ParseWithLengthOpts(p, in->len - (size_t)(p - in->data), &end, 0);
		if (!j) {
			const char *bad = cJSON_GetErrorPtr();
			size_t n = bad ? strcspn(bad, "\r\n") : 0;
			if (n > 20)
				n = 20;
			if (bad && n && strspn(bad, " \t") < n)
				rc = err_set(e, ST_INVALID, "stdin:%d: invalid JSON near '%.*s'",
				    line_at(&lineno, &counted, bad), (int)n, bad);
			else
				rc = err_set(e, ST_INVALID, "stdin:%d: invalid JSON: the object is not finished", line);
			break;
		}
		p = end;
		const cJSON *item = cJSON_IsArray(j) ? j->child : j;
		for (; item && !rc; item = cJSON_IsArray(j) ? item->next : NULL) {
			struct task t;
			struct err sub;
			char where[32];
			snprintf(where, sizeof where, "stdin:%d", line);
			task_init(&t);
			rc = task_from_json(item, &t, now, zs, when_flags, &sub);
			if (!rc && t.status == STATUS_RUNNING)
				t.status = STATUS_PENDING;
			if (!rc)
				rc = task_finalize(&t, 1, t.next_run_at == TIME_NONE, now, zs, &sub);
			if (rc)
				err_set(e, rc, "%s: %s", where, sub.msg);
			else
				rc = fn(&t, where, arg, e);
			task_free(&t);
			(*count)++;
		}
		cJSON_Delete(j);
	}
	return rc;
}

void
task_import_defer(struct task_import_links *l, const char *id, char **after, const char *where)
{
	if (!*after)
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	struct task_import_link *k = &l->v[l->n++];
	snprintf(k->id, sizeof k->id, "%s", id);
	k->after = *after;
	*after = NULL;
	snprintf(k->where, sizeof k->where, "%s", where);
}

int
task_import_link(struct store *st, struct task_import_links *l, struct err *e)
{
	int rc = ST_OK;
	for (size_t i = 0; !rc && i < l->n; i++) {
		struct task_import_link *k = &l->v[i];
		struct task t;
		struct err sub;
		if ((rc = store_task_get(st, k->id, &t, e)))
			break;
		free(t.after);
		t.after = k->after;
		k->after = NULL;
		rc = chain_resolve(st, &t, &sub);
		if (!rc)
			rc = store_task_put(st, &t, &sub);
		if (rc)
			err_set(e, rc, "%s: %s", k->where, sub.msg);
		task_free(&t);
	}
	return rc;
}

void
task_import_links_free(struct task_import_links *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].after);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
