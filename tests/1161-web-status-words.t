#!/bin/sh
# A task's status reads the same on its page, on the tasks page and in
# task-show: "(paused)" for a pause with a reason, "(disabled)" for a task
# only disabled (the task's page said "paused" of every disabled task).
# A pause's reason, printed by task-show after "paused:", is one line of
# text: task-web stored newlines, a terminal's escapes and bidi controls
# (which turned the "(by NAME)" after them around).  The API's runs are
# task-log --json's objects, their task's name included.  Each row's box
# is named for its task ("select" alone told a screen reader nothing).  A
# name's bidi override ends with the name in the page's title.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

on=$(task-add --manual --name on "p")
off=$(task-add --manual --name off "p")
held=$(task-add --manual --name held "p")
task-edit --disable "$off" >/dev/null
tok=$(task-web --new-token me 2>/dev/null)
web_start

test_expect_success 'the pause of held, with a reason, through the API' '
	test "$(req_as "$tok" out -d reason=audit "$url/tasks/$held/pause")" = 200
'

test_expect_success 'each status as task-show says it, on the task page and the tasks page' '
	for id in $on $off $held; do
		task-show "$id" | sed -n "s/^status: *//p" >>expect || return 1
	done &&
	cat >want <<-\EOF &&
	pending
	pending (disabled)
	pending (paused)
	EOF
	test_cmp want expect &&
	for id in $on $off $held; do
		test "$(req_as "$tok" page "$url/tasks/$id")" = 200 &&
		sed -n "s|^<tr><th>status</th><td class=\"[a-z]*\">\(.*\)</td></tr>\$|\1|p" page >>task-page ||
		return 1
	done &&
	test_cmp expect task-page &&
	test "$(req_as "$tok" page "$url/tasks?sort=name")" = 200 &&
	sed -n "s|.*\">\([a-z]*\)</a></td><td class=\"[a-z]*\">\([^<]*\)</td>.*|\1 \2|p" page >tasks-page &&
	cat >expect <<-\EOF &&
	held pending (paused)
	off pending (disabled)
	on pending
	EOF
	test_cmp expect tasks-page &&
	sed -n "s|.*<input type=\"checkbox\" name=\"id\" value=\"[^\"]*\" form=\"bulk\" aria-label=\"\([^\"]*\)\">.*|\1|p" \
		page >labels &&
	printf "select %s\n" held off on >expect &&
	test_cmp expect labels
'

# refused CODE WHAT ARGS...: the pause is refused, its answer the JSON
# error line "the pause's reason WHAT", and the tasks are as they were.
refused() {
	code=$1 what=$2
	shift 2
	task-ls --json >before &&
	test "$(req_as "$tok" out "$@")" = "$code" &&
	printf '{"error":"the pause'"'"'s reason %s"}\n' "$what" >expect &&
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after
}

test_expect_success 'a reason that is not one line of text is refused, as is a long one' '
	ctl="is not one line of UTF-8 text (a control character or bytes that are not UTF-8)" &&
	refused 400 "$ctl" --data-urlencode "reason=$(printf "a\nb")" "$url/tasks/$on/pause" &&
	refused 400 "$ctl" --data-urlencode "reason=$(printf "\033[31mred")" "$url/tasks/$on/pause" &&
	refused 400 "$ctl" -d "reason=%ff" "$url/tasks/$on/pause" &&
	refused 400 "holds a bidirectional control character" \
		--data-urlencode "reason=$(printf "\342\200\256lin ym")" "$url/tasks/$on/pause" &&
	refused 400 "holds a bidirectional control character" \
		--data-urlencode "reason=$(printf "x \342\201\247y")" -d action=pause -d id=$on \
		"$url/tasks/bulk" &&
	refused 400 "is over 500 bytes" -d "reason=$(printf "%0501d" 0)" "$url/tasks/$on/pause" &&
	test "$(req_as "$tok" out --data-urlencode "reason=$(printf "%0500d" 0) é" \
		"$url/tasks/$on/pause")" = 400 &&
	test "$(req_as "$tok" out --data-urlencode "reason=$(printf "%0497d" 0) é" \
		"$url/tasks/$on/pause")" = 200 &&
	task-show "$on" | sed -n "s/^paused: *//p" >actual &&
	echo "$(printf "%0497d" 0) é (by me)" >expect &&
	test_cmp expect actual
'

test_expect_success '/api/runs and /api/runs/ID: the objects task-log --json prints, names too' '
	r=$(task-add --manual --name ran --exec "printf hi" p) &&
	task-run "$r" >/dev/null &&
	gone=$(task-add --manual --name gone --exec "printf bye" p) &&
	task-run "$gone" >/dev/null &&
	task-rm "$gone" >/dev/null &&
	task-log --json >expect &&
	test "$(req_as "$tok" out "$url/api/runs")" = 200 &&
	python3 -c "
import json, sys
for o in json.load(sys.stdin): print(json.dumps(o, separators=(\",\", \":\"), ensure_ascii=False))" \
		<out >actual &&
	test_cmp expect actual &&
	sed -n "s/.*\"name\":\"\([^\"]*\)\".*/\1/p" actual >names &&
	printf "gone\nran\n" >expect &&
	test_cmp expect names &&
	id=$(sed -n "2s/^{\"id\":\"\([^\"]*\)\".*/\1/p" actual) &&
	test "$(req_as "$tok" out "$url/api/runs/$id")" = 200 &&
	python3 -c "import json, sys; o = json.load(sys.stdin); print(o[\"name\"], o[\"output\"])" \
		<out >actual &&
	echo "ran hi" >expect &&
	test_cmp expect actual
'

test_expect_success 'a name with a bidi override does not turn the page title around' '
	b=$(task-add --manual --name "$(printf "\342\200\256evil")" p) &&
	test "$(req_as "$tok" page "$url/tasks/$b")" = 200 &&
	sed -n "s|.*<title>\(.*\)</title>.*|\1|p" page >actual &&
	printf "\342\201\250\342\200\256evil\342\201\251 - agentcron\n" >expect &&
	test_cmp expect actual
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
