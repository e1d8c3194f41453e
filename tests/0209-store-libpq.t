#!/bin/sh
# libpq is loaded when a PostgreSQL store is opened, not at every start: a
# program on a SQLite store never maps it (nor the libraries it needs),
# one on PostgreSQL does, and a PostgreSQL store without a loadable libpq
# is one line and exit 1.
. "$AC_TOP/tests/lib.sh"

# loads CMD...: the shared objects CMD maps, one per line, from ld.so.
loads() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null | sed -n "s/.*file=\([^ ]*\) \[0\];  *needed by.*/\1/p; s/.*file=\([^ ]*\) \[0\];  *dynamically loaded by.*/\1/p" | sort -u
}

test_expect_success 'a store program maps libpq only for a PostgreSQL store' '
	task-add --manual m >/dev/null &&
	loads task-ls >libs &&
	grep -q "^libcjson" libs &&
	case $AC_STORE in
	sqlite) ! grep -q -e "^libpq" -e "^libgssapi" -e "^libldap" libs ;;
	postgres) grep -q "^libpq.so.5$" libs ;;
	esac &&
	loads task-when "in 2 hours" >libs &&
	! grep -q "^libpq" libs
'

# Where a private mount namespace can be made, hide libpq behind an empty
# file and open a PostgreSQL store.
if unshare --mount true 2>/dev/null; then
	test_expect_success 'no loadable libpq: one line, exit 1, nothing else tried' '
		path=$("$(sbin ldconfig)" -p | grep -F "libpq.so.5 " | sed "s/.* => //" | head -n 1) &&
		test -n "$path" &&
		for cmd in "task-ls" "task-add --manual x" "task-tick"; do
			TASK_DB="postgresql:///nowhere?host=/nonexistent" unshare --mount sh -c \
				"mount --bind /dev/null $path && exec $cmd" >out 2>err
			test $? = 1 && test_one_line err && test ! -s out &&
			grep -q "a PostgreSQL store needs libpq, which cannot be loaded: " err || return 1
		done
	'
fi

test_done
