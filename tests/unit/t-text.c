/* t-text: text as agentcron prints it: error messages (err_set), JSON
 * lines (json_print_line), \u0000 in JSON text (json_find_nul,
 * json_mask_nul); and the shared number helpers floor_div and cmp_int64
 * against plain references. */
#include <stdlib.h>

#include "tap.h"
#include "task_json.h"
#include "utf8.h"
#include "util.h"

static void
test_err_set(void)
{
	static const struct {
		const char *in, *want, *what;
	} cases[] = {
		{"plain", "plain", "ASCII as it is"},
		{"caf\xc3\xa9", "caf\xc3\xa9", "UTF-8 as it is"},
		{"caf\xe9", "caf\xef\xbf\xbd", "a Latin-1 byte becomes U+FFFD"},
		{"a\xe2\x82", "a\xef\xbf\xbd\xef\xbf\xbd", "a character cut short: each byte U+FFFD"},
		{"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", "an overlong form"},
		{"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "a surrogate"},
		{"one\ntwo\tthree", "one two three", "one line"},
		{"bell\a esc\x1b[31m", "bell? esc?[31m", "no terminal controls"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct err e;
		check_int(err_set(&e, ST_INVALID, "%s", cases[i].in), ST_INVALID, "err_set returns the status");
		check_str(e.msg, cases[i].want, "err_set: %s", cases[i].what);
	}
	/* Longer than the message: cut at a character, whatever the width. */
	for (int lead = 0; lead < 4; lead++) {
		char in[2 * ERR_MAX];
		size_t n = 0;
		for (int i = 0; i < lead; i++)
			in[n++] = 'x';
		while (n + 3 < sizeof in - 1) {
			memcpy(in + n, "\xe2\x82\xac", 3); /* the euro sign */
			n += 3;
		}
		in[n] = 0;
		struct err e;
		err_set(&e, ST_ERR, "%s", in);
		size_t len = strlen(e.msg);
		check(utf8_valid(e.msg, len) && len >= ERR_MAX - 3 && len < ERR_MAX,
		    "err_set: a long message (%d ASCII first) is cut whole characters, %zu bytes", lead,
		    len);
		check(strstr(e.msg, UTF8_REPLACEMENT) == NULL, "err_set: no U+FFFD from the cut itself");
	}
	/* Its own message as an argument. */
	struct err e;
	err_set(&e, ST_ERR, "inner \xff");
	err_set(&e, ST_ERR, "outer: %s", e.msg);
	check_str(e.msg, "outer: inner \xef\xbf\xbd", "err_set: may quote its own message");
}

static void
test_json_print_line(void)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", "caf\xe9");
	cJSON_AddStringToObject(o, "ok", "\xe2\x82\xac \"q\"\n");
	char *s = json_print_line(o);
	check_str(s, "{\"name\":\"caf\xef\xbf\xbd\",\"ok\":\"\xe2\x82\xac \\\"q\\\"\\n\"}",
	    "json_print_line: bytes that are not UTF-8 as U+FFFD, the rest as cJSON prints it");
	cJSON *back = cJSON_Parse(s);
	check_str(cJSON_GetStringValue(cJSON_GetObjectItem(back, "name")), "caf\xef\xbf\xbd",
	    "json_print_line: reads back");
	cJSON_Delete(back);
	free(s);
	cJSON_Delete(o);
}

static void
test_json_nul(void)
{
	static const struct {
		const char *in;
		long at;
		const char *masked;
	} cases[] = {
		{"{\"a\":\"x\"}", -1, "{\"a\":\"x\"}"},
		{"{\"a\":\"x\\u0000y\"}", 7, "{\"a\":\"x\\uFFFDy\"}"},
		{"{\"a\\u0000\":1}", 3, "{\"a\\uFFFD\":1}"},
		{"{\"a\":\"\\\\u0000\"}", -1, "{\"a\":\"\\\\u0000\"}"},
		{"{\"a\":\"\\\\\\u0000\"}", 8, "{\"a\":\"\\\\\\uFFFD\"}"},
		{"{\"a\":\"\\\"\\u0000\"}", 8, "{\"a\":\"\\\"\\uFFFD\"}"},
		{"[\"\\u0000\",\"\\u0000\"]", 2, "[\"\\uFFFD\",\"\\uFFFD\"]"},
		{"{\"a\":\"\\u00000\"}", 6, "{\"a\":\"\\uFFFD0\"}"},
		{"{\"a\":\"\\u000a\"}", -1, "{\"a\":\"\\u000a\"}"},
		{"\\u0000", -1, "\\u0000"},
		{"\"\\u000", -1, "\"\\u000"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *in = cases[i].in;
		check_int(json_find_nul(in, strlen(in)), cases[i].at, "json_find_nul %s", in);
		char *m = xstrdup(in);
		json_mask_nul(m, strlen(m));
		check_str(m, cases[i].masked, "json_mask_nul %s", in);
		free(m);
	}
	char two[] = "[\"\\u0000\",\"a\\u0000b\\u0000\"]";
	check_int(json_mask_nul(two, strlen(two)), 3, "json_mask_nul counts each");
	cJSON *j = cJSON_Parse(two);
	check_str(cJSON_GetStringValue(cJSON_GetArrayItem(j, 1)), "a\xef\xbf\xbd" "b\xef\xbf\xbd",
	    "masked text parses whole");
	cJSON_Delete(j);
}

/* Random JSON strings of escapes that look alike, masked, read back by
 * cJSON and compared with what their pieces mean. */
static void
test_json_mask_random(void)
{
	static const struct {
		const char *json, *text;
	} pieces[] = {
		{"a", "a"}, {"\\\\", "\\"}, {"\\\"", "\""}, {"\\u0000", "\xef\xbf\xbd"},
		{"\\u0041", "A"}, {"\\\\u0000", "\\u0000"}, {"u0000", "u0000"}, {"\\n", "\n"},
	};
	unsigned seed = 12345;
	int bad = 0;
	for (int round = 0; round < 2000; round++) {
		struct buf j = {0}, want = {0};
		buf_puts(&j, "[\"");
		int n = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 12;
		for (int i = 0; i < n; i++) {
			size_t k = ((seed = seed * 1103515245u + 12345u) >> 16) % (sizeof pieces / sizeof pieces[0]);
			buf_puts(&j, pieces[k].json);
			buf_puts(&want, pieces[k].text);
		}
		buf_puts(&j, "\"]");
		buf_puts(&want, "");
		json_mask_nul(j.data, j.len);
		cJSON *a = cJSON_Parse(j.data);
		const char *got = cJSON_GetStringValue(cJSON_GetArrayItem(a, 0));
		if (!got || strcmp(got, want.data) != 0 || json_find_nul(j.data, j.len) >= 0) {
			if (!bad++)
				printf("#   %s: got '%s', want '%s'\n", j.data, got ? got : "(null)", want.data);
		}
		cJSON_Delete(a);
		buf_free(&j);
		buf_free(&want);
	}
	check_int(bad, 0, "json_mask_nul: 2000 random strings read back whole, NUL as U+FFFD");
}

static void
test_numbers(void)
{
	static const int64_t bs[] = {1, 7, 60, 86400};
	int bad = 0;
	for (int64_t a = -200000; a <= 200000; a += 997)
		for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++) {
			int64_t b = bs[i], q = floor_div(a, b);
			/* The reference: the q with q*b <= a < (q+1)*b. */
			bad += !(q * b <= a && a < (q + 1) * b);
		}
	check_int(bad, 0, "floor_div rounds down for every sign");
	check_int(floor_div(-1, 86400), -1, "floor_div: the second before the epoch is day -1");
	check_int(floor_div(INT64_MIN + 1, 86400) <= 0, 1, "floor_div: far past");
	int64_t v[] = {5, INT64_MIN, 3, INT64_MAX, -1, 0, 3};
	qsort(v, sizeof v / sizeof v[0], sizeof v[0], cmp_int64);
	int sorted = 1;
	for (size_t i = 1; i < sizeof v / sizeof v[0]; i++)
		sorted &= v[i - 1] <= v[i];
	check(sorted && v[0] == INT64_MIN && v[6] == INT64_MAX, "cmp_int64 orders the extremes too");
}

int
main(void)
{
	test_err_set();
	test_json_print_line();
	test_json_nul();
	test_json_mask_random();
	test_numbers();
	return tap_done();
}
