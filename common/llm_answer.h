/* llm_answer.h: what llm-call --json prints of one call: the answer, the
 * provider and the model that answered (and the one asked, when another
 * answered or a fallback was taken), the tokens, cost, latency and
 * attempts, the context, tool calls and MCP servers, the record's id. */
#ifndef AC_LLM_ANSWER_H
#define AC_LLM_ANSWER_H

#include <cjson/cJSON.h>

#include "llm.h"
#include "llm_session.h"

/* A new object (cJSON_Delete it); cost < 0: no price (null); id 0: not
 * recorded (left out); fallback_from: the model refused as gone, or NULL. */
cJSON *llm_answer_json(const struct llm_session *s, const struct llm_result *r, long latency,
    long long id, double cost, const char *fallback_from);

#endif
