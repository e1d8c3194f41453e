#!/bin/sh
# deps.sh [build | test | CHECK|PACKAGE...]: make sure this machine has
# what agentcron needs.  Each pair below is a shell check and the Debian
# package that satisfies it.  `build` is what `make` and `make install`
# need: it only checks, and names the packages missing with the command to
# install them.  `test` (also with no argument) adds what `make check`,
# `make demo`, `make bench` and `make fuzz` need; the packages missing are
# installed as root with apt-get (after apt-get update), otherwise the one
# command to run is printed.  Either way the exit status is 1 while
# something is missing.  Pairs given as arguments replace the lists.  The
# test-only npm packages (the MCP SDK) are installed by their test into
# build/, with npm from here.
set -u
build_list() {
	printf '%s\n' \
		'command -v cc|gcc' \
		'pkg-config --version|pkg-config' \
		'pkg-config --exists sqlite3|libsqlite3-dev' \
		'pkg-config --exists libcurl|libcurl4-openssl-dev' \
		'pkg-config --exists libcjson|libcjson-dev' \
		'pkg-config --exists libpq|libpq-dev' \
		'pkg-config --exists libmicrohttpd|libmicrohttpd-dev' \
		'pkg-config --exists libcrypto|libssl-dev'
}
test_list() {
	printf '%s\n' \
		'ls /usr/lib/postgresql/*/bin/initdb /usr/lib/postgresql/*/bin/pg_ctl|postgresql' \
		'test -f /usr/share/zoneinfo/Europe/London|tzdata' \
		'command -v sqlite3|sqlite3' \
		'command -v mandoc|mandoc' \
		'command -v prove|perl' \
		'command -v clang|clang' \
		'ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a|libclang-rt-14-dev' \
		'command -v node|nodejs' \
		'command -v npm|npm' \
		'command -v openssl|openssl' \
		'command -v flock|util-linux' \
		'command -v promtool|prometheus' \
		'command -v chromium|chromium' \
		'test -x /usr/bin/python3|python3' \
		'/usr/bin/python3 -c "import aiosmtpd"|python3-aiosmtpd'
}
install=yes what=
case ${1:-test} in
build) install= what='build ' lists=$(build_list) ;;
test) lists=$(build_list && test_list) ;;
*) lists=$(printf '%s\n' "$@") ;;
esac
missing=
# A pair a line; each check is shell, run as it is written.
while IFS= read -r d; do
	[ -n "$d" ] || continue
	eval "${d%%|*}" >/dev/null 2>&1 </dev/null || missing="$missing ${d##*|}"
done <<EOF
$lists
EOF
[ -z "$missing" ] && exit 0
sudo="sudo "
[ "$(id -u)" = 0 ] && sudo=
if [ -n "$install" ] && [ -z "$sudo" ] && command -v apt-get >/dev/null; then
	# $missing is a list of package names, split on purpose.
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $missing && exit 0
	echo "deps.sh: could not install:$missing" >&2
	exit 1
fi
echo "missing ${what}dependencies; run: ${sudo}apt-get install$missing" >&2
exit 1
