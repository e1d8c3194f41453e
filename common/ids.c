/* ids.c: the task ids a command is given: its arguments, and standard
 * input read with "-" (ids.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ids.h"
#include "task_json.h"

int
ids_from_stream(FILE *f, int (*fn)(const char *id, void *arg), void *arg, struct err *e)
{
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0, bad = 0;
	int rc = ST_OK;
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
			const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
			if (!cJSON_IsString(id)) {
				if (!bad++)
					rc = err_set(e, ST_INVALID, "stdin:%ld: %s", lineno,
					    j ? "JSON object without a string \"id\"" : "invalid JSON");
				cJSON_Delete(j);
				continue;
			}
			fn(id->valuestring, arg);
			cJSON_Delete(j);
		} else {
			/* The first field, so tab-separated listings pipe straight in. */
			s[strcspn(s, " \t")] = 0;
			fn(s, arg);
		}
	}
	free(line);
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
ids_each(int argc, char **argv, int (*fn)(const char *id, void *arg), void *arg, struct err *e)
{
	if (argc == 0) {
		if (isatty(0))
			return err_set(e, ST_INVALID, "no task id given");
		return ids_from_stream(stdin, fn, arg, e);
	}
	int rc = ST_OK;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") != 0) {
			fn(argv[i], arg);
			continue;
		}
		struct err sub;
		int r = ids_from_stream(stdin, fn, arg, &sub);
		if (r && !rc)
			rc = err_set(e, r, "%s", sub.msg);
	}
	return rc;
}
