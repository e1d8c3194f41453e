/* replay.c: a past run's request, for task-run --replay (replay.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fire.h"
#include "replay.h"

struct calls_seen {
	char *request;  /* the run's first request */
	long calls;     /* its calls on record, with a request or not */
};

/* Calls come newest first: the last one with a request began the run. */
static int
take_request(const struct llm_call *c, void *arg)
{
	struct calls_seen *cs = arg;
	cs->calls++;
	if (c->request) {
		free(cs->request);
		cs->request = xstrdup(c->request);
	}
	return 0;
}

int
replay_request(struct store *st, const char *run_prefix, const char *model,
    const char *provider, char task_id[37], char run_id[37], char **request, struct err *e)
{
	struct run r;
	struct calls_seen cs = {NULL, 0};
	*request = NULL;
	/* llm.h's names; its code, with libcurl, is llm-call's alone. */
	if (provider && strcmp(provider, "openai") && strcmp(provider, "anthropic") &&
	    strcmp(provider, "echo"))
		return err_set(e, ST_INVALID, "unknown provider '%s' (openai, anthropic or echo)", provider);
	if (model && !*model)
		return err_set(e, ST_INVALID, "--model: empty model name");
	int rc = store_run_get(st, run_prefix, &r, e);
	if (rc)
		return rc;
	memcpy(task_id, r.task_id, 37);
	memcpy(run_id, r.id, 37);
	rc = store_call_list(st, r.id, NULL, 0, take_request, &cs, e);
	/* Its calls were kept without their request: the store had them
	 * before it kept requests (SQLite schema 22, PostgreSQL 18). */
	if (!rc && !cs.request && cs.calls)
		rc = err_set(e, ST_INVALID, "run '%.8s' cannot be replayed: it was recorded before"
		    " model requests were kept", r.id);
	else if (!rc && !cs.request)
		rc = err_set(e, ST_INVALID, "run '%.8s' cannot be replayed: it made no model call"
		    " on record (not an llm-call run)", r.id);
	run_free(&r);
	if (rc)
		return rc;
	cJSON *o = cJSON_Parse(cs.request);
	free(cs.request);
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return err_set(e, ST_INVALID, "the request on record is not JSON");
	}
	if (provider) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, "provider");
		cJSON_AddStringToObject(o, "provider", provider);
		if (!model)
			cJSON_DeleteItemFromObjectCaseSensitive(o, "model");
	}
	if (model) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, "model");
		cJSON_AddStringToObject(o, "model", model);
	}
	*request = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return *request ? ST_OK : err_set(e, ST_ERR, "out of memory");
}

int
replay_run(const struct replay *rp, const char *run, struct err *e)
{
	char task_id[37], of_run[37], run_id[37];
	char *request;
	int rc = replay_request(rp->st, run, rp->model, rp->provider, task_id, of_run, &request, e);
	if (!rc)
		rc = rp->may_run(rp->arg, task_id, e);
	if (!rc)
		rc = fire_replay(rp->f, task_id, of_run, request, run_id, e);
	free(request);
	if (rc)
		return rc;
	rc = rp->wait(rp->arg, run_id, e);
	if (rp->print_id) {
		printf("%s\n", run_id);
		fflush(stdout);
	}
	return rc;
}
