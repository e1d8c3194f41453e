/* mcp_message.c: the JSON-RPC messages both MCP transports meet: which
 * is a response or a request of the server's, and the answer to such a
 * request (pings answered, elicitation declined, the rest refused). */
#include <stdlib.h>
#include <string.h>

#include "mcp_impl.h"
#include "utf8.h"

long
mcp_msg_id(const cJSON *m)
{
	/* Ours are whole numbers from 1 up: any other answers none of them
	 * (and a peer's 1e300 is never converted). */
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
	if (!cJSON_IsNumber(id) || !(id->valuedouble >= 0 && id->valuedouble <= 1e15))
		return -1;
	long v = (long)id->valuedouble;
	return (double)v == id->valuedouble ? v : -1;
}

cJSON *
mcp_msg_parse(const char *s, size_t n)
{
	if (utf8_valid(s, n))
		return cJSON_ParseWithLength(s, n);
	struct buf b = {0};
	utf8_sanitize(&b, s, n);
	cJSON *m = cJSON_ParseWithLength(b.data ? b.data : "", b.len);
	buf_free(&b);
	return m;
}

int
mcp_is_response(const cJSON *m)
{
	return cJSON_GetObjectItemCaseSensitive(m, "result") ||
	    cJSON_GetObjectItemCaseSensitive(m, "error");
}

/* The answer to a request of the server's (a method and an id): pings
 * answered, elicitation declined (and what it asked kept), the rest
 * refused (no roots or sampling), as JSON text. */
char *
mcp_server_answer(struct mcpc *c, const cJSON *m)
{
	const char *method = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "method"));
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "jsonrpc", "2.0");
	cJSON_AddItemToObject(r, "id", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(m, "id"), 1));
	if (method && strcmp(method, "ping") == 0) {
		cJSON_AddObjectToObject(r, "result");
	} else if (method && strcmp(method, "elicitation/create") == 0) {
		/* A run has no one to ask: no, at once, rather than a wait. */
		cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "result"), "action", "decline");
		const cJSON *params = cJSON_GetObjectItemCaseSensitive(m, "params");
		const char *said = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "message"));
		if (!c->declined)
			c->declined = xstrdup(said ? said : "");
	} else {
		cJSON *err = cJSON_AddObjectToObject(r, "error");
		cJSON_AddNumberToObject(err, "code", -32601);
		cJSON_AddStringToObject(err, "message", "llm-call does not offer this");
	}
	char *s = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	if (!s)
		abort();
	return s;
}

int
mcp_is_request(const cJSON *m)
{
	return cJSON_GetObjectItemCaseSensitive(m, "method") && cJSON_GetObjectItemCaseSensitive(m, "id");
}
