/* llm_request.c: a conversation's first request kept and built again
 * (llm_request.h).  Images are kept as base64. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hmac.h"
#include "llm.h"
#include "llm_impl.h"
#include "llm_request.h"
#include "llm_session.h"

char *
llm_request_save(const struct llm_session *s, const char *prompt)
{
	const struct llm_config *lc = &s->lc;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "provider", llm_provider_name(lc->provider));
	cJSON_AddStringToObject(o, "model", lc->model ? lc->model : "");
	if (lc->system)
		cJSON_AddStringToObject(o, "system", lc->system);
	cJSON_AddStringToObject(o, "prompt", prompt ? prompt : "");
	cJSON_AddItemToObject(o, "history", s->history ? cJSON_Duplicate(s->history, 1)
	    : cJSON_CreateArray());
	cJSON_AddStringToObject(o, "text", s->text.data ? s->text.data : "");
	cJSON *imgs = cJSON_AddArrayToObject(o, "images");
	for (size_t i = 0; i < s->nimg; i++) {
		cJSON *im = cJSON_CreateObject();
		char *b64 = base64_encode(s->imgs[i].data, s->imgs[i].len);
		cJSON_AddStringToObject(im, "mime", s->imgs[i].mime);
		cJSON_AddStringToObject(im, "data", b64);
		free(b64);
		cJSON_AddItemToArray(imgs, im);
	}
	if (s->tools && s->offered)
		cJSON_AddItemToObject(o, "tools", cJSON_Duplicate(s->offered, 1));
	if (s->options && cJSON_GetArraySize(s->options))
		cJSON_AddItemToObject(o, "options", cJSON_Duplicate(s->options, 1));
	cJSON_AddBoolToObject(o, "stream", lc->stream);
	char *text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return text;
}

static int
b64_value(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Standard base64 with padding; -1 on anything else. */
static long
b64_decode(const char *in, unsigned char **out)
{
	size_t n = strlen(in);
	if (n % 4)
		return -1;
	unsigned char *p = xmalloc(n / 4 * 3 + 1);
	size_t len = 0;
	for (size_t i = 0; i < n; i += 4) {
		int v[4];
		for (int j = 0; j < 4; j++)
			v[j] = in[i + j] == '=' && i + 4 == n && j >= 2 ? -2 : b64_value(in[i + j]);
		if (v[0] < 0 || v[1] < 0 || v[2] == -1 || v[3] == -1 || (v[2] == -2 && v[3] != -2)) {
			free(p);
			return -1;
		}
		p[len++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		if (v[2] >= 0)
			p[len++] = (unsigned char)((v[1] & 15) << 4 | v[2] >> 2);
		if (v[3] >= 0)
			p[len++] = (unsigned char)((v[2] & 3) << 6 | v[3]);
	}
	p[len] = 0;
	*out = p;
	return (long)len;
}

static const char *
str_of(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

int
llm_request_load(struct llm_session *s, const char *json, const char **prompt, int *stream,
    struct err *e)
{
	cJSON *o = cJSON_Parse(json);
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "history");
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(o, "options");
	const cJSON *tools = cJSON_GetObjectItemCaseSensitive(o, "tools");
	if (!cJSON_IsObject(o) || !str_of(o, "text") || !str_of(o, "prompt") || !cJSON_IsArray(h) ||
	    (opts && !cJSON_IsObject(opts)) || (tools && !cJSON_IsArray(tools)) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(o, "images"))) {
		cJSON_Delete(o);
		return err_set(e, ST_INVALID, "the request to replay is not one llm-call recorded");
	}
	cJSON_Delete(s->replay);
	s->replay = o;
	if (str_of(o, "provider"))
		s->provider = str_of(o, "provider");
	if (str_of(o, "model") && *str_of(o, "model"))
		s->model = str_of(o, "model");
	s->system = str_of(o, "system");
	s->context = NULL;          /* sent as it was; the context is not added to */
	s->nattach = 0;
	cJSON_Delete(s->options);
	s->options = opts ? cJSON_Duplicate(opts, 1) : cJSON_CreateObject();
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "stream");
	*stream = cJSON_IsBool(st) ? cJSON_IsTrue(st) : -1;
	*prompt = str_of(o, "prompt");
	return ST_OK;
}

int
llm_request_conversation(struct llm_session *s, struct err *e)
{
	const cJSON *o = s->replay, *it;
	int p = s->lc.provider;
	const cJSON *imgs = cJSON_GetObjectItemCaseSensitive(o, "images");
	size_t n = (size_t)cJSON_GetArraySize(imgs);
	for (size_t i = 0; s->atts && i < s->natts; i++)
		llm_attach_free(&s->atts[i]);
	free(s->atts);
	free(s->imgs);
	s->atts = xcalloc(n ? n : 1, sizeof *s->atts);
	s->imgs = xcalloc(n ? n : 1, sizeof *s->imgs);
	s->natts = s->nimg = 0;
	cJSON_ArrayForEach(it, imgs) {
		const char *data = str_of(it, "data");
		unsigned char *bytes;
		long len = data ? b64_decode(data, &bytes) : -1;
		if (len < 0)
			return err_set(e, ST_INVALID, "an image of the request to replay is not base64");
		const char *mime = llm_image_type(bytes, (size_t)len);
		struct llm_attachment *a = &s->atts[s->natts++];
		a->name = xstrdup("image");
		a->data = bytes;
		a->len = (size_t)len;
		a->mime = mime;
		if (!mime)
			return err_set(e, ST_INVALID, "an image of the request to replay is of no known type");
		s->imgs[s->nimg++] = (struct llm_image){mime, bytes, (size_t)len};
	}
	s->text.len = 0;
	buf_puts(&s->text, str_of(o, "text"));
	cJSON_Delete(s->messages);
	s->messages = cJSON_CreateArray();
	cJSON_Delete(s->history);
	s->history = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(o, "history"), 1);
	cJSON_ArrayForEach(it, s->history) {
		const char *role = str_of(it, "role"), *content = str_of(it, "content");
		if (!role || !content)
			return err_set(e, ST_INVALID, "a message of the request to replay has no role or content");
		if (strcmp(role, "user") == 0)
			llm_msg_user(p, s->messages, content, NULL, 0);
		else
			llm_msg_assistant_text(p, s->messages, content);
	}
	llm_msg_user(p, s->messages, s->text.data, s->imgs, s->nimg);
	const cJSON *tools = cJSON_GetObjectItemCaseSensitive(o, "tools");
	cJSON_Delete(s->tools);
	cJSON_Delete(s->names);
	s->tools = s->names = NULL;
	cJSON_Delete(s->offered);
	s->offered = NULL;
	if (tools) {
		s->offered = cJSON_Duplicate(tools, 1);
		s->tools = llm_tools_convert(p, s->offered, &s->names);
	}
	return ST_OK;
}
