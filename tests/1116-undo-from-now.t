#!/bin/sh
# A task restored from the trash computes its next run from now, as
# task-edit --enable does: the occurrences that went by while it was in the
# trash are not missed runs to catch up on.
. "$AC_TOP/tests/lib.sh"

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null 2>>tick.err
}

test_expect_success 'a week in the trash with --missed all: no catch-up' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --missed all --name up \
		--exec true x >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	TASK_NOW=2026-11-23T07:10:00Z task-rm up 2>/dev/null &&
	TASK_NOW=2026-11-30T07:10:00Z task-rm --undo >/dev/null &&
	task-ls | cut -f2-4 >actual &&
	printf "up\tpending\t2026-11-30T08:00:00Z\n" >expect && test_cmp expect actual &&
	tick 2026-11-30T07:11:00Z &&
	tick 2026-11-30T08:00:00Z &&
	task-log --task up --limit 0 | cut -f5-7 | sort >actual &&
	cat >expect <<-\EOF &&
	schedule	2026-11-23T07:00:00Z	success
	schedule	2026-11-30T08:00:00Z	success
	EOF
	test_cmp expect actual
'

test_expect_success 'a one-shot keeps its instant, a disabled task stays so' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --at 2026-11-23T09:00:00Z --name once \
		--exec true x >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --disable --name off \
		--exec true x >/dev/null &&
	TASK_NOW=2026-11-23T06:40:00Z task-rm once off 2>/dev/null &&
	TASK_NOW=2026-11-23T07:40:00Z task-rm --undo once >/dev/null &&
	TASK_NOW=2026-11-23T07:40:00Z task-rm --undo off >/dev/null &&
	task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    print(t[\"name\"], t[\"enabled\"], t[\"next_run_at\"])
" | sort >actual &&
	cat >expect <<-\EOF &&
	off False 2026-11-23T07:00:00Z
	once True 2026-11-23T09:00:00Z
	EOF
	test_cmp expect actual
'

test_done
