#!/bin/sh
# store: none
# make install PREFIX=~/.local says when PREFIX/bin is not on PATH and how
# to put it there; it says nothing when it is, or into a DESTDIR.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'PREFIX/bin not on PATH: the note and the line to add' '
	test_make -s -C "$AC_TOP" install PREFIX="$TEST_TMP/.local" >out 2>err &&
	test -x .local/bin/task-add &&
	grep -qx "note: $TEST_TMP/.local/bin is not on your PATH; add it in your shell'\''s profile, e.g." out &&
	grep -qF "echo '\''export PATH=\"$TEST_TMP/.local/bin:\$PATH\"'\'' >>~/.profile" out
'

test_expect_success 'PREFIX=~/.local from a POSIX sh (tilde unexpanded): the home directory' '
	rm -rf .local &&
	test_make -s -C "$AC_TOP" install "PREFIX=~/.local" >out 2>err &&
	test -x .local/bin/task-add && test ! -e "$AC_TOP/~" &&
	grep -qF "echo '\''export PATH=\"$HOME/.local/bin:\$PATH\"'\'' >>~/.profile" out &&
	PATH=$HOME/.local/bin:$PATH test_make -s -C "$AC_TOP" install "PREFIX=~/.local" >out 2>err &&
	test_expect_code 1 grep -q "not on your PATH" out
'

test_expect_success 'on PATH, or into a DESTDIR: no note' '
	PATH=$TEST_TMP/.local/bin:$PATH test_make -s -C "$AC_TOP" install PREFIX="$TEST_TMP/.local" >out 2>err &&
	test_expect_code 1 grep -q "not on your PATH" out &&
	test_make -s -C "$AC_TOP" install PREFIX=/usr/local DESTDIR="$TEST_TMP/stage" >out 2>err &&
	test -x stage/usr/local/bin/task-add &&
	test_expect_code 1 grep -q "not on your PATH" out
'

test_done
