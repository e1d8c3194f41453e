/* fuzz-cron: libFuzzer target for the cron parser, the description and the
 * search.  Invariants: a refusal has a message; an accepted expression's
 * next instant is after the start and a whole minute, and cron_next from
 * just before it finds it again.  t-fuzz-replay.c includes this file with
 * FUZZ_REPLAY defined to run the corpus without libFuzzer. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "cron.h"
#include "tz.h"

#include "fuzz.h"

static struct tz *fuzz_cron_zones[3];

static int
fuzz_cron_one(const uint8_t *data, size_t size)
{
	static const char *const names[3] = {"UTC", "America/New_York", "Australia/Lord_Howe"};
	static const int64_t starts[] = {1772895600 /* 2026-03-07T15:00Z */, 1793500000, 0,
		4102444800 /* 2100 */};
	char text[256];
	struct cron c;
	struct err e = {{0}};
	if (size >= sizeof text)
		size = sizeof text - 1;
	memcpy(text, data, size);
	text[size] = 0;
	if (cron_parse(text, &c, &e) != ST_OK) {
		assert(e.msg[0]);
		return 0;
	}
	char desc[128];
	cron_describe(text, &c, desc, sizeof desc);
	assert(strlen(desc) < sizeof desc);
	for (int k = 0; k < 3; k++) {
		if (!fuzz_cron_zones[k] && tz_load(names[k], &fuzz_cron_zones[k], &e) != ST_OK)
			continue;
		const struct tz *z = fuzz_cron_zones[k];
		for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
			int64_t after = starts[i] + (int64_t)(size * 7919 % 86400);
			int64_t t = cron_next(&c, z, after);
			/* cron_parse refuses what can never fire anywhere; a zone's DST
			 * can still swallow every wall time of a wildcard job (found
			 * here: every minute of 02:00-02:59 on a March 8 that is a
			 * Sunday, in New York, where that day is always the
			 * spring-forward day; see the corpus file regress-ny-gap-never). */
			if (t == -1) {
				assert(k != 0 && after >= 0);
				continue;
			}
			assert(t > after);
			assert(t % 60 == 0);
			int64_t again = cron_next(&c, z, t - 1);
			assert(again == t);
		}
	}
	return 0;
}

FUZZ_TARGET(fuzz_cron_one)
