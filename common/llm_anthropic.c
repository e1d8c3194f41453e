/* Anthropic Messages: POST {base}/v1/messages with x-api-key and
 * anthropic-version; the system prompt is a top-level field and max_tokens
 * is required.  Streams are named events: message_start, content_block_start
 * / _delta / _stop, message_delta (stop reason, output tokens),
 * message_stop, ping and error. */
#include <stdlib.h>
#include <string.h>

#include "hmac.h"
#include "llm_impl.h"

static cJSON *
body(const struct llm_config *c, const cJSON *messages, const cJSON *tools)
{
	cJSON *b = cJSON_CreateObject();
	cJSON_AddStringToObject(b, "model", c->model ? c->model : LLM_ANTHROPIC_MODEL);
	cJSON_AddNumberToObject(b, "max_tokens", LLM_MAX_TOKENS);
	if (c->system && *c->system)
		cJSON_AddStringToObject(b, "system", c->system);
	cJSON_AddItemToObject(b, "messages", cJSON_Duplicate(messages, 1));
	if (c->stream)
		cJSON_AddTrueToObject(b, "stream");
	if (tools && cJSON_GetArraySize(tools) > 0)
		cJSON_AddItemToObject(b, "tools", cJSON_Duplicate(tools, 1));
	llm_merge_options(b, c->options);
	return b;
}

static const char *
error_text(const cJSON *root)
{
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
	const char *msg = llm_json_str(err, "message");
	if (!msg)
		msg = llm_json_str(err, "type");
	return msg ? msg : llm_json_str(root, "message");
}

/* Cached prompt tokens are input too. */
static void
usage(struct llm_stream *s, const cJSON *u)
{
	if (!cJSON_IsObject(u))
		return;
	long in = llm_json_long(u, "input_tokens"), out = llm_json_long(u, "output_tokens");
	if (in >= 0) {
		long c1 = llm_json_long(u, "cache_creation_input_tokens");
		long c2 = llm_json_long(u, "cache_read_input_tokens");
		s->r->input_tokens = in + (c1 > 0 ? c1 : 0) + (c2 > 0 ? c2 : 0);
	}
	if (out >= 0)
		s->r->output_tokens = out;
}

static void
block(struct llm_stream *s, long idx, const cJSON *b, int streamed)
{
	const char *type = llm_json_str(b, "type");
	if (!type)
		return;
	if (strcmp(type, "text") == 0) {
		const char *t = llm_json_str(b, "text");
		if (t)
			llm_stream_text(s, t, strlen(t));
	} else if (strcmp(type, "tool_use") == 0) {
		size_t i = llm_stream_call(s, idx, llm_json_str(b, "id"), llm_json_str(b, "name"));
		/* A streamed block starts with "input": {} and sends the real
		 * input as input_json_delta pieces. */
		const cJSON *input = cJSON_GetObjectItemCaseSensitive(b, "input");
		if (!streamed && input) {
			char *args = cJSON_PrintUnformatted(input);
			llm_stream_args(s, i, args);
			free(args);
		}
	}
}

static int
reply(struct llm_stream *s, const cJSON *root, struct err *e)
{
	const char *type = llm_json_str(root, "type");
	if (type && strcmp(type, "error") == 0) {
		const char *msg = error_text(root);
		return err_set(e, ST_ERR, "anthropic: %s", msg ? msg : "the reply is an error");
	}
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(root, "content");
	if (!cJSON_IsArray(content))
		return err_set(e, ST_ERR, "anthropic: the reply has no content");
	const char *model = llm_json_str(root, "model");
	if (model)
		set_str(&s->r->model, model);
	const cJSON *b;
	long idx = 0;
	cJSON_ArrayForEach(b, content)
		block(s, idx++, b, 0);
	llm_stream_finish(s, llm_json_str(root, "stop_reason"));
	usage(s, cJSON_GetObjectItemCaseSensitive(root, "usage"));
	return ST_OK;
}

static int
event(struct llm_stream *s, const char *name, const cJSON *data, struct err *e)
{
	const char *type = llm_json_str(data, "type");
	if (!type)
		type = name;
	if (!type || !*type)
		return ST_OK;
	if (strcmp(type, "error") == 0) {
		const cJSON *err = cJSON_GetObjectItemCaseSensitive(data, "error");
		const char *msg = llm_json_str(err, "message"), *kind = llm_json_str(err, "type");
		return err_set(e, ST_ERR, "anthropic: %s%s%s", kind ? kind : "", kind && msg ? ": " : "",
		    msg ? msg : kind ? "" : "the stream reported an error");
	} else if (strcmp(type, "message_start") == 0) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(data, "message");
		const char *model = llm_json_str(m, "model");
		if (model)
			set_str(&s->r->model, model);
		usage(s, cJSON_GetObjectItemCaseSensitive(m, "usage"));
	} else if (strcmp(type, "content_block_start") == 0) {
		block(s, llm_json_long(data, "index"), cJSON_GetObjectItemCaseSensitive(data, "content_block"), 1);
	} else if (strcmp(type, "content_block_delta") == 0) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(data, "delta");
		const char *dt = llm_json_str(d, "type");
		if (dt && strcmp(dt, "text_delta") == 0) {
			const char *t = llm_json_str(d, "text");
			if (t)
				llm_stream_text(s, t, strlen(t));
		} else if (dt && strcmp(dt, "input_json_delta") == 0) {
			size_t i = llm_stream_call(s, llm_json_long(data, "index"), NULL, NULL);
			llm_stream_args(s, i, llm_json_str(d, "partial_json"));
		}
	} else if (strcmp(type, "message_delta") == 0) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(data, "delta");
		llm_stream_finish(s, llm_json_str(d, "stop_reason"));
		const cJSON *u = cJSON_GetObjectItemCaseSensitive(data, "usage");
		long out = llm_json_long(u, "output_tokens");
		if (out >= 0)
			s->r->output_tokens = out;
	} else if (strcmp(type, "message_stop") == 0) {
		s->done = 1;
	}
	return ST_OK;
}

