#!/bin/sh
# cron parser, descriptions and named DST cases (tests/unit/t-cron.c).
. "$AC_TOP/tests/lib.sh"
"$AC_BUILD/tests/t-cron"
