/* fuzz-agent-input: libFuzzer target for what agents send: the UTF-8
 * repair, the lenient tool-call reader of task-mcp --call and the MCP line
 * reader with its scan for the id of a message too long to keep.
 * Invariants: repaired text is valid and valid text is left alone; a cut
 * never ends inside a character of valid text; a call read has a valid
 * UTF-8 name, a call refused has a message; every line kept fits the
 * limit, and the reply to one too long is JSON-RPC with a string, number
 * or null id.  t-fuzz-replay.c includes this file with FUZZ_REPLAY defined
 * to run the corpus without libFuzzer. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mcp_server.h"
#include "toolcall.h"
#include "utf8.h"

#include "fuzz.h"

static void
fuzz_utf8(const char *s, size_t n)
{
	struct buf b = {0};
	utf8_sanitize(&b, s, n);
	assert(utf8_valid(b.data, b.len));
	int v = utf8_valid(s, n);
	assert(!v || (b.len == n && memcmp(b.data, s, n) == 0));
	buf_free(&b);
	char *z = xstrndup(s, n); /* up to the first NUL */
	size_t zn = strlen(z);
	for (size_t max = 0; max <= zn && max < 64; max++) {
		int k = utf8_cut(z, max);
		assert(k >= 0 && (size_t)k <= max);
		if (v)
			assert(utf8_valid(z, (size_t)k) && (max == zn || max - (size_t)k < 4));
	}
	free(z);
}

static void
fuzz_calls(const char *s, size_t n)
{
	FILE *f = fmemopen((void *)s, n, "r");
	if (!f)
		return;
	struct toolcall_in in;
	struct buf text = {0};
	toolcall_in_init(&in, f, 256);
	while (toolcall_next(&in, &text) == 1) {
		struct toolcall c;
		struct err e = {{0}};
		assert(in.first >= 1 && in.first <= in.line);
		assert(text.len <= 256);
		if (toolcall_parse(text.data, text.len, &c, &e) == ST_OK) {
			assert(c.name && utf8_valid(c.name, strlen(c.name)));
			toolcall_free(&c);
		} else {
			assert(e.msg[0]);
		}
	}
	toolcall_in_free(&in);
	buf_free(&text);
	fclose(f);
}

static void
fuzz_lines(const char *s, size_t n)
{
	FILE *f = fmemopen((void *)s, n, "r");
	if (!f)
		return;
	struct buf line = {0};
	int too_long;
	while (mcp_server_read_line(f, &line, 32, &too_long) == 1) {
		if (!too_long) {
			assert(line.len <= 32);
			continue;
		}
		char *reply = mcp_server_too_large(line.data);
		assert(utf8_valid(reply, strlen(reply)));
		cJSON *r = cJSON_Parse(reply);
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");
		assert(cJSON_IsObject(r) && (cJSON_IsString(id) || cJSON_IsNumber(id) ||
		    cJSON_IsNull(id)));
		cJSON_Delete(r);
		free(reply);
	}
	buf_free(&line);
	fclose(f);
}

static int
fuzz_agent_input_one(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	fuzz_utf8((const char *)data, size);
	fuzz_calls((const char *)data, size);
	fuzz_lines((const char *)data, size);
	return 0;
}

FUZZ_TARGET(fuzz_agent_input_one)
