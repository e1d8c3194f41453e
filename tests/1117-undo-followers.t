#!/bin/sh
# Restoring a task from the trash enables again the followers its deletion
# disabled (task-add --after), on the audit trail as their disabling was;
# a follower disabled for another reason stays disabled.
. "$AC_TOP/tests/lib.sh"
TASK_HOST_ID=here TASK_NOW=2026-11-23T06:00:00Z
export TASK_HOST_ID TASK_NOW
me="uid $(id -u) on here"
why="\"disabled: the task it follows, 'up', was deleted\""

test_expect_success 'the followers the deletion disabled are enabled again' '
	task-add --manual --name up --exec true x >/dev/null &&
	task-add --manual --after up --name f1 --exec true y >/dev/null &&
	task-add --cron "0 * * * *" --after up:failure --name f2 --exec true z >/dev/null &&
	task-add --manual --after up --name f3 --exec true w >/dev/null &&
	task-edit f3 --disable >/dev/null &&
	task-rm up 2>/dev/null &&
	TASK_NOW=2026-11-23T09:10:00Z task-rm --undo >/dev/null &&
	task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    print(t[\"name\"], t[\"enabled\"], t[\"paused\"], t[\"next_run_at\"])
" | sort >actual &&
	cat >expect <<-\EOF &&
	f1 True None None
	f2 True None 2026-11-23T10:00:00Z
	f3 False None None
	up True None None
	EOF
	test_cmp expect actual &&
	task-log --audit | cut -f1,3,4,6 | sort -n | sed -n "6,\$p" >actual &&
	cat >expect <<-EOF &&
	6	$me	delete	name "up"
	7	$me	pause	enabled: true -> false; paused: null -> $why
	8	$me	pause	enabled: true -> false; paused: null -> $why
	9	$me	restore	
	10	$me	enable	enabled: false -> true; paused: $why -> null
	11	$me	enable	enabled: false -> true; paused: $why -> null
	EOF
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T09:10:00Z task-run up >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T09:10:00Z task-tick >/dev/null 2>&1 &&
	task-log --limit 0 | cut -f4,5 | sort >actual &&
	printf "f1\tafter\nup\tmanual\n" >expect && test_cmp expect actual
'

test_done
