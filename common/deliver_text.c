/* deliver_text.c: an answer shaped for its receiver: parts within a
 * message limit, Slack's escaping, mail's encodings (deliver.h). */
#include <stdlib.h>
#include <string.h>

#include "deliver.h"
#include "hmac.h"

/* Bytes of the character at p (1 for a byte that starts none). */
static size_t
char_len(const unsigned char *p)
{
	if (*p < 0x80) return 1;
	if ((*p & 0xe0) == 0xc0) return 2;
	if ((*p & 0xf0) == 0xe0) return 3;
	if ((*p & 0xf8) == 0xf0) return 4;
	return 1;
}

/* The units of the character at p, l bytes long, as the receiver counts
 * it: bytes; else UTF-16 units; Slack's the entity & < > will be sent as. */
static size_t
units_of(const char *p, size_t l, int units)
{
	if (units == DELIVER_UNITS_BYTES)
		return l;
	if (units == DELIVER_UNITS_SLACK && *p == '&')
		return 5;
	if (units == DELIVER_UNITS_SLACK && (*p == '<' || *p == '>'))
		return 4;
	return l == 4 ? 2 : 1;
}

/* Where the part from s should end: at most max units. */
static size_t
part_end(const char *s, size_t max, int units)
{
	size_t i = 0, sum = 0, para = 0, line = 0, blank = 0;
	while (s[i]) {
		size_t l = char_len((const unsigned char *)s + i), u = units_of(s + i, l, units);
		for (size_t k = 1; k < l; k++)
			if (!s[i + k])
				l = k;
		if (sum + u > max)
			break;
		sum += u;
		i += l;
		if (s[i - 1] == '\n' && i >= 2 && s[i - 2] == '\n')
			para = i;
		else if (s[i - 1] == '\n')
			line = i;
		else if (s[i - 1] == ' ')
			blank = i;
	}
	if (!s[i])
		return i;
	size_t half = i / 2;
	if (para > half) return para;
	if (line > half) return line;
	if (blank > half) return blank;
	return i ? i : char_len((const unsigned char *)s);
}

void
deliver_split(const char *text, size_t limit, int units, char ***parts, size_t *n)
{
	size_t total = 0, len = strlen(text);
	for (size_t i = 0; i < len; i += char_len((const unsigned char *)text + i))
		total += units_of(text + i, char_len((const unsigned char *)text + i), units);
	if (total <= limit || limit < 40) {
		*parts = xmalloc(sizeof **parts);
		(*parts)[0] = xstrdup(text);
		*n = 1;
		return;
	}
	/* "[999/999]\n": room for the numbers. */
	size_t room = limit - 12, cap = 8, count = 0;
	char **v = xmalloc(cap * sizeof *v);
	for (size_t pos = 0; pos < len;) {
		size_t end = part_end(text + pos, room, units);
		if (count == cap)
			v = xrealloc(v, (cap *= 2) * sizeof *v);
		v[count++] = xstrndup(text + pos, end);
		pos += end;
	}
	for (size_t i = 0; i < count; i++) {
		char *p = xasprintf("[%zu/%zu]\n%s", i + 1, count, v[i]);
		free(v[i]);
		v[i] = p;
	}
	*parts = v;
	*n = count;
}

void
deliver_parts_free(char **parts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(parts[i]);
	free(parts);
}

char *
deliver_slack_escape(const char *text)
{
	struct buf b = {0};
	buf_add(&b, "", 0);
	for (const char *p = text; *p; p++) {
		if (*p == '&') buf_puts(&b, "&amp;");
		else if (*p == '<') buf_puts(&b, "&lt;");
		else if (*p == '>') buf_puts(&b, "&gt;");
		else buf_add(&b, p, 1);
	}
	return b.data;
}

void
deliver_mail_header(struct buf *b, const char *text)
{
	int plain = 1;
	for (const char *p = text; *p; p++)
		if ((unsigned char)*p >= 0x80 || *p == '\r' || *p == '\n')
			plain = 0;
	if (plain) {
		buf_puts(b, text);
		return;
	}
	/* Encoded words of whole characters, each under 76 columns. */
	size_t len = strlen(text);
	for (size_t i = 0; i < len;) {
		size_t take = 0;
		while (i + take < len && take < 45) {
			size_t l = char_len((const unsigned char *)text + i + take);
			if (take + l > 45 && take)
				break;
			take += l;
		}
		if (i + take > len)
			take = len - i;
		char *raw = xstrndup(text + i, take);
		for (char *c = raw; *c; c++)
			if (*c == '\r' || *c == '\n')
				*c = ' ';
		char *enc = base64_encode((const unsigned char *)raw, strlen(raw));
		buf_printf(b, "%s=?UTF-8?B?%s?=", i ? "\r\n " : "", enc);
		free(enc);
		free(raw);
		i += take;
	}
}

void
deliver_quoted_printable(struct buf *b, const char *text)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t col = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '\r' && p[1] == '\n')
			continue;
		if (*p == '\n') {
			buf_puts(b, "\r\n");
			col = 0;
			continue;
		}
		char enc[4];
		size_t w;
		/* A blank before a line end would be lost in transit: encoded. */
		int blank_at_end = (*p == ' ' || *p == '\t') && (p[1] == '\n' || p[1] == 0 ||
		    (p[1] == '\r' && p[2] == '\n'));
		if ((*p >= 33 && *p <= 126 && *p != '=') || ((*p == ' ' || *p == '\t') && !blank_at_end)) {
			enc[0] = (char)*p;
			w = 1;
		} else {
			enc[0] = '=';
			enc[1] = hex[*p >> 4];
			enc[2] = hex[*p & 15];
			w = 3;
		}
		if (col + w > 75) {
			buf_puts(b, "=\r\n");
			col = 0;
		}
		buf_add(b, enc, w);
		col += w;
	}
	/* A body ends with a line end; one the text has not is a soft break. */
	size_t n = strlen(text);
	if (n == 0 || text[n - 1] != '\n')
		buf_puts(b, "=\r\n");
}
