/* Unit tests for utf8.c: repair by maximal subparts (the Unicode
 * standard's own example included), validation against an independent
 * bit-pattern decoder on random bytes, and cutting between characters. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "utf8.h"

#define R UTF8_REPLACEMENT
/* A string literal and its length, NUL bytes included. */
#define S(lit) lit, sizeof lit - 1

static void
test_sanitize(void)
{
	static const struct { const char *in; size_t n; const char *want; size_t wn; } cases[] = {
		{S("plain ascii"), S("plain ascii")},
		{S(""), S("")},
		{S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
		    S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80")},
		{S(R), S(R)},                                       /* U+FFFD itself is fine */
		{S("a\xff" "b"), S("a" R "b")},                     /* never a lead byte */
		{S("\xc0\xaf"), S(R R)},                            /* overlong '/' */
		{S("\xe0\x80\xaf"), S(R R R)},                      /* overlong, 3 bytes */
		{S("\xed\xa0\x80"), S(R R R)},                      /* a surrogate */
		{S("\xf4\x90\x80\x80"), S(R R R R)},                /* past U+10FFFF */
		{S("\xf4\x8f\xbf\xbf"), S("\xf4\x8f\xbf\xbf")},     /* U+10FFFF */
		{S("\xe2\x82"), S(R)},                              /* cut short at the end */
		{S("\xe2\x82x"), S(R "x")},                         /* cut short, one U+FFFD */
		{S("\x80\xbf"), S(R R)},                            /* lone continuation bytes */
		{S("a\0b"), S("a\0b")},                             /* NUL is well-formed */
		/* The Unicode standard's table 3-8. */
		{S("\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64"),
		    S("a" R R R "b" R "c" R R "d")},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf b = {0};
		size_t wn = cases[i].wn;
		utf8_sanitize(&b, cases[i].in, cases[i].n);
		check(b.len == wn && memcmp(b.data, cases[i].want, wn) == 0, "sanitize case %zu", i);
		check_int(utf8_valid(cases[i].in, cases[i].n),
		    cases[i].n == wn && memcmp(cases[i].in, cases[i].want, wn) == 0,
		    "valid case %zu", i);
		check_int(utf8_valid(b.data, b.len), 1, "sanitized case %zu is valid", i);
		buf_free(&b);
	}
	char *fixed = utf8_fix("ok \xc3\xa9");
	check(fixed == NULL, "utf8_fix leaves valid text alone");
	fixed = utf8_fix("bad \xc3");
	check_str(fixed, "bad " R, "utf8_fix repairs");
	free(fixed);
}

/* A decoder written from the bit patterns of RFC 3629, section 3: the
 * length from the lead byte's high bits, then the value checked for
 * overlong forms, surrogates and the ceiling. */
static int
ref_valid(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char b = s[i];
		size_t len = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3
		    : (b & 0xf8) == 0xf0 ? 4 : 0;
		if (!len || i + len > n)
			return 0;
		uint32_t c = len == 1 ? b : b & (0x7f >> len);
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (s[i + k] & 0x3f);
		}
		static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
		if (c < min[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

static void
test_random(void)
{
	/* Bytes near the boundaries of the table, so that about half the
	 * strings are valid. */
	static const unsigned char pool[] = {'a', 0, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0,
		0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff};
	unsigned seed = 12345;
	int bad_valid = 0, bad_fix = 0, bad_cut = 0;
	for (int iter = 0; iter < 200000; iter++) {
		unsigned char s[9];
		size_t n = (size_t)(iter % 9);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			s[i] = pool[(seed >> 16) % sizeof pool];
		}
		int v = utf8_valid((const char *)s, n);
		if (v != ref_valid(s, n) && bad_valid++ < 5)
			printf("#   validity differs for %zu bytes starting %02x\n", n, n ? s[0] : 0);
		struct buf b = {0};
		utf8_sanitize(&b, (const char *)s, n);
		if ((!ref_valid((const unsigned char *)b.data, b.len) ||
		    (v && (b.len != n || memcmp(b.data, s, n) != 0))) && bad_fix++ < 5)
			printf("#   repair wrong for %zu bytes starting %02x\n", n, n ? s[0] : 0);
		buf_free(&b);
		/* Cutting valid text never leaves a partial character. */
		if (v && !memchr(s, 0, n)) {
			char z[10];
			memcpy(z, s, n);
			z[n] = 0;
			for (size_t max = 0; max <= n; max++) {
				int k = utf8_cut(z, max);
				if ((k < 0 || (size_t)k > max || !ref_valid((unsigned char *)z, (size_t)k) ||
				    (size_t)k + 3 < max) && bad_cut++ < 5)
					printf("#   cut of %zu bytes at %zu gave %d\n", n, max, k);
			}
		}
	}
	check_int(bad_valid, 0, "utf8_valid agrees with a bit-pattern decoder on random bytes");
	check_int(bad_fix, 0, "utf8_sanitize output is valid and keeps valid input");
	check_int(bad_cut, 0, "utf8_cut of valid text ends between characters");
}

static void
test_cut(void)
{
	static const struct { const char *s; size_t max; int want; } cases[] = {
		{"hello", 10, 5}, {"hello", 5, 5}, {"hello", 3, 3}, {"hello", 0, 0},
		{"a\xc3\xa9z", 2, 1}, {"a\xc3\xa9z", 3, 3}, {"a\xc3\xa9z", 1, 1},
		{"\xe2\x82\xac\xe2\x82\xac", 4, 3}, {"\xe2\x82\xac\xe2\x82\xac", 5, 3},
		{"\xe2\x82\xac\xe2\x82\xac", 6, 6}, {"\xf0\x9f\x98\x80!", 3, 0},
		{"\xf0\x9f\x98\x80!", 4, 4},
		{"ab\x80\x80\x80\x80x", 4, 4}, /* stray continuation bytes: cut where asked */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_int(utf8_cut(cases[i].s, cases[i].max), cases[i].want, "cut case %zu at %zu", i,
		    cases[i].max);
	uint32_t c;
	check_int(utf8_next("\xe2\x82\xac", 3, &c), 3, "next: euro sign is 3 bytes");
	check_int(c, 0x20ac, "next: U+20AC");
	check_int(utf8_next("\xe2\x82\xac", 2, &c), 2, "next: stops at n");
	check_int(c, 0xfffd, "next: a short sequence is U+FFFD");
}

/* utf8_line: well-formed text a terminal shows as it is. */
static void
test_line(void)
{
	static const struct { const char *in; size_t n; int want; } cases[] = {
		{S("gpt-4o mini"), 1}, {S(""), 1}, {S("caf\xc3\xa9 \xe2\x82\xac"), 1},
		{S("a\nb"), 0}, {S("a\tb"), 0}, {S("\x1b[2J"), 0}, {S("a\x7f"), 0},
		{S("a\0b"), 0}, {S("\xc2\x9b" "31m"), 0}, {S("\xc2\x9f"), 0}, {S("\xc2\xa0"), 1},
		{S("a\xff"), 0}, {S("\xed\xa0\x80"), 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_int(utf8_line(cases[i].in, cases[i].n), cases[i].want, "line case %zu", i);
}

int
main(void)
{
	test_sanitize();
	test_random();
	test_cut();
	test_line();
	return tap_done();
}
