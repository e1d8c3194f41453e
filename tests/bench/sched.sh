#!/bin/sh
# The schedule engine: next-occurrence and parse rates, and the worst
# searches found (tests/tools/bench-sched.c).
"$AC_BUILD/tools/bench-sched" "${BENCH_SECONDS:-1}"
