/* fuzz-mcp-result: libFuzzer target for what an MCP server answers a
 * tools/call with, read as llm-call reads it (mcp_msg_parse, then
 * mcpc_result) before any of it reaches the model.  The first byte picks
 * the cut; the rest is the server's message.  Invariants: the text is
 * valid UTF-8 and no longer than the cut and its note; at most 4 images,
 * each a PNG, JPEG, GIF or WebP by its bytes and at most 5 MiB; the same
 * result read twice gives the same.  t-fuzz-replay.c includes this file
 * with FUZZ_REPLAY defined to run the corpus without libFuzzer. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "llm.h"
#include "mcp_impl.h"
#include "utf8.h"

#include "fuzz.h"

#define FUZZ_MCP_NOTE_MAX 160 /* the note a cut result ends with */

static int
fuzz_mcp_result_one(const uint8_t *data, size_t size)
{
	static const size_t caps[] = {16, 64, 100, 1000, 65536};
	if (size < 1)
		return 0;
	size_t cap = caps[data[0] % (sizeof caps / sizeof *caps)];
	cJSON *msg = mcp_msg_parse((const char *)data + 1, size - 1);
	if (!msg)
		return 0;
	const cJSON *result = cJSON_GetObjectItemCaseSensitive(msg, "result");
	char *text, *again;
	int is_error, is_error2;
	struct llm_image *imgs, *imgs2;
	size_t nimg, nimg2;
	mcpc_result(result, cap, &text, &is_error, &imgs, &nimg);
	mcpc_result(result, cap, &again, &is_error2, &imgs2, &nimg2);
	size_t len = strlen(text);
	assert(len > 0 && utf8_valid(text, len));
	assert(len <= cap + FUZZ_MCP_NOTE_MAX);
	assert(strcmp(text, again) == 0 && is_error == is_error2 && nimg == nimg2);
	assert(is_error == 0 || is_error == 1);
	assert(nimg <= 4);
	for (size_t i = 0; i < nimg; i++) {
		assert(imgs[i].len <= (5u << 20));
		const char *kind = llm_image_type(imgs[i].data, imgs[i].len);
		assert(kind && strcmp(kind, imgs[i].mime) == 0);
		assert(imgs2[i].len == imgs[i].len && memcmp(imgs2[i].data, imgs[i].data, imgs[i].len) == 0);
	}
	free(text);
	free(again);
	mcpc_images_free(imgs, nimg);
	mcpc_images_free(imgs2, nimg2);
	cJSON_Delete(msg);
	return 0;
}

FUZZ_TARGET(fuzz_mcp_result_one)