static cJSON *
text_block(const char *text)
{
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "type", "text");
	cJSON_AddStringToObject(p, "text", text);
	return p;
}

static cJSON *
image_block(const struct llm_image *img)
{
	char *b64 = base64_encode(img->data, img->len);
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "type", "image");
	cJSON *src = cJSON_AddObjectToObject(p, "source");
	cJSON_AddStringToObject(src, "type", "base64");
	cJSON_AddStringToObject(src, "media_type", img->mime);
	cJSON_AddStringToObject(src, "data", b64);
	free(b64);
	return p;
}

static void
msg_user(cJSON *messages, const char *text, const struct llm_image *img, size_t nimg)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", "user");
	if (!nimg) {
		cJSON_AddStringToObject(m, "content", text);
	} else {
		/* Images first: Anthropic's advice for image questions. */
		cJSON *parts = cJSON_AddArrayToObject(m, "content");
		for (size_t i = 0; i < nimg; i++)
			cJSON_AddItemToArray(parts, image_block(&img[i]));
		cJSON_AddItemToArray(parts, text_block(text));
	}
	cJSON_AddItemToArray(messages, m);
}

static void
msg_assistant(cJSON *messages, const struct llm_result *r)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", "assistant");
	if (!r->ncalls) {
		cJSON_AddStringToObject(m, "content", r->text ? r->text : "");
	} else {
		cJSON *parts = cJSON_AddArrayToObject(m, "content");
		if (r->text && *r->text)
			cJSON_AddItemToArray(parts, text_block(r->text));
		for (size_t i = 0; i < r->ncalls; i++) {
			cJSON *p = cJSON_CreateObject();
			cJSON_AddStringToObject(p, "type", "tool_use");
			cJSON_AddStringToObject(p, "id", r->calls[i].id);
			cJSON_AddStringToObject(p, "name", r->calls[i].name);
			cJSON *input = r->calls[i].args ? cJSON_Parse(r->calls[i].args) : NULL;
			if (!cJSON_IsObject(input)) {
				cJSON_Delete(input);
				input = cJSON_CreateObject();
			}
			cJSON_AddItemToObject(p, "input", input);
			cJSON_AddItemToArray(parts, p);
		}
	}
	cJSON_AddItemToArray(messages, m);
}

static void
msg_tool_results(cJSON *messages, const struct llm_result *r, const struct llm_tool_result *res)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", "user");
	cJSON *parts = cJSON_AddArrayToObject(m, "content");
	for (size_t i = 0; i < r->ncalls; i++) {
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "type", "tool_result");
		cJSON_AddStringToObject(p, "tool_use_id", r->calls[i].id);
		const char *text = res[i].text ? res[i].text : "";
		if (!res[i].nimg) {
			cJSON_AddStringToObject(p, "content", text);
		} else {
			cJSON *c = cJSON_AddArrayToObject(p, "content");
			if (*text)
				cJSON_AddItemToArray(c, text_block(text));
			for (size_t k = 0; k < res[i].nimg; k++)
				cJSON_AddItemToArray(c, image_block(&res[i].img[k]));
		}
		if (res[i].is_error)
			cJSON_AddTrueToObject(p, "is_error");
		cJSON_AddItemToArray(parts, p);
	}
	cJSON_AddItemToArray(messages, m);
}

static cJSON *
tool(const char *name, const char *description, const cJSON *schema)
{
	cJSON *t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "name", name);
	if (description)
		cJSON_AddStringToObject(t, "description", description);
	cJSON_AddItemToObject(t, "input_schema", llm_tool_schema(schema));
	return t;
}

const struct llm_ops llm_anthropic_ops = {
	.name = "anthropic",
	.path = "/v1/messages",
	.key_env = "ANTHROPIC_API_KEY",
	.model = LLM_ANTHROPIC_MODEL,
	.url = LLM_ANTHROPIC_URL,
	.auth = "x-api-key: ",
	.header = "anthropic-version: " LLM_ANTHROPIC_VERSION,
	.body = body,
	.reply = reply,
	.event = event,
	.error_text = error_text,
	.msg_user = msg_user,
	.msg_assistant = msg_assistant,
	.msg_tool_results = msg_tool_results,
	.tool = tool,
};
