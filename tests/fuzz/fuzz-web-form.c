/* fuzz-web-form: libFuzzer target for what task-web reads from a browser
 * and writes into its pages: a form body (web_form_parse) and the HTML
 * escaping of any text (html_esc), model output included.  Invariants:
 * the escaped text holds no < > " ' and no & but its own five entities,
 * and reads back as the text; a body's fields are as many as its
 * non-empty pieces between &; fields percent-encoded (as a browser sends
 * them) read back the same, one that holds a NUL said so.
 * t-fuzz-replay.c includes this file with FUZZ_REPLAY defined to run the
 * corpus without libFuzzer. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web_http.h"

#include "fuzz.h"

static void
fuzz_web_esc(const char *text)
{
	static const char *const ents[][2] = {
		{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"},
	};
	struct buf esc = {0};
	buf_add(&esc, "", 0);
	html_esc(&esc, text);
	char *back = fuzz_unescape(esc.data, ents, 5, "<>\"'");
	assert(strcmp(back, text) == 0);
	free(back);
	buf_free(&esc);
}

/* s[0..n) percent-encoded as a form field: letters and digits kept, a
 * blank as +, every other byte %XX. */
static void
fuzz_web_encode(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
			buf_add(b, s + i, 1);
		else if (c == ' ')
			buf_puts(b, "+");
		else
			buf_printf(b, "%%%02X", c);
	}
}

static int
fuzz_web_form_one(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	char *text = xstrndup(s, size); /* to its first NUL */
	fuzz_web_esc(text);
	free(text);

	/* The input as a body. */
	size_t n, pieces = 0;
	int nul;
	struct web_kv *kv = web_form_parse(s, size, &n, &nul);
	for (size_t i = 0, start = 0; i <= size; i++) {
		if (i == size || s[i] == '&') {
			pieces += i > start;
			start = i + 1;
		}
	}
	assert(n == pieces);
	web_kv_free(kv, n);

	/* The input as fields (split at each 0x01, key and value at the first
	 * 0x02), encoded as a browser would, then read. */
	struct buf body = {0};
	buf_add(&body, "", 0);
	size_t nfields = 0;
	int has_nul = 0;
	for (size_t i = 0, start = 0; i <= size; i++) {
		if (i < size && s[i] != 1)
			continue;
		const char *f = s + start, *eq = memchr(f, 2, i - start);
		size_t klen = eq ? (size_t)(eq - f) : i - start;
		if (nfields++)
			buf_puts(&body, "&");
		fuzz_web_encode(&body, f, klen);
		buf_puts(&body, "=");
		if (eq)
			fuzz_web_encode(&body, eq + 1, i - start - klen - 1);
		has_nul |= memchr(f, 0, i - start) != NULL;
		start = i + 1;
	}
	kv = web_form_parse(body.data, body.len, &n, &nul);
	assert(nul == has_nul);
	size_t k = 0;
	for (size_t i = 0, start = 0; i <= size && !has_nul; i++) {
		if (i < size && s[i] != 1)
			continue;
		const char *f = s + start, *eq = memchr(f, 2, i - start);
		size_t klen = eq ? (size_t)(eq - f) : i - start;
		size_t vlen = eq ? i - start - klen - 1 : 0;
		/* An empty field (nothing before its =) still has its "=". */
		assert(k < n);
		assert(strlen(kv[k].key) == klen && memcmp(kv[k].key, f, klen) == 0);
		assert(strlen(kv[k].value) == vlen && (!vlen || memcmp(kv[k].value, eq + 1, vlen) == 0));
		k++;
		start = i + 1;
	}
	assert(has_nul || k == n);
	web_kv_free(kv, n);
	buf_free(&body);
	return 0;
}

FUZZ_TARGET(fuzz_web_form_one)
