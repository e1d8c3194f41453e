/* fuzz.h: a target's libFuzzer entry point, FUZZ_TARGET(fn) with fn(data,
 * size); nothing where t-fuzz-replay.c includes the targets (FUZZ_REPLAY)
 * to run their corpora without libFuzzer. */
#ifndef AC_FUZZ_H
#define AC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef FUZZ_REPLAY
#define FUZZ_TARGET(fn)
#else
#define FUZZ_TARGET(fn) \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fn(data, size); }
#endif

#endif
