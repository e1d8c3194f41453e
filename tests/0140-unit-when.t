#!/bin/sh
# time expressions at a fixed now in three zones (tests/unit/t-when.c).
. "$AC_TOP/tests/lib.sh"
"$AC_BUILD/tests/t-when" "$AC_TOP/tests/unit/when-table.txt"
