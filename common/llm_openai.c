/* OpenAI-compatible Chat Completions: POST {base}/chat/completions with a
 * bearer key; the shape OpenAI, Ollama (/v1), llama.cpp's server, vLLM and
 * OpenRouter all speak.  Streams are "data: {chunk}" events ending with
 * "data: [DONE]"; usage arrives in a last chunk when asked for with
 * stream_options.include_usage. */
#include <stdlib.h>
#include <string.h>

#include "hmac.h"
#include "llm_impl.h"

static cJSON *
body(const struct llm_config *c, const cJSON *messages, const cJSON *tools)
{
	cJSON *b = cJSON_CreateObject();
	cJSON_AddStringToObject(b, "model", c->model ? c->model : LLM_OPENAI_MODEL);
	cJSON *msgs = cJSON_AddArrayToObject(b, "messages");
	if (c->system && *c->system) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", "system");
		cJSON_AddStringToObject(m, "content", c->system);
		cJSON_AddItemToArray(msgs, m);
	}
	const cJSON *m;
	cJSON_ArrayForEach(m, messages)
		cJSON_AddItemToArray(msgs, cJSON_Duplicate(m, 1));
	if (c->stream) {
		cJSON_AddTrueToObject(b, "stream");
		cJSON *so = cJSON_AddObjectToObject(b, "stream_options");
		cJSON_AddTrueToObject(so, "include_usage");
	}
	if (tools && cJSON_GetArraySize(tools) > 0)
		cJSON_AddItemToObject(b, "tools", cJSON_Duplicate(tools, 1));
	llm_merge_options(b, c->options);
	return b;
}

static const char *
error_text(const cJSON *root)
{
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
	if (cJSON_IsString(err))
		return err->valuestring;
	const char *msg = llm_json_str(err, "message");
	return msg ? msg : llm_json_str(root, "message");
}

static void
usage(struct llm_stream *s, const cJSON *u)
{
	if (!cJSON_IsObject(u))
		return;
	long in = llm_json_long(u, "prompt_tokens"), out = llm_json_long(u, "completion_tokens");
	if (in >= 0)
		s->r->input_tokens = in;
	if (out >= 0)
		s->r->output_tokens = out;
}

static void
content_text(struct llm_stream *s, const cJSON *content)
{
	if (cJSON_IsString(content)) {
		llm_stream_text(s, content->valuestring, strlen(content->valuestring));
		return;
	}
	/* Some servers answer with content parts. */
	const cJSON *part;
	cJSON_ArrayForEach(part, content) {
		const char *t = llm_json_str(part, "text");
		if (t)
			llm_stream_text(s, t, strlen(t));
	}
}

static void
tool_calls(struct llm_stream *s, const cJSON *calls)
{
	const cJSON *tc;
	long pos = 0;
	cJSON_ArrayForEach(tc, calls) {
		long idx = llm_json_long(tc, "index");
		const cJSON *fn = cJSON_GetObjectItemCaseSensitive(tc, "function");
		size_t i = llm_stream_call(s, idx >= 0 ? idx : pos, llm_json_str(tc, "id"),
		    llm_json_str(fn, "name"));
		llm_stream_args(s, i, llm_json_str(fn, "arguments"));
		pos++;
	}
}

/* An "error" member that is there and not null (some compatible servers
 * send "error": null with every answer). */
static int
has_error(const cJSON *o)
{
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(o, "error");
	return err && !cJSON_IsNull(err);
}

static int
reply(struct llm_stream *s, const cJSON *root, struct err *e)
{
	if (has_error(root)) {
		const char *msg = error_text(root);
		return err_set(e, ST_ERR, "openai: %s", msg ? msg : "the reply is an error");
	}
	const cJSON *choice = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "choices"), 0);
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(choice, "message");
	if (!cJSON_IsObject(msg))
		return err_set(e, ST_ERR, "openai: the reply has no choices[0].message");
	const char *model = llm_json_str(root, "model");
	if (model)
		set_str(&s->r->model, model);
	content_text(s, cJSON_GetObjectItemCaseSensitive(msg, "content"));
	tool_calls(s, cJSON_GetObjectItemCaseSensitive(msg, "tool_calls"));
	llm_stream_finish(s, llm_json_str(choice, "finish_reason"));
	usage(s, cJSON_GetObjectItemCaseSensitive(root, "usage"));
	return ST_OK;
}

