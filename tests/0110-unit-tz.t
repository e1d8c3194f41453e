#!/bin/sh
# time zones read from TZif files, against glibc and known transitions (tests/unit/t-tz.c).
. "$AC_TOP/tests/lib.sh"
"$AC_BUILD/tests/t-tz"
