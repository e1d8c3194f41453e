/* utf8.h: UTF-8 text as RFC 3629 defines it (no overlong forms, no
 * surrogates, nothing past U+10FFFF): checking it, making it valid, and
 * cutting it between characters, so that every byte agentcron prints as
 * text or JSON is valid UTF-8 whatever a prompt or an executor held. */
#ifndef AC_UTF8_H
#define AC_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define UTF8_REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* utf8.c */
/* One character of s[0..n), n > 0: its length in bytes and, in *cp, its
 * code point.  An ill-formed sequence is U+FFFD and its length the bytes
 * of its maximal subpart (Unicode's "substitution of maximal subparts",
 * as WHATWG decoders do): never 0, never more than n. */
size_t utf8_next(const char *s, size_t n, uint32_t *cp);
int utf8_valid(const char *s, size_t n);             /* 1 if s[0..n) is all well-formed */
/* 1 if s[0..n) is well-formed and holds no control character (C0, DEL or
 * C1): one line that a terminal shows as it is. */
int utf8_line(const char *s, size_t n);
/* Append s[0..n) to out with each ill-formed sequence as U+FFFD; a NUL
 * byte is kept as it is (it is well-formed). */
void utf8_sanitize(struct buf *out, const char *s, size_t n);
/* A malloc'd valid copy of the string s, or NULL when s is already valid
 * (the caller keeps using s). */
char *utf8_fix(const char *s);
char *utf8_clean(const char *s, size_t n);          /* a malloc'd valid copy of s[0..n), always */
/* One well-formed character at s[0..n): its length with *cp, or 0 when the
 * bytes there are not one (strict, where utf8_next substitutes). */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/* s[0..len) quoted into buf[0..n) for a message: whole characters only,
 * U+FFFD for ill-formed bytes, controls as a space or '?', "..." when cut.
 * Returns buf. */
char *utf8_quote(char *buf, size_t n, const char *s, size_t len);
/* The length of the longest prefix of s of at most max bytes that does not
 * end inside a character: for quoting "%.*s" without cutting one in two. */
int utf8_cut(const char *s, size_t max);
/* The length of s[0..n) without the start of a character that a cut at n
 * left incomplete (for text already cut, where utf8_cut cannot look on). */
size_t utf8_trim(const char *s, size_t n);

#endif
