/* fuzz-llm-reply: libFuzzer target for what a provider's server sends
 * back, read as llm-call reads it (llm_reply_read): one JSON body or
 * server-sent events, OpenAI's or Anthropic's, with a status of 2xx or an
 * error.  The first byte picks the provider, the framing and the status,
 * the second where the body is cut into pieces; the rest is the body.
 * Invariants: the body read whole and read in pieces gives the same
 * answer or the same error; an error is one line of valid UTF-8 without
 * the API key; an answer has its text, and each tool call an id, a name
 * and arguments; token counts are -1 or more.  t-fuzz-replay.c includes
 * this file with FUZZ_REPLAY defined to run the corpus without libFuzzer. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "llm.h"
#include "utf8.h"

#include "fuzz.h"

#define FUZZ_LLM_KEY "sk-fuzz-0123456789abcdef"

static int
same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Cuts in body[0..n) from seed: every byte for seed 0 (short bodies),
 * else up to 63 pieces of lengths drawn from it. */
static size_t
fuzz_llm_cuts(unsigned seed, size_t n, size_t *cuts, size_t max)
{
	size_t k = 0;
	if (seed == 0 && n <= max) {
		for (size_t i = 1; i < n; i++)
			cuts[k++] = i;
		return k;
	}
	unsigned x = seed * 2654435761u + 1;
	for (size_t at = 0; k < max;) {
		x = x * 1103515245u + 12345u;
		at += 1 + (x >> 16) % (seed % 7 == 0 ? 3 : 97);
		if (at >= n)
			break;
		cuts[k++] = at;
	}
	return k;
}

static int
fuzz_llm_reply_one(const uint8_t *data, size_t size)
{
	static const long statuses[] = {200, 200, 200, 200, 201, 400, 401, 404, 410, 429, 500, 529,
		302, 503, 413, 299};
	if (size < 2)
		return 0;
	struct llm_config c = {
		.provider = data[0] & 1 ? LLM_ANTHROPIC : LLM_OPENAI,
		.api_key = FUZZ_LLM_KEY,
	};
	int sse = (data[0] >> 1) & 1;
	long status = statuses[(data[0] >> 2) % (sizeof statuses / sizeof *statuses)];
	const char *body = (const char *)data + 2;
	size_t n = size - 2, cuts[512];
	size_t ncuts = fuzz_llm_cuts(data[1], n, cuts, sizeof cuts / sizeof *cuts);

	struct llm_result whole, parts;
	struct err ew = {{0}}, ep = {{0}};
	int rw = llm_reply_read(&c, status, sse, body, n, NULL, 0, &whole, &ew);
	int rp = llm_reply_read(&c, status, sse, body, n, cuts, ncuts, &parts, &ep);
	assert(rw == rp);
	/* 0: the stream stopped before its end, as llm_send reports it. */
	assert(whole.http_status == parts.http_status);
	assert(whole.http_status == status || (rw != ST_OK && whole.http_status == 0));
	assert(whole.model_gone == parts.model_gone);
	if (rw != ST_OK) {
		assert(strcmp(ew.msg, ep.msg) == 0);
		size_t len = strlen(ew.msg);
		assert(len > 0 && utf8_valid(ew.msg, len));
		for (size_t i = 0; i < len; i++)
			assert((unsigned char)ew.msg[i] >= 0x20 && ew.msg[i] != 0x7f);
		assert(!strstr(ew.msg, FUZZ_LLM_KEY));
		assert(!(status >= 200 && status < 300) || !whole.model_gone);
		return 0;
	}
	assert(status >= 200 && status < 300);
	assert(whole.text && parts.text && strcmp(whole.text, parts.text) == 0);
	assert(same_str(whole.finish_reason, parts.finish_reason));
	assert(same_str(whole.model, parts.model));
	assert(whole.input_tokens >= -1 && whole.output_tokens >= -1);
	assert(whole.input_tokens == parts.input_tokens && whole.output_tokens == parts.output_tokens);
	assert(whole.ncalls == parts.ncalls);
	for (size_t i = 0; i < whole.ncalls; i++) {
		const struct llm_tool_call *a = &whole.calls[i], *b = &parts.calls[i];
		assert(a->id && a->name && a->args);
		assert(strcmp(a->id, b->id) == 0 && strcmp(a->name, b->name) == 0 &&
		    strcmp(a->args, b->args) == 0);
	}
	llm_result_free(&whole);
	llm_result_free(&parts);
	return 0;
}

FUZZ_TARGET(fuzz_llm_reply_one)
