#!/bin/sh
# The layout's limits: a program in cmd/ stays under 500 lines and a file in
# common/ under 800, the two grammar parsers (when.c, cron.c) apart, so that a
# reader meets one job per file.
# store: none
. "$AC_TOP/tests/lib.sh"

over() { # over LIMIT FILE...: the files longer than LIMIT lines, with their length
	limit=$1 && shift &&
	wc -l "$@" | awk -v limit="$limit" '$2 != "total" && $1 >= limit { print $2 ": " $1 " lines" }'
}

test_expect_success 'every program in cmd/ is under 500 lines' '
	(cd "$AC_TOP" && over 500 cmd/*.c) >long &&
	test_cmp /dev/null long
'

test_expect_success 'every file in common/ is under 800 lines but the two parsers' '
	(cd "$AC_TOP" && over 800 $(ls common/*.c common/*.h | grep -v -x -e common/when.c -e common/cron.c)) >long &&
	test_cmp /dev/null long
'

test_expect_success 'the check sees a file that is too long' '
	mkdir -p big && seq 600 >big/x.c &&
	over 500 big/x.c >long && grep -qx "big/x.c: 600 lines" long
'

test_done
