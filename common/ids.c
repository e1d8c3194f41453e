/* ids.c: the task ids a command is given: its arguments, and standard
 * input read with "-" (ids.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ids.h"
#include "task_json.h"

/* The task id of a tab-separated line: the first field, so listings pipe
 * straight in; but a line of task-log's (run id, start, task id, ...) names
 * its task in the third. */
static const char *
line_task_id(char *s)
{
	char *f2 = strchr(s, '\t'), *f3 = f2 ? strchr(f2 + 1, '\t') : NULL;
	int64_t t;
	if (f3) {
		size_t n2 = (size_t)(f3 - f2 - 1), n3 = strcspn(f3 + 1, " \t");
		char when[48];
		if (n2 < sizeof when && n3 == 36) {
			memcpy(when, f2 + 1, n2);
			when[n2] = 0;
			if (time_parse_rfc3339(when, &t) == 0) {
				f3[1 + n3] = 0;
				return f3 + 1;
			}
		}
	}
	s[strcspn(s, " \t")] = 0;
	return s;
}

/* The ids already taken from a stream, a hash set: a task named on several
 * lines (a task-log listing of its failed runs) is acted on once, and a
 * listing of a million tasks costs no more than reading it. */
struct seen {
	char **slot;
	size_t cap, n;
	int (*fn)(const char *id, void *arg);
	void *arg;
	ids_event_fn ev;         /* lines with "payload": events, each its own */
};

static size_t
hash_of(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

/* Add id; 0 when it was there already. */
static int
seen_add(struct seen *sn, char *id)
{
	if (2 * (sn->n + 1) > sn->cap) {
		struct seen big = {xcalloc(sn->cap ? 2 * sn->cap : 64, sizeof *big.slot),
			sn->cap ? 2 * sn->cap : 64, 0, NULL, NULL, NULL};
		for (size_t i = 0; i < sn->cap; i++)
			if (sn->slot[i])
				seen_add(&big, sn->slot[i]);
		free(sn->slot);
		sn->slot = big.slot;
		sn->cap = big.cap;
	}
	size_t i = hash_of(id) & (sn->cap - 1);
	for (; sn->slot[i]; i = (i + 1) & (sn->cap - 1))
		if (strcmp(sn->slot[i], id) == 0)
			return 0;
	sn->slot[i] = id;
	sn->n++;
	return 1;
}

static void
take_once(struct seen *sn, const char *id)
{
	char *copy = xstrdup(id);
	if (seen_add(sn, copy))
		sn->fn(id, sn->arg);
	else
		free(copy);
}

/* An object with "payload" (and no "kind") is an event of the task it names (not one id
 * among others: each line fires); 1 if it was one. */
static int
take_event(struct seen *sn, const cJSON *j, const char *id, long lineno, long *bad,
    struct err *e)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "payload");
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "key");
	/* A task's own JSON (task-ls --json) has a payload field of its own,
	 * and a kind: it names a task to run, not an event. */
	if (!sn->ev || !p || cJSON_IsNull(p) || cJSON_GetObjectItemCaseSensitive(j, "kind"))
		return 0;
	if (k && !cJSON_IsString(k)) {
		if (!(*bad)++)
			err_set(e, ST_INVALID, "stdin:%ld: \"key\" is not a string", lineno);
		return 1;
	}
	char *text = cJSON_IsString(p) ? xstrdup(p->valuestring) : cJSON_PrintUnformatted(p);
	sn->ev(id, text ? text : "", k ? k->valuestring : NULL, lineno, sn->arg);
	cJSON_free(text);
	return 1;
}

static int
from_stream(FILE *f, int (*fn)(const char *id, void *arg), ids_event_fn ev, void *arg,
    struct err *e)
{
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0, bad = 0;
	int rc = ST_OK;
	struct seen sn = {NULL, 0, 0, fn, arg, ev};
	/* A bad line is reported (the first, with a count of the others) and
	 * the ids after it are still taken, as for bad ids in arguments. */
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		char *s = str_trim(line);
		if (!*s)
			continue;
		if (*s == '{') {
			if (json_find_nul(s, strlen(s)) >= 0) {
				/* The id would end at the NUL and name another task. */
				if (!bad++)
					rc = err_set(e, ST_INVALID, "stdin:%ld: a string holds \\u0000 (NUL)",
					    lineno);
				continue;
			}
			cJSON *j = cJSON_Parse(s);
			/* A run's object (task-log --json) names its task in task_id. */
			const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "task_id");
			if (!cJSON_IsString(id))
				id = cJSON_GetObjectItemCaseSensitive(j, "id");
			if (!cJSON_IsString(id)) {
				if (!bad++)
					rc = err_set(e, ST_INVALID, "stdin:%ld: %s", lineno,
					    j ? "JSON object without a string \"id\"" : "invalid JSON");
				cJSON_Delete(j);
				continue;
			}
			if (!take_event(&sn, j, id->valuestring, lineno, &bad, e))
				take_once(&sn, id->valuestring);
			else if (bad == 1 && !rc)
				rc = ST_INVALID;
			cJSON_Delete(j);
		} else {
			take_once(&sn, line_task_id(s));
		}
	}
	free(line);
	for (size_t i = 0; i < sn.cap; i++)
		free(sn.slot[i]);
	free(sn.slot);
	if (ferror(f))
		return err_set(e, ST_ERR, "cannot read standard input");
	if (bad > 1 && e) {
		size_t n = strlen(e->msg);
		snprintf(e->msg + n, sizeof e->msg - n, " (and %ld more bad line%s)", bad - 1,
		    bad == 2 ? "" : "s");
	}
	return rc;
}

int
ids_from_stream(FILE *f, int (*fn)(const char *id, void *arg), void *arg, struct err *e)
{
	return from_stream(f, fn, NULL, arg, e);
}

int
ids_each(int argc, char **argv, int (*fn)(const char *id, void *arg), void *arg, struct err *e)
{
	return ids_each_ev(argc, argv, fn, NULL, arg, e);
}

int
ids_each_ev(int argc, char **argv, int (*fn)(const char *id, void *arg), ids_event_fn ev,
    void *arg, struct err *e)
{
	if (argc == 0) {
		if (isatty(0))
			return err_set(e, ST_INVALID, "no task id given");
		return from_stream(stdin, fn, ev, arg, e);
	}
	int rc = ST_OK;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") != 0) {
			fn(argv[i], arg);
			continue;
		}
		struct err sub;
		int r = from_stream(stdin, fn, ev, arg, &sub);
		if (r && !rc)
			rc = err_set(e, r, "%s", sub.msg);
	}
	return rc;
}
