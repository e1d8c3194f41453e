#!/bin/sh
# time expressions at a fixed now in two zones (tests/unit/t-when.c).
. "$AC_TOP/tests/lib.sh"
"$AC_BUILD/tests/t-when"
