#!/bin/sh
# The tasks page refreshes itself every 10 s (the page is the same on either
# store, and the wait is long: the file store alone): in chromium, the boxes ticked
# for a bulk pause stay ticked across a refresh (they used to be cleared,
# and "Apply" then paused nothing, silently), and a keyboard user's focus
# in the list is not thrown away.  A bulk action without a task ticked is
# refused with one line rather than done to none, and "Apply" comes back
# to the page it was on, its filter and order kept (it went to /tasks).
# A page whose session ended says it no longer refreshes (it went stale
# without a word).
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"
dir=$AC_TOP/build/web-browser

test_expect_success 'puppeteer-core is installed (once for both runs of the suite)' '
	browser_ready keep.mjs
'

task-add --manual --name alpha "one" >/dev/null
task-add --manual --name beta "two" >/dev/null
task-add --manual --name omega "three" >/dev/null
printf '#!/bin/sh\nexec task-add --manual --name "$1" "a task" >/dev/null\n' >add
chmod +x add
web_start

test_expect_success 'in chromium: ticks and focus outlive a refresh; the two ticked are paused' '
	cat >expect <<-\EOF &&
	tasks: alpha,beta,omega
	refreshed: alpha,beta,gamma,omega; still ticked: alpha,beta
	keyboard focus in the list kept over a refresh: true
	applied: /tasks?sort=name
	session ended: This page no longer refreshes: the session has ended. Log in again.
	EOF
	{ node "$dir/keep.mjs" "$login" "$PWD/add" >actual 2>drive.err ||
		{ cat actual drive.err; false; }; } &&
	test_cmp expect actual &&
	task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    print(t[\"name\"], t[\"enabled\"], t[\"paused\"])" | sort >got &&
	cat >expect <<-\EOF &&
	alpha False night (by login)
	beta False night (by login)
	delta True None
	gamma True None
	omega True None
	EOF
	test_cmp expect got
'

test_expect_success 'a bulk action with no task ticked: 400, one line, nothing changed' '
	tok=$(task-web --new-token ci) &&
	task-ls --json >before &&
	test "$(req_as "$tok" out -d "action=resume&reason=x" "$url/tasks/bulk")" = 400 &&
	echo "{\"error\":\"bulk action: no task selected (give one id per task)\"}" >expect &&
	test_cmp expect out &&
	task-ls --json >after &&
	test_cmp before after
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
