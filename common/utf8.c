/* UTF-8 (utf8.h), by RFC 3629: no overlong forms, no surrogates, nothing
 * past U+10FFFF. */
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "util.h"

size_t
utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	*cp = 0xfffd;
	if (!n)
		return 0;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	size_t len = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
	    : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	if (!len || len > n)
		return 0;
	uint32_t c = p[0] & (0xff >> (len + 1));
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

int
utf8_valid(const char *s, size_t n)
{
	uint32_t c;
	for (size_t i = 0; i < n;) {
		size_t l = utf8_decode(s + i, n - i, &c);
		if (!l)
			return 0;
		i += l;
	}
	return 1;
}

char *
utf8_sanitize(const char *s, size_t n)
{
	if (!s)
		return NULL;
	if (utf8_valid(s, n))
		return xstrndup(s, n);
	struct buf b = {0};
	uint32_t c;
	for (size_t i = 0; i < n;) {
		size_t l = utf8_decode(s + i, n - i, &c);
		if (l) {
			buf_add(&b, s + i, l);
			i += l;
		} else {
			buf_puts(&b, UTF8_REPLACEMENT);
			i++;
		}
	}
	buf_puts(&b, "");
	return b.data;
}

size_t
utf8_cut(const char *s, size_t n)
{
	size_t i = n;
	/* Back over continuation bytes to the last lead byte. */
	while (i > 0 && n - i < 4 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
		i--;
	if (i == 0 || n - i >= 4 || ((unsigned char)s[i - 1] & 0xc0) != 0xc0)
		return n;
	unsigned char lead = (unsigned char)s[i - 1];
	size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
	return n - (i - 1) < need ? i - 1 : n;
}
