/* Chain links (chain_link.h): the words of task-add --after and the
 * stored `after` list. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "chain_link.h"

static const char *const on_names[CHAIN_ON_COUNT] = {"success", "failure", "any"};

const char *
chain_on_name(int on)
{
	return on >= 0 && on < CHAIN_ON_COUNT ? on_names[on] : "success";
}

int
chain_link_parse(const char *spec, struct chain_link *l, struct err *e)
{
	l->on = CHAIN_SUCCESS;
	const char *colon = strrchr(spec, ':');
	size_t len = strlen(spec);
	if (colon) {
		int on = -1;
		for (int i = 0; i < CHAIN_ON_COUNT; i++)
			if (strcasecmp(colon + 1, on_names[i]) == 0)
				on = i;
		if (on >= 0) {
			l->on = on;
			len = (size_t)(colon - spec);
		} else if (colon[1] && !strchr(colon + 1, ' ') && strlen(colon + 1) < 12 &&
		    colon > spec && colon[-1] != ' ') {
			/* "fetch:sucess": a typo, not a name with a colon in it. */
			return err_set(e, ST_INVALID, "after '%.80s': '%.20s' is not success, failure or any",
			    spec, colon + 1);
		}
	}
	while (len && (spec[len - 1] == ' ' || spec[len - 1] == '\t'))
		len--;
	while (len && (*spec == ' ' || *spec == '\t')) {
		spec++;
		len--;
	}
	if (!len)
		return err_set(e, ST_INVALID, "after: a task to follow is needed (TASK[:success|failure|any])");
	if (len >= sizeof l->ref)
		return err_set(e, ST_INVALID, "after: '%.40s...' is too long for a task's id or name", spec);
	memcpy(l->ref, spec, len);
	l->ref[len] = 0;
	return ST_OK;
}

int
chain_links(const char *after, struct chain_link *out, size_t max, size_t *n, struct err *e)
{
	*n = 0;
	if (!after)
		return ST_OK;
	cJSON *a = cJSON_Parse(after);
	if (!cJSON_IsArray(a)) {
		cJSON_Delete(a);
		return err_set(e, ST_INVALID, "after: expected a list of tasks");
	}
	int rc = ST_OK;
	const cJSON *it;
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it)) {
			rc = err_set(e, ST_INVALID, "after: each entry is a task (TASK[:success|failure|any])");
			break;
		}
		if (*n == max) {
			rc = err_set(e, ST_INVALID, "after: at most %d tasks", CHAIN_MAX);
			break;
		}
		if ((rc = chain_link_parse(it->valuestring, &out[*n], e)))
			break;
		(*n)++;
	}
	cJSON_Delete(a);
	return rc;
}
