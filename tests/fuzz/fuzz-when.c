/* fuzz-when: libFuzzer target for the time-expression parser.  The input is
 * read at a fixed "now" in two zones; a refusal must carry a message, and
 * when_parse must agree with when_parse_any except for the past check.
 * t-fuzz-replay.c includes this file with FUZZ_REPLAY defined. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "tz.h"
#include "when.h"

static struct tz *fuzz_when_zones[2];

static int
fuzz_when_one(const uint8_t *data, size_t size)
{
	static const char *const names[2] = {"Europe/London", "Pacific/Chatham"};
	const int64_t now = 1795357800; /* 2026-11-22T14:30:00Z */
	char text[512];
	struct err e = {{0}};
	if (size >= sizeof text)
		size = sizeof text - 1;
	memcpy(text, data, size);
	text[size] = 0;
	for (int k = 0; k < 2; k++) {
		if (!fuzz_when_zones[k] && tz_load(names[k], &fuzz_when_zones[k], &e) != ST_OK)
			continue;
		int64_t a = 0, b = 0;
		e.msg[0] = 0;
		int ra = when_parse(text, now, fuzz_when_zones[k], &a, &e);
		if (ra)
			assert(e.msg[0]);
		e.msg[0] = 0;
		int rb = when_parse_any(text, now, fuzz_when_zones[k], &b, &e);
		if (rb)
			assert(e.msg[0]);
		assert(ra || !rb);
		if (!ra)
			assert(a == b && a >= now - 60);
	}
	return 0;
}

#ifndef FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_when_one(data, size);
}
#endif
