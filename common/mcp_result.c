/* mcp_result.c: an MCP tool's result made into what the model is given:
 * text, with images decoded and checked, and what cannot be passed
 * named; and --mcp-allow's globs. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "hmac.h"
#include "llm.h"
#include "mcp_client.h"
#include "utf8.h"

#define MAX_IMAGES 4
#define IMAGE_MAX (5L << 20)

/* Base64 as servers send it: line breaks allowed (MIME style). */
static unsigned char *
decode_data(const char *s, size_t *n)
{
	char *flat = xstrdup(s);
	size_t k = 0;
	for (const char *p = s; *p; p++)
		if (*p != '\n' && *p != '\r')
			flat[k++] = *p;
	flat[k] = 0;
	unsigned char *out = base64_decode(flat, n);
	free(flat);
	return out;
}

void
mcpc_result(const cJSON *result, size_t cap, char **text, int *is_error, struct llm_image **imgs,
    size_t *nimg)
{
	struct buf b = {0};
	struct llm_image *im = xcalloc(MAX_IMAGES, sizeof *im);
	size_t ni = 0;
	int any_text = 0;
	const cJSON *block;
	buf_puts(&b, "");
	cJSON_ArrayForEach(block, cJSON_GetObjectItemCaseSensitive(result, "content")) {
		const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(block, "type"));
		const char *mime = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(block, "mimeType"));
		if (b.len)
			buf_puts(&b, "\n");
		if (!type) {
			buf_puts(&b, "[a content block without a type]");
		} else if (strcmp(type, "text") == 0) {
			const char *t = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(block, "text"));
			buf_puts(&b, t ? t : "");
			any_text = 1;
		} else if (strcmp(type, "image") == 0) {
			const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(block, "data"));
			size_t n = 0;
			unsigned char *data = d ? decode_data(d, &n) : NULL;
			const char *kind = data ? llm_image_type(data, n) : NULL;
			if (kind && ni < MAX_IMAGES && n <= (size_t)IMAGE_MAX) {
				im[ni++] = (struct llm_image){kind, data, n};
				buf_printf(&b, "[image %zu: %s, %zu bytes]", ni, kind, n);
			} else {
				free(data);
				buf_printf(&b, "[image (%s) left out: %s]", mime ? mime : "?", !kind
				    ? "not a PNG, JPEG, GIF or WebP" : ni >= MAX_IMAGES ? "more than 4 images"
				    : "larger than 5 MiB");
			}
		} else if (strcmp(type, "audio") == 0) {
			buf_printf(&b, "[audio (%s) left out: the model is given text and images only]",
			    mime ? mime : "?");
		} else if (strcmp(type, "resource_link") == 0) {
			const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(block, "uri"));
			const char *nm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(block, "name"));
			buf_printf(&b, "[resource link: %s%s%s]", uri ? uri : "?", nm ? " " : "", nm ? nm : "");
		} else if (strcmp(type, "resource") == 0) {
			const cJSON *r = cJSON_GetObjectItemCaseSensitive(block, "resource");
			const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "uri"));
			const char *t = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "text"));
			if (t)
				buf_printf(&b, "[resource %s]\n%s", uri ? uri : "?", t);
			else
				buf_printf(&b, "[binary resource %s left out]", uri ? uri : "?");
			any_text |= t != NULL;
		} else {
			buf_printf(&b, "[a '%s' block left out]", type);
		}
	}
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
	if (sc && !any_text) {
		char *s = cJSON_PrintUnformatted(sc);
		if (b.len)
			buf_puts(&b, "\n");
		buf_puts(&b, s ? s : "");
		free(s);
	}
	if (!b.len)
		buf_puts(&b, "(the tool returned no content)");
	if (b.len > cap) {
		size_t keep = b.len <= cap ? b.len : (size_t)utf8_cut(b.data, cap), total = b.len;
		b.len = keep;
		b.data[keep] = 0;
		buf_printf(&b, "\n[cut: the result was %zu bytes; llm-call passes at most %zu bytes of a "
		    "tool result]", total, cap);
	}
	*text = b.data;
	*is_error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"));
	*imgs = im;
	*nimg = ni;
}

void
mcpc_images_free(struct llm_image *imgs, size_t n)
{
	for (size_t i = 0; imgs && i < n; i++)
		free((void *)imgs[i].data);
	free(imgs);
}

/* A glob of --mcp-allow against a tool's full name. */
int
mcpc_allowed(const char *const *patterns, size_t n, const char *name)
{
	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (fnmatch(patterns[i], name, 0) == 0)
			return 1;
	return 0;
}
