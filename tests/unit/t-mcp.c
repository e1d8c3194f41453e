/* Unit tests for mcp_server.c's reading side: lines kept whole up to the limit,
 * and the id of a longer one found wherever it stands, as the reply to it
 * must carry it; and the client's reading of a server's ids. */
#include <stdlib.h>
#include <string.h>

#include "mcp_impl.h"
#include "mcp_server.h"
#include "tap.h"

static void
test_read_line(void)
{
	/* With a limit of 16 bytes; want is the line, or for a longer one
	 * the id found ("" none). */
	static const struct { const char *in; int too_long; const char *want; } cases[] = {
		{"{\"id\":1}\n", 0, "{\"id\":1}"},
		{"0123456789abcdef\n", 0, "0123456789abcdef"},
		{"{\"id\":7,\"params\":{\"x\":\"long enough\"}}\n", 1, "7"},
		{"{\"params\":{\"x\":\"long enough\"},\"id\":\"abc\"}\n", 1, "\"abc\""},
		{"{\"params\":{\"id\":1,\"x\":\"id\"},\"id\":2}\n", 1, "2"},
		{"{\"x\":\"\\\"id\\\":3\",\"id\" : -4.5e1 }\n", 1, "-4.5e1"},
		{"{\"id\":\"a\\\"}b\",\"params\":{\"x\":1}}\n", 1, "\"a\\\"}b\""},
		{"{\"id\":true,\"params\":{\"x\":\"long enough\"}}\n", 1, "true"},
		{"{\"id\":{\"a\":1},\"params\":{\"x\":\"long\"}}\n", 1, ""},
		{"[{\"id\":1,\"params\":{\"x\":\"long enough\"}}]\n", 1, ""},
		{"{\"params\":{\"x\":\"long enough\"}}\n", 1, ""},
		{"{\"ids\":1,\"params\":{\"x\":\"long enough\"}}\n", 1, ""},
		{"{\"first\":1,\"id\":2,\"id\":3,\"x\":\"long\"}\n", 1, "2"},
		{"not json at all, and long\n", 1, ""},
		{"{\"params\":{\"x\":\"long enough\"},\"id\":12", 1, "12"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *f = fmemopen((void *)cases[i].in, strlen(cases[i].in), "r");
		struct buf b = {0};
		int too_long = -1;
		int got = f ? mcp_server_read_line(f, &b, 16, &too_long) : -2;
		check(got == 1 && too_long == cases[i].too_long && strcmp(b.data, cases[i].want) == 0,
		    "line %zu: %s '%s'", i, too_long ? "too long, id" : "kept", cases[i].want);
		if (got != 1 || strcmp(b.data, cases[i].want) != 0)
			printf("#   got %d, too_long %d, '%s'\n", got, too_long, b.data);
		buf_free(&b);
		if (f)
			fclose(f);
	}
}

static void
test_too_large(void)
{
	static const struct { const char *id, *want; } cases[] = {
		{"7", "7"}, {"\"abc\"", "\"abc\""}, {"", "null"}, {NULL, "null"}, {"true", "null"},
		{"\"\\ud800\"", "null"}, {"\"a\xff\"", "\"a\xef\xbf\xbd\""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *r = mcp_server_too_large(cases[i].id);
		char want[256];
		snprintf(want, sizeof want, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32600,"
		    "\"message\":\"Invalid Request: message longer than 4194304 bytes\"}}", cases[i].want);
		check_str(r, want, "too large, id %s", cases[i].want);
		free(r);
	}
}

/* A server's id answers one of ours (1, 2, ...) only as that whole
 * number; any other number is no answer, and never converted past a long. */
static void
test_msg_id(void)
{
	static const struct { const char *msg; long want; } cases[] = {
		{"{\"id\":7}", 7}, {"{\"id\":0}", 0}, {"{\"id\":7.0}", 7}, {"{\"id\":7.5}", -1},
		{"{\"id\":-3}", -1}, {"{\"id\":1e300}", -1}, {"{\"id\":-1e300}", -1},
		{"{\"id\":9.3e18}", -1}, {"{\"id\":\"7\"}", -1}, {"{\"result\":{}}", -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cJSON *m = cJSON_Parse(cases[i].msg);
		long got = mcp_msg_id(m);
		check(got == cases[i].want, "mcp_msg_id(%s) = %ld (want %ld)", cases[i].msg, got,
		    cases[i].want);
		cJSON_Delete(m);
	}
}

int
main(void)
{
	test_read_line();
	test_too_large();
	test_msg_id();
	return tap_done();
}
