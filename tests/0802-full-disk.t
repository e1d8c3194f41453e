#!/bin/sh
# task-add prints the new id only once the task is in the store: on a full
# disk `id=$(task-add ...)` gets nothing and a failure, never the id of a
# task that does not exist.  The full disk is tests/tools/preload/enospc.c,
# an LD_PRELOAD shim that fails writes under one directory with ENOSPC
# (a tmpfs or a loop device would need root): it lets the store open,
# which writes a few bytes, and fails the commit, which writes pages.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z
mkdir full
TASK_DB=$TEST_TMP/full/tasks.db
# The sanitizers' runtime wants to be the first library; the shim is
# loaded first on purpose.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

# on_full_disk CMD...: CMD with every write to full/ past 1 KiB failing.
on_full_disk() {
	LD_PRELOAD=$AC_BUILD/tools/enospc.so ENOSPC_DIR=$TEST_TMP/full ENOSPC_AFTER=1024 "$@"
}

test_expect_success 'setup: a store with one task' '
	task-add --manual --name first "The first task" >/dev/null &&
	task-ls --json >before
'

test_expect_success 'the shim fills the disk past 1 KiB there, and only there' '
	on_full_disk sh -c "printf %1000s x >full/small" &&
	test_expect_code 1 on_full_disk sh -c "printf %2000s x >full/big" 2>err &&
	test_one_line err &&
	test "$(wc -c <full/small)" = 1000 && test ! -s full/big &&
	on_full_disk sh -c "printf %2000s x" >out &&
	test "$(wc -c <out)" = 2000 &&
	rm full/small full/big
'

test_expect_success 'task-add on a full disk: exit 1, one line, no id, no task' '
	test_expect_code 1 on_full_disk task-add --manual --name second "The second task" >out 2>err &&
	test ! -s out &&
	echo "task-add: store '\''$TASK_DB'\'': running a statement: the disk is full" >expect &&
	test_cmp expect err &&
	task-ls --json >after && test_cmp before after
'

test_expect_success 'id=$(task-add ...) is empty and the status says why' '
	{ id=$(on_full_disk task-add --manual "A third" 2>err); rc=$?; } &&
	test "$rc" = 1 && test -z "$id" && test_one_line err
'

test_expect_success 'task-add --json and an import print nothing either' '
	test_expect_code 1 on_full_disk task-add --json --manual "A fourth" >out 2>err &&
	test ! -s out && test_one_line err &&
	echo "{\"name\":\"imported\",\"prompt\":\"p\",\"kind\":\"manual\"}" >in &&
	test_expect_code 1 on_full_disk task-add --json - <in >out 2>err &&
	test ! -s out && test_one_line err &&
	task-ls --json >after && test_cmp before after
'

test_expect_success 'with room again the same command prints the id of a task that exists' '
	id=$(task-add --manual --name second "The second task") &&
	task-show --json "$id" >shown &&
	grep -q "\"name\":\"second\"" shown
'

test_done
