#!/bin/sh
# tests/run gives each test file a time limit (TEST_LIMIT seconds): a file
# that hangs fails, named, and the suite goes on, instead of holding it
# until CI gives up.
# store: none
. "$AC_TOP/tests/lib.sh"

test_expect_success 'a file past its limit fails, named; the others run' '
	printf "#!/bin/sh\necho 1..1\nsleep 60\necho ok 1\n" >"$PWD/0001-slow.t" &&
	printf "#!/bin/sh\necho 1..1\necho ok 1 - quick\n" >"$PWD/0002-quick.t" &&
	start=$(date +%s) &&
	test_expect_code 1 env TEST_LIMIT=2 JOBS=2 TESTS="$PWD/0001-slow.t $PWD/0002-quick.t" \
		"$AC_TOP/tests/run" "$AC_BIN" "$PWD/build" sqlite >out 2>&1 &&
	test $(($(date +%s) - start)) -lt 30 &&
	grep "^tests/run:" out >actual &&
	echo "tests/run: $PWD/0001-slow.t ran past its time limit (2 s)" >expect &&
	test_cmp expect actual &&
	grep "^ok 1 - quick" build/prove-sqlite.log &&
	tail -n 1 out >actual &&
	echo "sqlite: 1 passed, 1 failed" >expect &&
	test_cmp expect actual
'

test_expect_success 'a file stopped at its limit leaves no scratch directory behind' '
	mkdir inner &&
	cat >"$PWD/0003-stuck.t" <<-EOF &&
	#!/bin/sh
	. "\$AC_TOP/tests/lib.sh"
	echo "\$TEST_TMP" >"$PWD/scratch"
	test_expect_success "stuck" "sleep 60"
	test_done
	EOF
	test_expect_code 1 env TMPDIR="$PWD/inner" TEST_LIMIT=3 TESTS="$PWD/0003-stuck.t" \
		"$AC_TOP/tests/run" "$AC_BIN" "$PWD/build" sqlite >out 2>&1 &&
	grep "0003-stuck.t ran past its time limit (3 s)" out &&
	case $(cat scratch) in "$PWD/inner/"*) ;; *) false ;; esac &&
	ls -A inner >actual &&
	test_cmp /dev/null actual
'

test_expect_success 'a file within its limit passes as before' '
	test_expect_code 0 env TEST_LIMIT=20 TESTS="$PWD/0002-quick.t" \
		"$AC_TOP/tests/run" "$AC_BIN" "$PWD/build" sqlite >out 2>&1 &&
	echo "sqlite: 1 passed, 0 failed" >expect &&
	tail -n 1 out >actual &&
	test_cmp expect actual
'

test_done
