#!/bin/sh
# The tasks page sorted by name, status or last run sorts every task the
# filter selects, not the first page in next-run order: in a store of more
# than a page (500), the first by name and the one that ran last were left
# out.  The whole list compared with task-ls's tasks sorted alike.  In
# next-run order a full page links to the next (there was no way past the
# first 500 but a narrower filter).
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

python3 -c '
import json
for i in range(520):
    print(json.dumps({"name": "cron %03d" % (519 - i), "prompt": "p", "cron": "%d %d * * *" % (i % 60, i % 24)}))
print(json.dumps({"name": "Aardvark", "prompt": "p", "kind": "manual"}))
print(json.dumps({"name": "zulu", "prompt": "p", "kind": "manual", "exec": "printf hi"}))
print(json.dumps({"name": "broken", "prompt": "p", "kind": "manual", "exec": "false"}))
' >tasks.jsonl
task-add --json - <tasks.jsonl >/dev/null
task-run zulu >/dev/null
TASK_NOW=$(date -u -d "+1 hour" +%Y-%m-%dT%H:%M:%SZ) task-run broken >/dev/null 2>&1
task-rm --cancel broken >/dev/null
tok=$(task-web --new-token me 2>/dev/null)
web_start

# names PAGE: the names of the page's rows, in order.
names() {
	sed -n "s|.*<td><a href=\"/tasks/[0-9a-f-]*\">\([^<]*\)</a></td><td class=\"\([a-z]*\)\".*|\1 \2|p" "$1"
}

test_expect_success 'by name: the first 500 of all the tasks by name, as task-ls has them' '
	task-ls --json | python3 -c "
import json, sys
ts = [json.loads(l) for l in sys.stdin]
ts.sort(key=lambda t: (t[\"name\"].lower(), t[\"id\"]))
for t in ts[:500]: print(t[\"name\"], t[\"status\"])" >expect &&
	test "$(req_as "$tok" page "$url/tasks?sort=name")" = 200 &&
	names page >actual &&
	test_cmp expect actual
'

test_expect_success 'by last run: broken (an hour later), then zulu, then never run by name' '
	cat >expect <<-\EOF &&
	broken cancelled
	zulu pending
	Aardvark pending
	cron 000 pending
	EOF
	test "$(req_as "$tok" page "$url/tasks?sort=last")" = 200 &&
	names page | head -n 4 >actual &&
	test_cmp expect actual
'

test_expect_success 'by status: cancelled before pending, alone and with a short text' '
	cat >expect <<-\EOF &&
	broken cancelled
	Aardvark pending
	cron 000 pending
	EOF
	test "$(req_as "$tok" page "$url/tasks?sort=status")" = 200 &&
	names page | head -n 3 >actual &&
	test_cmp expect actual &&
	head -n 2 expect >expect2 &&
	test "$(req_as "$tok" page "$url/tasks?sort=status&q=k")" = 200 &&
	names page >actual &&
	test_cmp expect2 actual
'

test_expect_success 'in next-run order: a full page links to the next, which has the rest' '
	task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l); print(t[\"name\"], t[\"status\"])" >expect &&
	test "$(req_as "$tok" page "$url/tasks?status=")" = 200 &&
	names page >actual &&
	sed -n "s|.*<p class=\"muted\" id=\"cut\">\([^<]*\)<a href=\"\([^\"]*\)\".*|\1|p" page >note &&
	echo "500 tasks (the first ones; narrow the filter) " >want &&
	test_cmp want note &&
	next=$(sed -n "s|.*id=\"cut\">[^<]*<a href=\"\([^\"]*\)\".*|\1|p" page | sed "s/&amp;/\&/g") &&
	test "$(req_as "$tok" page "$url$next")" = 200 &&
	names page >>actual &&
	test_cmp expect actual &&
	grep -q "^</table><p class=\"muted\">23 tasks</p></div>\$" page
'

test_expect_success '/api/tasks: a full answer has a Link to the next; all of them are task-ls --json' '
	task-ls --json >expect &&
	next="/api/tasks?limit=200" && n=0 && : >actual &&
	while test -n "$next" && test $n -lt 10; do
		test "$(req_as "$tok" out "$url$next")" = 200 &&
		python3 -c "
import json, sys
for o in json.load(sys.stdin): print(json.dumps(o, separators=(\",\", \":\"), ensure_ascii=False))" \
			<out >>actual &&
		next=$(sed -n "s|^Link: <\(.*\)>; rel=\"next\"\r\$|\1|p" out.h) &&
		n=$((n + 1)) || return 1
	done &&
	test "$n" = 3 &&
	test_cmp expect actual
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
