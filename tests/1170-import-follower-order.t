#!/bin/sh
# task-ls --json | task-add --json - into an empty store, whatever the
# order of the tasks: a follower listed before the task it follows gets
# its link once every task of the input is in.  A link to a task in
# neither the input nor the store, and a loop across the input, are
# refused with the line they were read at, nothing added.
. "$AC_TOP/tests/lib.sh"

links() {
	task-ls --json | python3 -c '
import json, sys
tasks = [json.loads(l) for l in sys.stdin]
names = {t["id"]: t["name"] for t in tasks}
for t in sorted(tasks, key=lambda t: t["name"]):
    print(t["name"], " ".join(names.get(a.split(":")[0], "?") + ":" + a.split(":")[1] for a in t.get("after") or []))
'
}

test_expect_success 'X made first, then edited to follow Y' '
	task-add --manual --name X x >idx &&
	task-add --manual --name Y y >idy &&
	task-add --after X:failure --name Z z >idz &&
	task-edit --after Y X >/dev/null &&
	task-ls --json >all &&
	head -n 1 all | grep -q "\"name\":\"X\"" &&
	links >expect &&
	cat >expect.names <<-\EOT &&
	X Y:success
	Y 
	Z X:failure
	EOT
	test_cmp expect.names expect
'

empty() {
	store_sql "DELETE FROM tasks" >/dev/null &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0
}

test_expect_success 'imported by pipe into an empty store: every link kept' '
	empty &&
	task-add --json - <all >out 2>err &&
	test ! -s err &&
	cat idx idy idz >expect.ids && test_cmp expect.ids out &&
	links >actual && test_cmp expect actual
'

test_expect_success 'a link to a task in neither: refused with its line, nothing added' '
	empty &&
	y=$(cat idy) &&
	sed "s/$y:success/00000000-0000-4000-8000-000000000000:success/" all >bad &&
	test_expect_code 2 task-add --json - <bad >out 2>err &&
	echo "task-add: stdin:1: after: no task '\''00000000-0000-4000-8000-000000000000'\''" >expect.err &&
	test_cmp expect.err err && test ! -s out &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0
'

test_expect_success 'a loop across the input: refused with its line, nothing added' '
	empty &&
	x=$(cat idx) &&
	python3 -c "
import json, sys
for l in open(\"all\"):
    t = json.loads(l)
    if t[\"name\"] == \"Y\":
        t[\"after\"] = [\"$x:success\"]
    print(json.dumps(t))
" >loop &&
	test_expect_code 2 task-add --json - <loop >out 2>err &&
	echo "task-add: stdin:2: after: that would make a loop: '\''Y'\'' -> '\''X'\'' -> '\''Y'\''" >expect.err &&
	test_cmp expect.err err && test ! -s out &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0
'

test_done
