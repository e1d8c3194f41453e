/* UTF-8: decoding one character by RFC 3629's table of well-formed byte
 * sequences, and on top of it validation, repair and cutting. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* Decode one character; *ok is 0 for an ill-formed sequence. */
static size_t
decode(const char *s, size_t n, uint32_t *cp, int *ok)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
	size_t len;
	uint32_t c;
	*ok = 1;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
		c = u[0] & 0x1f;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		c = u[0] & 0x0f;
		if (u[0] == 0xe0)
			lo = 0xa0; /* overlong below */
		else if (u[0] == 0xed)
			hi = 0x9f; /* surrogates above */
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		c = u[0] & 0x07;
		if (u[0] == 0xf0)
			lo = 0x90;
		else if (u[0] == 0xf4)
			hi = 0x8f; /* past U+10FFFF above */
	} else {
		*ok = 0;
		*cp = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if (i >= n || u[i] < (i == 1 ? lo : 0x80) || u[i] > (i == 1 ? hi : 0xbf)) {
			*ok = 0;
			*cp = 0xfffd;
			return i;
		}
		c = c << 6 | (u[i] & 0x3f);
	}
	*cp = c;
	return len;
}

size_t
utf8_next(const char *s, size_t n, uint32_t *cp)
{
	int ok;
	return decode(s, n, cp, &ok);
}

int
utf8_valid(const char *s, size_t n)
{
	uint32_t c;
	int ok;
	for (size_t i = 0; i < n;) {
		if ((unsigned char)s[i] < 0x80) { /* the common case, quickly */
			i++;
			continue;
		}
		size_t k = decode(s + i, n - i, &c, &ok);
		if (!ok)
			return 0;
		i += k;
	}
	return 1;
}

int
utf8_line(const char *s, size_t n)
{
	uint32_t c;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_decode(s + i, n - i, &c);
		if (!k || c < 0x20 || (c >= 0x7f && c < 0xa0))
			return 0;
		i += k;
	}
	return 1;
}

void
utf8_sanitize(struct buf *out, const char *s, size_t n)
{
	size_t start = 0, i = 0;
	uint32_t c;
	int ok;
	buf_add(out, "", 0);
	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		size_t k = decode(s + i, n - i, &c, &ok);
		if (!ok) {
			buf_add(out, s + start, i - start);
			buf_puts(out, UTF8_REPLACEMENT);
			start = i + k;
		}
		i += k;
	}
	buf_add(out, s + start, n - start);
}

char *
utf8_fix(const char *s)
{
	size_t n = strlen(s);
	if (utf8_valid(s, n))
		return NULL;
	struct buf b = {0};
	utf8_sanitize(&b, s, n);
	return b.data;
}

int
utf8_cut(const char *s, size_t max)
{
	if (max > INT_MAX)
		max = INT_MAX;
	size_t n = strnlen(s, max + 1);
	if (n <= max)
		return (int)n;
	/* s[max] starts the part left out; back up to the start of the
	 * character it belongs to (at most 3 bytes: longer runs of
	 * continuation bytes are ill-formed anyway). */
	n = max;
	for (int k = 0; k < 3 && n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; k++)
		n--;
	uint32_t c;
	if (n < max && n + utf8_next(s + n, max + 1 - n, &c) <= max)
		n = max; /* stray continuation bytes: no character straddles max */
	return (int)n;
}

size_t
utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	int ok = 0;
	size_t len = n ? decode(s, n, cp, &ok) : 0;
	if (!ok)
		*cp = 0xfffd;
	return ok ? len : 0;
}

char *
utf8_quote(char *buf, size_t n, const char *s, size_t len)
{
	size_t in = 0, out = 0, fit = 0;
	if (n == 0)
		return buf;
	if (n < 4) { /* no room for a character and "..." */
		buf[0] = 0;
		return buf;
	}
	while (in < len && s[in]) {
		uint32_t cp;
		size_t k = utf8_decode(s + in, strnlen(s + in, len - in), &cp);
		const char *add = s + in;
		size_t alen = k;
		char ctl;
		if (k == 0) {
			add = UTF8_REPLACEMENT, alen = 3, k = 1;
		} else if (cp < 0x20 || cp == 0x7f) {
			ctl = isspace((unsigned char)cp) ? ' ' : '?';
			add = &ctl, alen = 1;
		}
		if (out + alen + 3 <= n - 1)
			fit = out + alen;
		if (out + alen > n - 1) {
			memcpy(buf + fit, "...", 4);
			return buf;
		}
		memcpy(buf + out, add, alen);
		out += alen, in += k;
	}
	buf[out] = 0;
	return buf;
}

char *
utf8_clean(const char *s, size_t n)
{
	struct buf b = {0};
	utf8_sanitize(&b, s ? s : "", s ? n : 0);
	buf_puts(&b, "");
	return b.data;
}

size_t
utf8_trim(const char *s, size_t n)
{
	size_t i = n;
	while (i > 0 && n - i < 3 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
		i--;
	if (i == 0 || ((unsigned char)s[i - 1] & 0xc0) != 0xc0)
		return n;
	unsigned char lead = (unsigned char)s[i - 1];
	size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
	return n - (i - 1) < need ? i - 1 : n;
}
