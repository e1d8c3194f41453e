#!/bin/sh
# The fuzz targets over their checked-in corpora, without libFuzzer.
. "$AC_TOP/tests/lib.sh"
"$AC_BUILD/tests/t-fuzz-replay" "$AC_TOP/tests/fuzz/corpus"