static int
event(struct llm_stream *s, const char *name, const cJSON *data, struct err *e)
{
	(void)name;
	if (has_error(data)) {
		const char *msg = error_text(data);
		return err_set(e, ST_ERR, "openai: %s", msg ? msg : "the stream reported an error");
	}
	const char *model = llm_json_str(data, "model");
	if (model && !s->r->model)
		s->r->model = xstrdup(model);
	const cJSON *choice = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(data, "choices"), 0);
	if (choice) {
		const cJSON *delta = cJSON_GetObjectItemCaseSensitive(choice, "delta");
		content_text(s, cJSON_GetObjectItemCaseSensitive(delta, "content"));
		tool_calls(s, cJSON_GetObjectItemCaseSensitive(delta, "tool_calls"));
		llm_stream_finish(s, llm_json_str(choice, "finish_reason"));
	}
	usage(s, cJSON_GetObjectItemCaseSensitive(data, "usage"));
	return ST_OK;
}

static cJSON *
image_part(const struct llm_image *img)
{
	char *b64 = base64_encode(img->data, img->len);
	char *url = xasprintf("data:%s;base64,%s", img->mime, b64);
	free(b64);
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "type", "image_url");
	cJSON *iu = cJSON_AddObjectToObject(p, "image_url");
	cJSON_AddStringToObject(iu, "url", url);
	free(url);
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
		cJSON *parts = cJSON_AddArrayToObject(m, "content");
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "type", "text");
		cJSON_AddStringToObject(p, "text", text);
		cJSON_AddItemToArray(parts, p);
		for (size_t i = 0; i < nimg; i++)
			cJSON_AddItemToArray(parts, image_part(&img[i]));
	}
	cJSON_AddItemToArray(messages, m);
}

static void
msg_assistant(cJSON *messages, const struct llm_result *r)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", "assistant");
	if (r->ncalls && (!r->text || !*r->text))
		cJSON_AddNullToObject(m, "content");
	else
		cJSON_AddStringToObject(m, "content", r->text ? r->text : "");
	if (r->ncalls) {
		cJSON *calls = cJSON_AddArrayToObject(m, "tool_calls");
		for (size_t i = 0; i < r->ncalls; i++) {
			cJSON *tc = cJSON_CreateObject();
			cJSON_AddStringToObject(tc, "id", r->calls[i].id);
			cJSON_AddStringToObject(tc, "type", "function");
			cJSON *fn = cJSON_AddObjectToObject(tc, "function");
			cJSON_AddStringToObject(fn, "name", r->calls[i].name);
			cJSON_AddStringToObject(fn, "arguments", r->calls[i].args ? r->calls[i].args : "{}");
			cJSON_AddItemToArray(calls, tc);
		}
	}
	cJSON_AddItemToArray(messages, m);
}

static void
msg_tool_results(cJSON *messages, const struct llm_result *r, const struct llm_tool_result *res)
{
	size_t nimg = 0;
	for (size_t i = 0; i < r->ncalls; i++) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", "tool");
		cJSON_AddStringToObject(m, "tool_call_id", r->calls[i].id);
		cJSON_AddStringToObject(m, "content", res[i].text ? res[i].text : "");
		cJSON_AddItemToArray(messages, m);
		nimg += res[i].nimg;
	}
	/* A tool message holds text only: the images follow as the user's,
	 * in order, which the results' text announces. */
	if (!nimg)
		return;
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", "user");
	cJSON *parts = cJSON_AddArrayToObject(m, "content");
	for (size_t i = 0; i < r->ncalls; i++)
		for (size_t k = 0; k < res[i].nimg; k++)
			cJSON_AddItemToArray(parts, image_part(&res[i].img[k]));
	cJSON_AddItemToArray(messages, m);
}

static cJSON *
tool(const char *name, const char *description, const cJSON *schema)
{
	cJSON *t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "type", "function");
	cJSON *fn = cJSON_AddObjectToObject(t, "function");
	cJSON_AddStringToObject(fn, "name", name);
	if (description)
		cJSON_AddStringToObject(fn, "description", description);
	cJSON_AddItemToObject(fn, "parameters", llm_tool_schema(schema));
	return t;
}

const struct llm_ops llm_openai_ops = {
	.name = "openai",
	.path = "/chat/completions",
	.key_env = "OPENAI_API_KEY",
	.model = LLM_OPENAI_MODEL,
	.url = LLM_OPENAI_URL,
	.auth = "Authorization: Bearer ",
	.body = body,
	.reply = reply,
	.event = event,
	.error_text = error_text,
	.msg_user = msg_user,
	.msg_assistant = msg_assistant,
	.msg_tool_results = msg_tool_results,
	.tool = tool,
};
