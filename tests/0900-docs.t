#!/bin/sh
# Every program: --help and --version, a man page that mandoc finds clean,
# a line in README.md and agentcron(7); `make install` honours DESTDIR and PREFIX,
# installs completions for bash and zsh, and `make uninstall` takes it all back.
# store: none
. "$AC_TOP/tests/lib.sh"

progs=$(cd "$AC_TOP/cmd" && ls *.c | sed 's/\.c$//')

test_expect_success 'every program answers --help on stdout with its usage and exits 0' '
	for p in $progs; do
		"$p" --help >out 2>err || { echo "$p --help failed"; exit 1; }
		head -1 out | grep -q "^usage: $p" || { echo "$p: no usage line"; exit 1; }
		test ! -s err || { echo "$p wrote to stderr"; exit 1; }
	done
'

test_expect_success 'every program answers --version' '
	for p in $progs; do
		echo "$p (agentcron) 0.1.0" >expect &&
		"$p" --version >out && test_cmp expect out || exit 1
	done
'

test_expect_success 'an unknown option is one line on stderr and exit 2' '
	for p in $progs; do
		test_expect_code 2 "$p" --no-such-option >out 2>err </dev/null || exit 1
		test_one_line err || { echo "$p"; exit 1; }
		grep -q "^$p: " err || { echo "$p: error does not start with its name"; exit 1; }
	done
'

test_expect_success 'every program has a man page, and every page is mandoc -Tlint clean' '
	for p in $progs; do
		test -f "$AC_TOP/man/man1/$p.1" || { echo "no man page for $p"; exit 1; }
	done &&
	test -f "$AC_TOP/man/man7/agentcron.7" && test -f "$AC_TOP/man/man5/agentcron-schedule.5" &&
	for page in "$AC_TOP"/man/man*/*.[157]; do
		mandoc -Tlint -W warning "$page" >lint 2>&1 || { cat lint; exit 1; }
		test ! -s lint || { cat lint; exit 1; }
	done
'

test_expect_success 'task-ls(1) quotes the empty-store message as task-ls prints it' '
	task-ls 2>msg >/dev/null &&
	mandoc -Tascii "$AC_TOP/man/man1/task-ls.1" | sed "s/.$(printf "\\b")//g" | tr -s " \n" "  " >page &&
	grep -qF "\"$(cat msg)\"" page
'

test_expect_success 'README.md and agentcron(7) name every program' '
	for p in $progs; do
		grep -q "$p" "$AC_TOP/README.md" || { echo "README lacks $p"; exit 1; }
		grep -q "$p" "$AC_TOP/man/man7/agentcron.7" || { echo "agentcron.7 lacks $p"; exit 1; }
	done
'

test_expect_success 'README.md starts with the two set-up commands' '
	grep -q "^make demo" "$AC_TOP/README.md" && grep -q "^make check" "$AC_TOP/README.md"
'

test_expect_success 'deps.sh checks what the tests run with on a fresh machine, prove included' '
	for pair in "command -v prove|perl" "command -v mandoc|mandoc" "command -v sqlite3|sqlite3" \
		"pkg-config --exists sqlite3|libsqlite3-dev" "pkg-config --exists libcjson|libcjson-dev" \
		"pkg-config --exists libcurl|libcurl4-openssl-dev" "pkg-config --exists libpq|libpq-dev" \
		"ls /usr/lib/postgresql/*/bin/initdb /usr/lib/postgresql/*/bin/pg_ctl|postgresql" \
		"command -v npm|npm"; do
		grep -qF "'"'"'$pair'"'"'" "$AC_TOP/deps.sh" || { echo "no check for $pair"; return 1; }
	done &&
	"$AC_TOP/deps.sh" >out 2>err &&
	test ! -s out && test ! -s err
'

test_expect_success 'make runs deps.sh before it builds, and the README names it' '
	make -s --no-print-directory -n -B -C "$AC_TOP" bin/task-ls >recipe &&
	head -1 recipe >first &&
	echo "./deps.sh build" >expect && test_cmp expect first &&
	for goal in check check-asan demo bench fuzz; do
		make -s --no-print-directory -n -B -C "$AC_TOP" $goal >recipe 2>&1
		head -1 recipe >first &&
		echo "./deps.sh test" >expect && test_cmp expect first || return 1
	done &&
	grep -q "deps\.sh" "$AC_TOP/README.md"
'

test_expect_success 'the build list is only checked, even as root: what is missing is named' '
	sed "s/^\(\t\t.pkg-config --exists libcjson\)|libcjson-dev/\1-none|no-such-dev/" \
		"$AC_TOP/deps.sh" >deps.sh && chmod +x deps.sh &&
	grep -q "no-such-dev" deps.sh &&
	if [ "$(id -u)" = 0 ]; then sudo=; else sudo="sudo "; fi &&
	test_expect_code 1 ./deps.sh build >out 2>err &&
	test ! -s out &&
	echo "missing build dependencies; run: ${sudo}apt-get install no-such-dev" >expect &&
	test_cmp expect err
'

test_expect_success 'without root, a missing dependency is named with the command to run' '
	cp "$AC_TOP/deps.sh" . && chmod -R a+rwX . &&
	if [ "$(id -u)" = 0 ]; then run="setpriv --reuid=65534 --regid=65534 --clear-groups"; else run=; fi &&
	test_expect_code 1 $run ./deps.sh "false|no-such-pkg" "true|present-pkg" "false|other-pkg" >out 2>err &&
	test ! -s out &&
	echo "missing dependencies; run: sudo apt-get install no-such-pkg other-pkg" >expect &&
	test_cmp expect err &&
	$run ./deps.sh "true|present-pkg" >out 2>err &&
	test ! -s out && test ! -s err
'

test_expect_success 'tests/run refuses two test files with the same number' '
	mkdir -p suite/tests && cp "$AC_TOP/tests/run" suite/tests/ &&
	printf "#!/bin/sh\necho 1..0\n" >suite/tests/0001-one.t &&
	cp suite/tests/0001-one.t suite/tests/0001-other.t &&
	cp suite/tests/0001-one.t suite/tests/0002-two.t &&
	test_expect_code 2 suite/tests/run "$AC_BIN" "$TEST_TMP/suite/build" >out 2>err &&
	test ! -s out &&
	echo "tests/run: two test files numbered 0001: tests/0001-one.t tests/0001-other.t (renumber one)" >expect &&
	test_cmp expect err
'

test_expect_success 'make install puts programs and pages under DESTDIR and PREFIX' '
	test_make -s --no-print-directory -C "$AC_TOP" install DESTDIR="$TEST_TMP/root" PREFIX=/opt/ac >/dev/null &&
	for p in $progs; do
		test -x "root/opt/ac/bin/$p" && test -f "root/opt/ac/share/man/man1/$p.1" || { echo "$p not installed"; exit 1; }
	done &&
	test -f root/opt/ac/share/man/man7/agentcron.7 &&
	test -f root/opt/ac/share/man/man5/agentcron-schedule.5 &&
	for p in $progs; do
		test "$(readlink "root/opt/ac/share/bash-completion/completions/$p")" = agentcron ||
			{ echo "$p: no bash completion"; exit 1; }
	done &&
	test -f root/opt/ac/share/bash-completion/completions/agentcron &&
	test -f root/opt/ac/share/zsh/site-functions/_agentcron
'

test_expect_success 'make uninstall removes every file make install put there' '
	test_make -s -C "$AC_TOP" uninstall DESTDIR="$TEST_TMP/root" PREFIX=/opt/ac >/dev/null &&
	find root ! -type d >left &&
	test_cmp /dev/null left
'

test_done
