#!/bin/sh
# A recurring task whose end (--until, or its --count reached) passed while
# it was in the trash comes back completed, as it would have ended had it
# stayed: not pending with no next run, which task-edit --enable refuses and
# nothing would ever end.
. "$AC_TOP/tests/lib.sh"

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null 2>>tick.err
}

test_expect_success '--until passed in the trash: restored completed' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --until 2026-11-23T10:00:00Z \
		--name until --exec true x >/dev/null &&
	tick 2026-11-23T07:00:00Z &&
	TASK_NOW=2026-11-23T07:10:00Z task-rm until 2>/dev/null &&
	TASK_NOW=2026-11-30T07:10:00Z task-rm --undo >/dev/null &&
	task-ls | cut -f2-4 >actual &&
	printf "until\tcompleted\t-\n" >expect && test_cmp expect actual &&
	tick 2026-11-30T08:00:00Z &&
	task-log --task until --limit 0 | cut -f5-7 >actual &&
	printf "schedule\t2026-11-23T07:00:00Z\tsuccess\n" >expect && test_cmp expect actual
'

test_expect_success '--count reached in the trash: restored completed, and not overdue' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --every 1h --count 3 --name count \
		--exec true x >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --every 1h --count 10 --name ten \
		--exec true x >/dev/null &&
	TASK_NOW=2026-11-23T06:40:00Z task-rm count ten 2>/dev/null &&
	TASK_NOW=2026-11-23T10:00:00Z task-rm --undo count >/dev/null &&
	TASK_NOW=2026-11-23T10:00:00Z task-rm --undo ten >/dev/null &&
	task-ls | cut -f2-4 | sort >actual &&
	cat >expect <<-\EOF &&
	count	completed	-
	ten	pending	2026-11-23T10:30:00Z
	EOF
	test_cmp expect actual &&
	tick 2026-11-23T10:00:00Z &&
	TASK_NOW=2026-11-23T10:00:30Z task-status --check >out &&
	sed "s/.* | //" out >actual &&
	echo "last_pass_age=30s;;180 due=0 overdue=0;;0 failing=0;0 paused=0;0 over_budget=0" >expect &&
	test_cmp expect actual
'

test_done
