#!/bin/sh
# task-run --backfill leaves out the occurrences from before the task was
# made, saying how many, unless --before-created asks for them.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T12:00:00Z

id=$(TASK_NOW=2026-11-22T09:30:00Z task-add --daily 09:00 --missed skip --name daily --exec true x) ||
	exit 1

test_expect_success 'a range reaching back past the task: only its own occurrences' '
	task-run --backfill 2026-11-18T00:00Z..2026-11-23T10:00Z --dry-run "$id" >out 2>err &&
	echo 2026-11-23T09:00:00Z >expect && test_cmp expect out &&
	echo "task-run: 5 occurrences of '\''daily'\'' before it was made (2026-11-22T09:30:00Z) left out; --before-created runs them too" >expect &&
	test_cmp expect err
'

test_expect_success '--before-created: those too, in order' '
	task-run --backfill 2026-11-20T00:00Z..2026-11-23T10:00Z --before-created --dry-run "$id" >out 2>err &&
	printf "%s\n" 2026-11-20T09:00:00Z 2026-11-21T09:00:00Z 2026-11-22T09:00:00Z 2026-11-23T09:00:00Z >expect &&
	test_cmp expect out && test ! -s err
'

test_expect_success 'runs only what it listed: one run, at its own instant' '
	task-run --backfill 2026-11-18T00:00Z..2026-11-23T10:00Z "$id" >/dev/null 2>&1 &&
	task-log | cut -f6,7 >actual &&
	printf "2026-11-23T09:00:00Z\tsuccess\n" >expect && test_cmp expect actual
'

test_expect_success '--before-created goes with --backfill' '
	test_expect_code 2 task-run --before-created "$id" >out 2>err && test_one_line err && test ! -s out
'

test_done
