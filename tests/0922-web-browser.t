#!/bin/sh
# task-web in a real browser: Debian's chromium, headless, driven by
# puppeteer-core (installed once into build/web-browser from
# tests/web-browser/package.json), logs in with the link, filters the
# tasks, opens a run, presses "Run now" and sees the run a watching
# task-tick started, pauses with a reason, with no console error.  The
# screenshots stay in build/web-browser/shots-STORE.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"
dir=$AC_TOP/build/web-browser
shots=$dir/shots-$AC_STORE

test_expect_success 'puppeteer-core is installed (once for both runs of the suite)' '
	browser_ready drive.mjs
'

task-add --manual --name alpha --exec "printf 'hello from alpha'" "say hello" >id1
task-add --manual --name beta "second" >/dev/null
task-run "$(cat id1)" >/dev/null
tick_watch
web_start

test_expect_success 'in chromium: log in, filter, a run, Run now, pause with a reason' '
	rm -rf "$shots" && mkdir -p "$shots" &&
	cat >expect <<-\EOF &&
	logged in with the link
	filtered the tasks: alpha
	opened a run: its output is there
	pressed Run now: the run appeared
	paused with a reason: it is on record
	EOF
	{ node "$dir/drive.mjs" "$login" "$shots" >actual 2>drive.err ||
		{ cat actual drive.err; false; }; } &&
	test_cmp expect actual &&
	for s in overview tasks run task paused; do
		test -s "$shots/$s.png" || return 1
	done &&
	task-show "$(cat id1)" >show &&
	grep -q "^paused: *holiday freeze (by login)$" show &&
	test "$(task-log --json --task "$(cat id1)" | wc -l)" = 2
'

web_stop; stopped=$?
tick_stop; ticked=$?
rm -rf "$shots/profile"
test_expect_success 'task-web and the watcher stop, exit 0' 'test "$stopped" = 0 && test "$ticked" = 0'

test_done
