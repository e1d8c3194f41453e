/* Unit tests for toolcall.c: how text an agent printed splits into calls
 * (lines, fences, braces in strings, broken calls), the trailing commas
 * dropped, and the call shapes of each agent family read to a name and
 * arguments. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "toolcall.h"

/* Each call of the input as "LINE name ARGS", "LINE error: MSG" or "LINE
 * too long", one a line. */
static char *
transcript(const char *input, size_t max)
{
	FILE *f = fmemopen((void *)input, strlen(input), "r");
	struct toolcall_in in;
	struct buf text = {0}, out = {0};
	buf_add(&out, "", 0);
	if (!f)
		return xstrdup("fmemopen failed");
	toolcall_in_init(&in, f, max);
	while (toolcall_next(&in, &text) == 1) {
		struct toolcall c;
		struct err e;
		if (in.too_long) {
			buf_printf(&out, "%ld too long\n", in.first);
		} else if (toolcall_parse(text.data, text.len, &c, &e) != ST_OK) {
			buf_printf(&out, "%ld error: %s\n", in.first, e.msg);
		} else {
			char *a = c.args ? cJSON_PrintUnformatted(c.args) : xstrdup("-");
			buf_printf(&out, "%ld %s %s\n", in.first, c.name, a);
			free(a);
			toolcall_free(&c);
		}
	}
	toolcall_in_free(&in);
	fclose(f);
	buf_free(&text);
	return out.data;
}

static void
test_calls(void)
{
	static const struct { const char *desc, *in, *want; } cases[] = {
		{"agent-zero's shape", "{\"tool_name\": \"a\", \"tool_args\": {\"x\": 1}}\n",
		    "1 a {\"x\":1}\n"},
		{"function calling, arguments as a JSON string",
		    "{\"name\": \"b\", \"arguments\": \"{\\\"y\\\":\\\"z\\\"}\"}\n", "1 b {\"y\":\"z\"}\n"},
		{"LangChain's shape, input a plain string",
		    "{\"action\": \"c\", \"action_input\": \"in 2 hours\"}\n", "1 c \"in 2 hours\"\n"},
		{"tool and input", "{\"tool\": \"d\", \"input\": {}}\n", "1 d {}\n"},
		{"no arguments, or null ones", "{\"name\": \"e\"}\n{\"name\": \"f\", \"args\": null}\n",
		    "1 e -\n2 f -\n"},
		{"the first name key wins", "{\"name\": \"g\", \"tool_name\": \"h\"}\n", "1 h -\n"},
		{"blank lines and fences around calls",
		    "\n```json\n{\"name\": \"i\"}\n```\n\n~~~\n{\"name\": \"j\"}\n~~~\n",
		    "3 i -\n7 j -\n"},
		{"a call over several lines with trailing commas",
		    "{\n  \"tool_name\": \"k\",\n  \"tool_args\": {\n    \"l\": [1, 2,],\n  },\n}\n",
		    "1 k {\"l\":[1,2]}\n"},
		{"braces, quotes and commas inside strings stay",
		    "{\"name\": \"m\", \"arguments\": {\"p\": \"a } \\\" ,} ]\"},}\n",
		    "1 m {\"p\":\"a } \\\" ,} ]\"}\n"},
		{"a broken call ends at the next one in column one",
		    "{\"name\": \"n\", \"arguments\": {\n{\"name\": \"o\"}\n",
		    "1 error: invalid JSON\n2 o -\n"},
		{"a broken call ends at a fence",
		    "```\n{\"name\": \"p\",\n```\n{\"name\": \"q\"}\n", "2 error: invalid JSON\n4 q -\n"},
		{"not an object", "[1, 2]\n\"x\"\n", "1 error: not a JSON object\n2 error: not a JSON object\n"},
		{"no name", "{\"tool_args\": {}}\n{\"name\": 5}\n",
		    "1 error: no tool name (\"tool_name\" or \"name\")\n"
		    "2 error: no tool name (\"tool_name\" or \"name\")\n"},
		{"prose is not a call", "not a call at all\n", "1 error: invalid JSON\n"},
		{"arguments that are not UTF-8 are refused",
		    "{\"name\": \"r\", \"arguments\": {\"s\": \"caf\xe9\"}}\n",
		    "1 error: argument 's' is not UTF-8 text\n"},
		{"a name that is not UTF-8 is read with U+FFFD",
		    "{\"name\": \"r\xff\"}\n", "1 r\xef\xbf\xbd -\n"},
		{"the last call without a newline", "{\"name\": \"t\"}", "1 t -\n"},
		{"nothing", "", ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = transcript(cases[i].in, 4096);
		check_str(got, cases[i].want, "%s", cases[i].desc);
		free(got);
	}
	char *got = transcript("{\"name\": \"u\",\n \"arguments\": {\"v\": \"0123456789\"}}\n{\"name\": \"w\"}\n",
	    20);
	check_str(got, "1 too long\n3 w -\n", "a call past the limit is flagged, the next one read");
	free(got);
}

static void
test_relax(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{"{\"a\": 1,}", "{\"a\": 1}"}, {"[1, 2 ,\n ]", "[1, 2 \n ]"},
		{"{\"a\": \",}\"}", "{\"a\": \",}\"}"}, {"{\"a\": \"\\\",}\"}", "{\"a\": \"\\\",}\"}"},
		{"[1,,]", "[1,]"}, {"", ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf b = {0};
		buf_puts(&b, cases[i].in);
		toolcall_relax(&b);
		check_str(b.data ? b.data : "", cases[i].want, "relax case %zu", i);
		buf_free(&b);
	}
}

int
main(void)
{
	test_calls();
	test_relax();
	return tap_done();
}
