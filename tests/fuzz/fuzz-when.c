/* fuzz-when: libFuzzer target for the time-expression parser.  The first
 * byte picks the zone (London, Chatham, Sydney), whether numeric dates are
 * day first, and one of two "now"s; the rest is the expression.  A refusal
 * must be one line of valid UTF-8; when_parse must agree with
 * when_parse_any except for the past check; an instant read lies in the
 * years 1-9999 and reads back from the RFC 3339 text task-when prints.
 * t-fuzz-replay.c includes this file with FUZZ_REPLAY defined. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "tz.h"
#include "utf8.h"
#include "when.h"

#include "fuzz.h"

static struct tz *fuzz_when_zones[3];

static void
fuzz_when_clean(const char *s)
{
	size_t n = strlen(s);
	assert(n > 0);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);
		assert(k > 0 && cp >= 0x20 && cp != 0x7f);
		i += k;
	}
}

static int
fuzz_when_one(const uint8_t *data, size_t size)
{
	static const char *const names[3] = {"Europe/London", "Pacific/Chatham",
		"Australia/Sydney"};
	static const int64_t nows[2] = {1795357800,  /* 2026-11-22T14:30:00Z */
		253402200000}; /* 9999-12-31T20:00:00Z, near the end of the range */
	char text[512];
	struct err e = {{0}};
	if (size == 0)
		return 0;
	unsigned pick = data[0];
	data++, size--;
	if (size >= sizeof text)
		size = sizeof text - 1;
	memcpy(text, data, size);
	text[size] = 0;
	int k = (int)(pick % 3);
	unsigned flags = pick & 4 ? WHEN_DMY : 0;
	int64_t now = nows[pick >> 3 & 1];
	if (!fuzz_when_zones[k] && tz_load(names[k], &fuzz_when_zones[k], &e) != ST_OK)
		return 0;
	const struct tz *z = fuzz_when_zones[k];
	int64_t a = 0, b = 0;
	e.msg[0] = 0;
	int ra = when_read(text, now, z, flags, &a, &e);
	if (ra) {
		assert(ra == ST_INVALID);
		fuzz_when_clean(e.msg);
	}
	e.msg[0] = 0;
	int rb = when_read(text, now, z, flags | WHEN_PAST_OK, &b, &e);
	if (rb)
		fuzz_when_clean(e.msg);
	assert(ra || !rb);
	if (!ra)
		assert(a == b && a >= now - 60);
	if (!rb) {
		assert(b >= -62135596800 && b <= 253402300799);
		char printed[64];
		int64_t back = 0;
		tz_fmt_rfc3339(z, b, printed, sizeof printed);
		assert(when_read(printed, now, z, WHEN_PAST_OK, &back, &e) == ST_OK && back == b);
	}
	return 0;
}

FUZZ_TARGET(fuzz_when_one)
