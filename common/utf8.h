/* utf8.h: UTF-8 as agentcron handles it: decoding one character at a time,
 * telling valid text from bytes, making any bytes valid text (each invalid
 * byte becomes U+FFFD), and cutting text without splitting a character. */
#ifndef AC_UTF8_H
#define AC_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define UTF8_REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* utf8.c */
/* The length of the valid character at s[0..n) (1-4) with its code point
 * in *cp, or 0 when the bytes there are not one (*cp = U+FFFD). */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
int utf8_valid(const char *s, size_t n);        /* every byte part of a valid character */
/* A malloc'd copy of s[0..n) that is valid UTF-8, each invalid byte
 * replaced by U+FFFD; NULL stays NULL. */
char *utf8_sanitize(const char *s, size_t n);
/* The longest prefix of s[0..n) that does not end inside a character. */
size_t utf8_cut(const char *s, size_t n);

#endif
