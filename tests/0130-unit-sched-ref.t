#!/bin/sh
# cron_next against a minute-by-minute brute-force reference (tests/unit/t-sched-ref.c).
. "$AC_TOP/tests/lib.sh"
"$AC_BUILD/tests/t-sched-ref"
