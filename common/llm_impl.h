/* llm_impl.h: what llm.c shares with the two wire formats, llm_openai.c and
 * llm_anthropic.c, and with the local echo provider, llm_echo.c.  Only those files include it. */
#ifndef AC_LLM_IMPL_H
#define AC_LLM_IMPL_H

#include "http.h"
#include "llm.h"

/* A reply being put together, from one JSON body or event by event. */
struct llm_stream {
	const struct llm_config *c;
	struct llm_result *r;
	struct buf text;
	struct buf *args;           /* arguments of r->calls[i], streamed in pieces */
	long *index;                /* the provider's index of r->calls[i] */
	size_t ncap;
	int done;                   /* the stream said it was complete */
	int delivered;              /* text already handed to c->on_text */
};

struct llm_ops {
	const char *name, *path, *key_env, *model, *url;
	const char *auth;           /* the key's header, the key after it: "x-api-key: " */
	const char *header;         /* one more header every request carries, or NULL */
	/* The request body for messages (+ system prompt, options, tools). */
	cJSON *(*body)(const struct llm_config *c, const cJSON *messages, const cJSON *tools);
	int (*reply)(struct llm_stream *s, const cJSON *root, struct err *e);  /* a whole JSON reply */
	int (*event)(struct llm_stream *s, const char *event, const cJSON *data, struct err *e);
	const char *(*error_text)(const cJSON *root);  /* the message in an error body, or NULL */
	void (*msg_user)(cJSON *messages, const char *text, const struct llm_image *img, size_t nimg);
	void (*msg_assistant)(cJSON *messages, const struct llm_result *r);
	void (*msg_tool_results)(cJSON *messages, const struct llm_result *r,
	    const struct llm_tool_result *res);
	cJSON *(*tool)(const char *name, const char *description, const cJSON *schema);
	/* A provider that answers here, without HTTP: res filled as llm_send's. */
	int (*answer)(const struct llm_config *c, const cJSON *messages, const cJSON *tools,
	    struct llm_result *res, struct err *e);
};

extern const struct llm_ops llm_openai_ops, llm_anthropic_ops, llm_echo_ops;
/* The wire format of provider (llm_provider.c). */
const struct llm_ops *llm_ops_of(int provider);

/* llm_wire.c (llm_tool_schema: llm_provider.c) */
void llm_stream_text(struct llm_stream *s, const char *text, size_t n);
/* The call with the provider's index idx, added if new (id, name may be NULL). */
size_t llm_stream_call(struct llm_stream *s, long idx, const char *id, const char *name);
void llm_stream_args(struct llm_stream *s, size_t call, const char *piece);
void llm_stream_finish(struct llm_stream *s, const char *reason);
const char *llm_json_str(const cJSON *o, const char *key);   /* a string member or NULL */
long llm_json_long(const cJSON *o, const char *key);         /* a number member in 0..1e15 or -1 */
void llm_merge_options(cJSON *body, const cJSON *options);
cJSON *llm_tool_schema(const cJSON *schema);                 /* a copy, or an empty object schema */

#endif
