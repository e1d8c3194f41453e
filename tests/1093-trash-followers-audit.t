#!/bin/sh
# Trashing a task disables the tasks that follow it (task-add --after),
# and the audit trail records the deletion, each follower's pause and, on
# --purge, each purged task: all in the unit of work of the change, so a
# follower that cannot be written leaves the task, its followers and the
# trail as they were.
. "$AC_TOP/tests/lib.sh"
TASK_HOST_ID=here TASK_NOW=2026-11-23T06:00:00Z
export TASK_HOST_ID TASK_NOW
me="uid $(id -u) on here"
why="paused: null -> \"disabled: the task it follows, 'up', was deleted\""

# trail: seq, who, action and change of every entry, oldest first.
trail() {
	task-log --audit | cut -f1,3,4,6 | sort -n
}
# A write of the task named f2 is refused inside the store (as a unique
# key refuses one): the unit it is in must leave nothing behind.
refuse_f2() {
	case $AC_STORE in
	sqlite) store_sql "CREATE TRIGGER refuse_f2 BEFORE UPDATE ON tasks WHEN NEW.name = 'f2'
		BEGIN SELECT RAISE(ABORT, 'refused by the test'); END" ;;
	postgres) store_sql 'CREATE FUNCTION refuse_f2() RETURNS trigger LANGUAGE plpgsql AS $f$
		BEGIN IF NEW.name = $n$f2$n$ THEN RAISE EXCEPTION USING ERRCODE = $c$unique_violation$c$; END IF;
		RETURN NEW; END $f$;
		CREATE TRIGGER refuse_f2 BEFORE UPDATE ON tasks FOR EACH ROW EXECUTE FUNCTION refuse_f2()' ;;
	esac
}
allow_f2() {
	case $AC_STORE in
	sqlite) store_sql "DROP TRIGGER refuse_f2" ;;
	postgres) store_sql "DROP TRIGGER refuse_f2 ON tasks" ;;
	esac
}

test_expect_success 'a follower that cannot be disabled: nothing is deleted, nothing on the trail' '
	task-add --manual --name up --exec true x >/dev/null &&
	task-add --manual --after up --name f1 --exec true y >/dev/null &&
	task-add --manual --after up:failure --name f2 --exec true z >/dev/null &&
	task-add --manual --name other --exec true w >/dev/null &&
	refuse_f2 &&
	test_expect_code 4 task-rm up 2>err &&
	test_one_line err &&
	allow_f2 &&
	task-ls --json | test_json_norm | grep -c "\"enabled\":true" >actual &&
	echo 4 >expect &&
	test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM audit")" = 4
'

test_expect_success 'deleting a task: its entry and each follower disabled, on the trail' '
	task-rm up 2>/dev/null &&
	trail >actual &&
	cat >expect <<-EOF &&
	1	$me	create	name "up"
	2	$me	create	name "f1"
	3	$me	create	name "f2"
	4	$me	create	name "other"
	5	$me	delete	name "up"
	6	$me	pause	enabled: true -> false; $why
	7	$me	pause	enabled: true -> false; $why
	EOF
	test_cmp expect actual &&
	task-show f1 | grep "^paused:" >actual &&
	echo "paused:       disabled: the task it follows, '\''up'\'', was deleted" >expect &&
	test_cmp expect actual
'

test_expect_success 'emptying the trash: one entry per task purged, and the chain holds' '
	task-rm other 2>/dev/null &&
	task-rm --purge 2>/dev/null &&
	trail | sed -n "9,\$p" | cut -f3 | sort >actual &&
	printf "purge\npurge\n" >expect &&
	test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM audit WHERE action = '\''purge'\''")" = 2 &&
	task-log --audit --verify >/dev/null
'

test_done
