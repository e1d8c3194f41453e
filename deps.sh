#!/bin/sh
# deps.sh [CHECK|PACKAGE...]: make sure this machine has what agentcron's
# build, tests and demo need.  Each pair below is a shell check and the
# Debian package that satisfies it; only the packages whose check fails are
# installed: as root with apt-get (after apt-get update), otherwise the one
# command to run is printed and the exit status is 1.  `make` runs it before
# building; arguments replace the list.  The test-only npm packages (the
# MCP SDK) are installed by their test into build/, with npm from here.
set -u
[ $# -gt 0 ] || set -- \
	'pkg-config --version|pkg-config' \
	'pkg-config --exists sqlite3|libsqlite3-dev' \
	'pkg-config --exists libcurl|libcurl4-openssl-dev' \
	'pkg-config --exists libcjson|libcjson-dev' \
	'pkg-config --exists libpq|libpq-dev' \
	'ls /usr/lib/postgresql/*/bin/initdb /usr/lib/postgresql/*/bin/pg_ctl|postgresql' \
	'test -f /usr/share/zoneinfo/Europe/London|tzdata' \
	'command -v sqlite3|sqlite3' \
	'command -v mandoc|mandoc' \
	'command -v prove|perl' \
	'command -v clang|clang' \
	'ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a|libclang-rt-14-dev' \
	'command -v node|nodejs' \
	'command -v npm|npm' \
	'command -v openssl|openssl'
missing=
for d; do
	eval "${d%%|*}" >/dev/null 2>&1 || missing="$missing ${d##*|}"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	# $missing is a list of package names, split on purpose.
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $missing && exit 0
	echo "deps.sh: could not install:$missing" >&2
	exit 1
fi
echo "missing dependencies; run: sudo apt-get install$missing" >&2
exit 1
