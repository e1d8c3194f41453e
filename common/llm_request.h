/* llm_request.h: the request a conversation begins with, kept with its
 * model call so that it can be sent again (task-run --replay): the system
 * prompt, the context's messages as they were sent, the user's message
 * (text attachments inlined, then the prompt) with its images, the tools
 * offered (in MCP's shape), the request options, stream, provider and
 * model.  Any provider's messages are built from it again, so the same
 * provider and model get the same request body, byte for byte. */
#ifndef AC_LLM_REQUEST_H
#define AC_LLM_REQUEST_H

#include "util.h"

struct llm_session;

/* llm_request.c */
/* s's request as JSON text (malloc'd); prompt is the prompt as sent. */
char *llm_request_save(const struct llm_session *s, const char *prompt);
/* s set to send json (text) again: its provider, model, system prompt,
 * options and no context; *prompt its prompt, *stream its stream flag
 * (-1: not said); both point into s.  ST_INVALID: not such a request. */
int llm_request_load(struct llm_session *s, const char *json, const char **prompt, int *stream,
    struct err *e);
/* Once s is resolved: its user message, images, conversation and tools,
 * from the request llm_request_load took (the tools offered replace
 * those s opened, which still answer the calls). */
int llm_request_conversation(struct llm_session *s, struct err *e);

#endif
