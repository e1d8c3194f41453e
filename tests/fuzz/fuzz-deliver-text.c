/* fuzz-deliver-text: libFuzzer target for an answer shaped for its
 * receiver (deliver_text.c): split into parts within a message limit,
 * Slack's escaping, a mail header's encoded words and a quoted-printable
 * body, each checked against a reading back written here.  The first
 * byte picks the limit and how it counts; the rest is the answer.
 * Invariants: the parts, their "[i/n]" heads taken off, join into the
 * answer, each within the limit and whole characters; the escaping, the
 * header and the body decode to the answer (a header's line ends as
 * blanks, the body's CRLF as LF), every encoded word and body line within
 * mail's 76 columns, nothing else on them but ASCII.  Raw bytes, not
 * UTF-8, go through each without a fault.  t-fuzz-replay.c includes this
 * file with FUZZ_REPLAY defined to run the corpus without libFuzzer. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deliver.h"
#include "hmac.h"
#include "utf8.h"

#include "fuzz.h"

/* The units a receiver counts in valid UTF-8 text s. */
static size_t
fuzz_deliver_units(const char *s, int units)
{
	size_t n = 0;
	for (size_t i = 0, len = strlen(s); i < len;) {
		uint32_t c;
		size_t l = utf8_decode(s + i, len - i, &c);
		assert(l);
		if (units == DELIVER_UNITS_BYTES)
			n += l;
		else if (units == DELIVER_UNITS_SLACK && c == '&')
			n += 5;
		else if (units == DELIVER_UNITS_SLACK && (c == '<' || c == '>'))
			n += 4;
		else
			n += c > 0xffff ? 2 : 1;
		i += l;
	}
	return n;
}

static void
fuzz_deliver_split(const char *text, size_t limit, int units, int valid)
{
	char **parts;
	size_t n;
	deliver_split(text, limit, units, &parts, &n);
	assert(n >= 1);
	struct buf joined = {0};
	buf_add(&joined, "", 0);
	for (size_t i = 0; i < n; i++) {
		const char *body = parts[i];
		if (n > 1) {
			char head[48];
			snprintf(head, sizeof head, "[%zu/%zu]\n", i + 1, n);
			assert(strncmp(body, head, strlen(head)) == 0);
			body += strlen(head);
			assert(*body);
		}
		buf_puts(&joined, body);
		if (valid) {
			assert(utf8_valid(parts[i], strlen(parts[i])));
			if (n > 1 && n < 1000)
				assert(fuzz_deliver_units(parts[i], units) <= limit);
		}
	}
	assert(strcmp(joined.data, text) == 0);
	assert(n > 1 || strcmp(parts[0], text) == 0);
	buf_free(&joined);
	deliver_parts_free(parts, n);
}

static void
fuzz_deliver_slack(const char *text)
{
	static const char *const ents[][2] = {{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}};
	char *esc = deliver_slack_escape(text), *back = fuzz_unescape(esc, ents, 3, "<>");
	assert(strcmp(back, text) == 0);
	free(back);
	free(esc);
}

static int
fuzz_deliver_hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The body decoded: soft breaks gone, =XX a byte, CRLF a line end. */
static void
fuzz_deliver_qp(const char *text)
{
	struct buf qp = {0}, back = {0}, want = {0};
	buf_add(&qp, "", 0);
	buf_add(&back, "", 0);
	buf_add(&want, "", 0);
	deliver_quoted_printable(&qp, text);
	const char *line = qp.data;
	for (const char *p = qp.data; *p;) {
		assert((unsigned char)*p < 0x80 && *p != '\n' && (*p != '\r' || p[1] == '\n'));
		if (p[0] == '\r') {
			assert(p - line <= 76);
			p += 2;
			line = p;
			buf_puts(&back, "\n");
		} else if (p[0] == '=' && p[1] == '\r') {
			assert(p - line <= 75 && p[2] == '\n');
			p += 3;
			line = p;
		} else if (p[0] == '=') {
			int hi = fuzz_deliver_hex(p[1]), lo = hi < 0 ? -1 : fuzz_deliver_hex(p[2]);
			assert(hi >= 0 && lo >= 0);
			char c = (char)(hi * 16 + lo);
			buf_add(&back, &c, 1);
			p += 3;
		} else {
			buf_add(&back, p++, 1);
		}
	}
	assert(line == qp.data + qp.len);  /* ends with a line end */
	for (const char *p = text; *p; p++)
		if (!(p[0] == '\r' && p[1] == '\n'))
			buf_add(&want, p, 1);
	assert(strcmp(back.data, want.data) == 0);
	buf_free(&qp);
	buf_free(&back);
	buf_free(&want);
}

/* A header decoded: plain ASCII as it is, else encoded words joined. */
static void
fuzz_deliver_header(const char *text)
{
	struct buf h = {0}, back = {0};
	buf_add(&h, "", 0);
	buf_add(&back, "", 0);
	deliver_mail_header(&h, text);
	if (strncmp(h.data, "=?UTF-8?B?", 10) != 0 || strcmp(h.data, text) == 0) {
		assert(strcmp(h.data, text) == 0);
		for (const char *p = text; *p; p++)
			assert((unsigned char)*p < 0x80 && *p != '\r' && *p != '\n');
	} else {
		char *copy = xstrdup(h.data);
		for (char *w = copy, *next; w; w = next) {
			next = strstr(w, "\r\n ");
			if (next) {
				*next = 0;
				next += 3;
			}
			size_t wl = strlen(w);
			assert(wl <= 75 && strncmp(w, "=?UTF-8?B?", 10) == 0 && strcmp(w + wl - 2, "?=") == 0);
			w[wl - 2] = 0;
			size_t n;
			unsigned char *raw = base64_decode(w + 10, &n);
			assert(raw);
			buf_add(&back, (const char *)raw, n);
			free(raw);
		}
		free(copy);
		char *want = xstrdup(text);
		for (char *c = want; *c; c++)
			if (*c == '\r' || *c == '\n')
				*c = ' ';
		assert(strcmp(back.data, want) == 0);
		free(want);
	}
	buf_free(&h);
	buf_free(&back);
}

static int
fuzz_deliver_text_one(const uint8_t *data, size_t size)
{
	static const size_t limits[] = {40, 41, 64, 100, 200, 4096};
	if (size < 1)
		return 0;
	int units = data[0] % 3;
	size_t limit = limits[(data[0] / 3) % (sizeof limits / sizeof *limits)];
	char *raw = xstrndup((const char *)data + 1, size - 1);  /* to its first NUL */
	struct buf text = {0};
	utf8_sanitize(&text, raw, strlen(raw));
	buf_add(&text, "", 0);
	fuzz_deliver_split(text.data, limit, units, 1);
	fuzz_deliver_split(raw, limit, units, 0);
	fuzz_deliver_slack(text.data);
	fuzz_deliver_slack(raw);
	fuzz_deliver_qp(text.data);
	fuzz_deliver_qp(raw);
	fuzz_deliver_header(text.data);
	buf_free(&text);
	free(raw);
	return 0;
}

FUZZ_TARGET(fuzz_deliver_text_one)
