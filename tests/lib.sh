# tests/lib.sh: a tiny TAP library in the manner of git's test suite.  Each
# test file sources it and runs in a fresh scratch directory with its own
# store, config and home, and a fixed zone.
set -u
: "${AC_BIN:?run through make check}" "${AC_BUILD:?}" "${AC_TOP:?}"
PATH=$AC_BIN:$PATH
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/agentcron.XXXXXX") || exit 1
trap 'cd / && rm -rf "$TEST_TMP"' EXIT
cd "$TEST_TMP" || exit 1
HOME=$TEST_TMP XDG_CONFIG_HOME=$TEST_TMP/config XDG_DATA_HOME=$TEST_TMP/data
TASK_DB=$TEST_TMP/tasks.db TZ=UTC LC_ALL=C
export PATH HOME XDG_CONFIG_HOME XDG_DATA_HOME TASK_DB TZ LC_ALL
unset TASK_NOW TASK_EXEC TASK_NOTIFY TASK_ID TASK_RUN_ID TASK_CONTEXT TASK_MODEL \
  TASK_SYSTEM_PROMPT TASK_ATTACHMENTS OPENAI_API_KEY OPENAI_BASE_URL \
  ANTHROPIC_API_KEY ANTHROPIC_BASE_URL NO_COLOR
test_count=0 test_failed=0

# test_expect_success DESC BODY: BODY is shell, steps chained with &&.
test_expect_success() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TEST_TMP/.log" 2>&1; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TEST_TMP/.log"
		test_failed=$((test_failed + 1))
	fi
}

# test_expect_code CODE CMD...: CMD must exit with exactly CODE.
test_expect_code() {
	want=$1
	shift
	"$@"
	got=$?
	[ "$got" = "$want" ] && return 0
	echo "expected exit $want, got $got: $*" >&2
	return 1
}

# test_one_line FILE: FILE holds exactly one line that starts "PROG: ".
test_one_line() {
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q '^[a-z-]*: ' "$1" && return 0
	echo "expected one error line in $1, got:" >&2
	cat "$1" >&2
	return 1
}

test_cmp() {
	diff -u "$1" "$2"
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
}
