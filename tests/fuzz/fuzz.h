/* fuzz.h: a target's libFuzzer entry point, FUZZ_TARGET(fn) with fn(data,
 * size); nothing where t-fuzz-replay.c includes the targets (FUZZ_REPLAY)
 * to run their corpora without libFuzzer. */
#ifndef AC_FUZZ_H
#define AC_FUZZ_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util.h"

/* Escaped text esc read back, each & one of the nents entities of ents
 * ({"&amp;", "&"}, ...) and none of the characters of raw left as it is:
 * what an escaping must give for any text. */
static inline char *
fuzz_unescape(const char *esc, const char *const (*ents)[2], size_t nents, const char *raw)
{
	struct buf back = {0};
	buf_add(&back, "", 0);
	for (const char *p = esc; *p;) {
		assert(!strchr(raw, *p));
		if (*p != '&') {
			buf_add(&back, p++, 1);
			continue;
		}
		size_t k = 0;
		while (k < nents && strncmp(p, ents[k][0], strlen(ents[k][0])) != 0)
			k++;
		assert(k < nents);
		buf_puts(&back, ents[k][1]);
		p += strlen(ents[k][0]);
	}
	return back.data;
}

#ifdef FUZZ_REPLAY
#define FUZZ_TARGET(fn)
#else
#define FUZZ_TARGET(fn) \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fn(data, size); }
#endif

#endif
