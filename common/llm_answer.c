/* llm-call --json: one call's answer as one JSON object (llm_answer.h). */
#include <string.h>

#include "llm_answer.h"
#include "mcp_client.h"

cJSON *
llm_answer_json(const struct llm_session *s, const struct llm_result *r, long latency, long long id,
    double cost, const char *fallback_from)
{
	const struct llm_config *lc = &s->lc;
	const char *context = s->context;
	int tool_calls = s->tools ? s->tool_calls : -1;
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "answer", r->text ? r->text : "");
	cJSON_AddStringToObject(j, "provider", llm_provider_name(lc->provider));
	cJSON_AddStringToObject(j, "model", r->model ? r->model : lc->model);
	if (r->model && strcmp(r->model, lc->model) != 0)
		cJSON_AddStringToObject(j, "requested_model", lc->model);
	if (fallback_from)
		cJSON_AddStringToObject(j, "fallback_from", fallback_from);
	cJSON *u = cJSON_AddObjectToObject(j, "usage");
	if (r->input_tokens >= 0)
		cJSON_AddNumberToObject(u, "input_tokens", (double)r->input_tokens);
	else
		cJSON_AddNullToObject(u, "input_tokens");
	if (r->output_tokens >= 0)
		cJSON_AddNumberToObject(u, "output_tokens", (double)r->output_tokens);
	else
		cJSON_AddNullToObject(u, "output_tokens");
	cJSON_AddItemToObject(j, "cost", cost >= 0 ? cJSON_CreateNumber(cost) : cJSON_CreateNull());
	if (r->finish_reason)
		cJSON_AddStringToObject(j, "finish_reason", r->finish_reason);
	else
		cJSON_AddNullToObject(j, "finish_reason");
	cJSON_AddNumberToObject(j, "latency_ms", (double)latency);
	cJSON_AddNumberToObject(j, "attempts", r->attempts);
	if (context)
		cJSON_AddStringToObject(j, "context", context);
	if (tool_calls >= 0)
		cJSON_AddNumberToObject(j, "tool_calls", tool_calls);
	if (s->nmcp) {
		cJSON *a = cJSON_AddArrayToObject(j, "mcp_servers");
		for (size_t i = 0; i < s->nmcp; i++) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "name", mcpc_name(s->mcp[i]));
			cJSON_AddStringToObject(o, "protocol_version", mcpc_version(s->mcp[i]));
			cJSON_AddNumberToObject(o, "startup_ms",
			    (double)(long)(mcpc_startup_ms(s->mcp[i]) * 1000) / 1000);
			cJSON_AddItemToArray(a, o);
		}
	}
	if (id > 0)
		cJSON_AddNumberToObject(j, "id", (double)id);
	return j;
}
