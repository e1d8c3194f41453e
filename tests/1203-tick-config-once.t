#!/bin/sh
# task-tick reads its configuration file once a pass: the read that checks
# its keys and zone at start-up (prog.h) serves the pass.  Counted by
# tests/tools/preload/opens.c.  A file that cannot be used is still said,
# once, by the part that needs it.
. "$AC_TOP/tests/lib.sh"
export TASK_EXEC=true
shim=$AC_BUILD/tools/opens.so
# The shim comes before the sanitizer's runtime in the sanitized build.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
conf=$XDG_CONFIG_HOME/agentcron/config

# opens CMD...: CMD run with its opens of the config counted (its
# executors' too), the count on stdout; CMD's output in ./out and ./err.
opens() {
	rm -f "$TEST_TMP/opens" &&
	LD_PRELOAD=$shim OPENS_PATH=$conf OPENS_FILE=$TEST_TMP/opens "$@" >out 2>err &&
	awk "{ n += \$1 } END { print n + 0 }" "$TEST_TMP/opens"
}

test_expect_success 'the shim counts the opens of the config (task-ls opens it once)' '
	test_config "tz = UTC" "stagger = off" &&
	echo 1 >expect &&
	opens task-ls >actual && test_cmp expect actual
'

test_expect_success 'a pass that fires a task opens the config once' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --name once x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:01Z opens task-tick >actual &&
	echo 1 >expect && test_cmp expect actual &&
	task-log --task once >runs && test "$(wc -l <runs)" = 1
'

test_expect_success 'an idle pass opens it once' '
	TASK_NOW=2026-11-23T07:00:02Z opens task-tick >actual &&
	echo 1 >expect && test_cmp expect actual
'

test_expect_success 'an unknown key is said once; the pass still runs' '
	test_config "tz = UTC" "modle = x" &&
	TASK_NOW=2026-11-23T07:00:03Z opens task-tick >actual &&
	echo 1 >expect && test_cmp expect actual &&
	grep -c "unknown key .modle." err >n && echo 1 >expect && test_cmp expect n
'

test_expect_success 'a config that cannot be read: one line, exit 2, nothing run' '
	TASK_NOW=2026-11-23T07:00:05Z task-add --at 2026-11-23T07:00:06Z --name later y >/dev/null &&
	test_config "tz = UTC" "this is not a key" &&
	test_expect_code 2 env TASK_NOW=2026-11-23T07:00:07Z task-tick >out 2>err &&
	test_one_line err && grep -q "config:2: expected .key = value." err && test ! -s out &&
	task-log --task later >runs && test ! -s runs
'

test_done
