#!/bin/sh
# A field added after the numbered schema steps (comment): its column is
# added by the store from the field's row when a store that lacks it is
# opened, and the schema version counts it, so a store ahead of the
# program in either part is refused as newer.  The field itself on every
# surface: --comment of task-add and task-edit (and their --help, printed
# from its row), task-show, JSON in and out, and the agent tools.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T09:30:00Z

# version: the store's schema version; set_version N: set it.
version() {
	case $AC_STORE in
	sqlite) store_sql "PRAGMA user_version" ;;
	postgres) store_sql "SELECT max(version) FROM agentcron_schema" ;;
	esac
}
set_version() {
	case $AC_STORE in
	sqlite) store_sql "PRAGMA user_version = $1" ;;
	postgres) store_sql "UPDATE agentcron_schema SET version = $1" ;;
	esac
}

test_expect_success 'a store without the column gets it, its tasks kept, its version whole again' '
	task-add --manual --name old "an old task" >/dev/null &&
	v=$(version) &&
	test "$v" -ge 1000 &&
	store_sql "ALTER TABLE tasks DROP COLUMN comment" >/dev/null &&
	set_version $((v % 1000)) >/dev/null &&
	id=$(task-add --manual --name new --comment "asked by Ana" "a new task") &&
	test "$(version)" = "$v" &&
	task-ls | cut -f2 | sort >actual &&
	printf "new\nold\n" >expect && test_cmp expect actual &&
	task-show "$id" | grep "^comment:" >actual &&
	echo "comment:      asked by Ana" >expect && test_cmp expect actual
'

test_expect_success 'a store whose fields or steps are ahead is newer: refused, untouched' '
	v=$(version) &&
	for ahead in $((v + 1000)) $((v + 1)); do
		set_version $ahead >/dev/null &&
		test_expect_code 1 task-ls >out 2>err &&
		test ! -s out && test_one_line err &&
		grep -q "has schema version $ahead, newer than this agentcron.s $v; upgrade agentcron" err &&
		test "$(version)" = "$ahead" || return 1
	done &&
	set_version $v >/dev/null && task-ls >/dev/null
'

test_expect_success 'task-edit --comment changes it, one line only; an empty value removes it' '
	id=new &&
	task-edit "$id" --comment "for the weekly report" >actual &&
	head -1 actual >first &&
	echo "comment: asked by Ana -> for the weekly report" >expect && test_cmp expect first &&
	test_expect_code 2 task-edit "$id" --comment "$(printf "two\nlines")" >out 2>err &&
	test ! -s out && test_one_line err &&
	echo "task-edit: comment must be one line" >expect && test_cmp expect err &&
	test_expect_code 2 task-add --manual --comment "$(printf "%0501d" 0)" x >out 2>err &&
	echo "task-add: comment is longer than 500 bytes" >expect && test_cmp expect err &&
	task-edit "$id" --comment "" >/dev/null &&
	task-show "$id" >out && test_expect_code 1 grep -q "^comment:" out
'

test_expect_success 'JSON: printed when set, read back by task-add --json -' '
	task-add --manual --name j --comment "from the import" --json x |
		python3 -c "import json, sys; print(json.load(sys.stdin)[\"comment\"])" >actual &&
	echo "from the import" >expect && test_cmp expect actual &&
	task-ls --json | python3 -c "import json, sys
for l in sys.stdin:
    o = json.loads(l)
    print(o[\"name\"], o.get(\"comment\", \"-\"))" | sort >actual &&
	printf "j from the import\nnew -\nold -\n" >expect && test_cmp expect actual &&
	echo "{\"name\":\"imported\",\"prompt\":\"p\",\"kind\":\"manual\",\"comment\":\"kept\"}" |
		task-add --json - >/dev/null &&
	task-show imported | grep "^comment:" >actual &&
	echo "comment:      kept" >expect && test_cmp expect actual
'

test_expect_success 'the agent tools: task_create and task_update take it, checked alike' '
	echo "{\"name\":\"task_create\",\"arguments\":{\"prompt\":\"p\",\"name\":\"agent\",\"manual\":true,\"force\":true,\"comment\":\"the agent says why\"}}" |
		task-mcp --call >out &&
	id=$(task-show --json agent | python3 -c "import json, sys; print(json.load(sys.stdin)[\"id\"])") &&
	task-show "$id" | grep "^comment:" >actual &&
	echo "comment:      the agent says why" >expect && test_cmp expect actual &&
	echo "{\"name\":\"task_update\",\"arguments\":{\"id\":\"$id\",\"comment\":\"a\\nb\"}}" >call &&
	test_expect_code 2 task-mcp --call <call >out &&
	echo "Comment must be one line." >expect && test_cmp expect out &&
	echo "comment:      the agent says why" >expect &&
	task-show "$id" | grep "^comment:" >actual && test_cmp expect actual
'

test_expect_success '--help: its line printed from its row, in task-add and task-edit' '
	task-add --help | grep -A1 -- "--comment" >actual &&
	cat >expect <<-\EOF &&
	      --comment TEXT     a note for people: why it exists, who asked for it
	                         (one line)
	EOF
	test_cmp expect actual &&
	task-edit --help | grep -c -- "--comment" >actual &&
	echo 1 >expect && test_cmp expect actual
'

test_done
