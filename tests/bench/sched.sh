#!/bin/sh
# The schedule engine: next-occurrence and parse rates, time expressions
# per second and the slowest one, and the worst searches found
# (tests/tools/bench-sched.c).
"$AC_BUILD/tools/bench-sched" "${BENCH_SECONDS:-1}" "$AC_TOP/tests/unit/when-table.txt"
