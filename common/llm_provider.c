/* llm_provider.c: the providers (their names, default models, URLs and
 * key variables, chosen by a model's name) and the messages of a
 * conversation, each in its provider's wire format. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "llm_impl.h"

static const struct llm_ops *const ops_of[LLM_PROVIDER_COUNT] = {&llm_openai_ops, &llm_anthropic_ops,
	&llm_echo_ops};

const char *
llm_provider_name(int provider)
{
	return provider >= 0 && provider < LLM_PROVIDER_COUNT ? ops_of[provider]->name : "?";
}

int
llm_provider_parse(const char *s)
{
	for (int i = 0; i < LLM_PROVIDER_COUNT; i++)
		if (strcasecmp(s, ops_of[i]->name) == 0)
			return i;
	return -1;
}

int
llm_provider_for_model(const char *model)
{
	static const struct {
		const char *prefix;
		int provider;
	} table[] = {
		{"claude", LLM_ANTHROPIC}, {"anthropic/", LLM_ANTHROPIC},
		{"gpt-", LLM_OPENAI}, {"chatgpt-", LLM_OPENAI}, {"o1", LLM_OPENAI},
		{"o3", LLM_OPENAI}, {"o4", LLM_OPENAI}, {"openai/", LLM_OPENAI},
	};
	if (!model)
		return -1;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (str_casecmp_prefix(model, table[i].prefix) == 0)
			return table[i].provider;
	return -1;
}

const char *
llm_default_model(int provider)
{
	return ops_of[provider]->model;
}

const char *
llm_default_url(int provider)
{
	return ops_of[provider]->url;
}

const char *
llm_key_env(int provider)
{
	return ops_of[provider]->key_env;
}

const char *
llm_image_type(const unsigned char *p, size_t n)
{
	if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0)
		return "image/png";
	if (n >= 3 && memcmp(p, "\xff\xd8\xff", 3) == 0)
		return "image/jpeg";
	if (n >= 6 && (memcmp(p, "GIF87a", 6) == 0 || memcmp(p, "GIF89a", 6) == 0))
		return "image/gif";
	if (n >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0)
		return "image/webp";
	return NULL;
}

int
llm_url_is_local(const char *url)
{
	const char *p = strstr(url, "://");
	if (!p)
		return 0;
	p += 3;
	static const char *const hosts[] = {"localhost", "127.", "[::1]"};
	for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
		size_t n = strlen(hosts[i]);
		if (strncasecmp(p, hosts[i], n) == 0) {
			char c = p[n];
			return hosts[i][n - 1] == '.' || c == 0 || c == ':' || c == '/';
		}
	}
	return 0;
}

const struct llm_ops *
llm_ops_of(int provider)
{
	return ops_of[provider];
}

/* ---- messages ---- */

void
llm_msg_user(int provider, cJSON *messages, const char *text, const struct llm_image *img, size_t nimg)
{
	ops_of[provider]->msg_user(messages, text, img, nimg);
}

void
llm_msg_assistant(int provider, cJSON *messages, const struct llm_result *r)
{
	ops_of[provider]->msg_assistant(messages, r);
}

void
llm_msg_assistant_text(int provider, cJSON *messages, const char *text)
{
	struct llm_result r = {0};
	r.text = (char *)text;
	ops_of[provider]->msg_assistant(messages, &r);
}

void
llm_msg_tool_results(int provider, cJSON *messages, const struct llm_result *r,
    const struct llm_tool_result *res)
{
	ops_of[provider]->msg_tool_results(messages, r, res);
}

static int
name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 64)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

cJSON *
llm_tools_convert(int provider, const cJSON *mcp_tools, cJSON **names)
{
	cJSON *out = cJSON_CreateArray(), *map = cJSON_CreateArray();
	const cJSON *t;
	cJSON_ArrayForEach(t, mcp_tools) {
		const char *name = llm_json_str(t, "name");
		if (!name)
			continue;
		char wire[80];
		if (name_ok(name)) {
			snprintf(wire, sizeof wire, "%s", name);
		} else {
			size_t i = 0;
			for (const char *p = name; *p && i < 60; p++)
				wire[i++] = isalnum((unsigned char)*p) || *p == '-' ? *p : '_';
			wire[i] = 0;
			if (!i)
				snprintf(wire, sizeof wire, "tool");
		}
		/* Two names that map to one: number the later ones. */
		char base[80];
		snprintf(base, sizeof base, "%s", wire);
		for (int k = 2; llm_tool_name(map, wire); k++)
			snprintf(wire, sizeof wire, "%.58s_%d", base, k);
		cJSON *pair = cJSON_CreateArray();
		cJSON_AddItemToArray(pair, cJSON_CreateString(wire));
		cJSON_AddItemToArray(pair, cJSON_CreateString(name));
		cJSON_AddItemToArray(map, pair);
		const cJSON *schema = cJSON_GetObjectItemCaseSensitive(t, "inputSchema");
		cJSON_AddItemToArray(out, ops_of[provider]->tool(wire, llm_json_str(t, "description"),
		    schema));
	}
	*names = map;
	return out;
}

const char *
llm_tool_name(const cJSON *names, const char *wire)
{
	const cJSON *pair;
	cJSON_ArrayForEach(pair, names) {
		const cJSON *w = cJSON_GetArrayItem(pair, 0), *n = cJSON_GetArrayItem(pair, 1);
		if (cJSON_IsString(w) && cJSON_IsString(n) && strcmp(w->valuestring, wire) == 0)
			return n->valuestring;
	}
	return NULL;
}

cJSON *
llm_tool_schema(const cJSON *schema)
{
	if (cJSON_IsObject(schema))
		return cJSON_Duplicate(schema, 1);
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "type", "object");
	cJSON_AddObjectToObject(p, "properties");
	return p;
}
