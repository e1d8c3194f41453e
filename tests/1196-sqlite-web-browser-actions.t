#!/bin/sh
# A task's page refreshes itself, its action buttons with it (the page is
# the same on either store: the file store alone): in chromium, a task
# paused elsewhere (as a pass pauses one) is then offered Resume, not a
# Pause that would do nothing, and a task resumed elsewhere Pause again;
# a reason typed for Pause stays over a refresh, and the Delete a refresh
# brought still asks first.  The page's refresh runs every 200 ms here.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"
dir=$AC_TOP/build/web-browser

test_expect_success 'puppeteer-core is installed (once for both runs of the suite)' '
	browser_ready actions.mjs
'

id=$(task-add --manual --name alpha "one")
printf '#!/bin/sh\nexec task-edit --disable %s >/dev/null\n' "$id" >pause
printf '#!/bin/sh\nexec task-edit --enable %s >/dev/null\n' "$id" >resume
chmod +x pause resume
web_start

test_expect_success 'in chromium: the buttons follow the task through refreshes' '
	cat >expect <<-\EOF &&
	buttons: Run now,Pause,Delete
	paused elsewhere: Run now,Resume,Delete
	resumed elsewhere: Run now,Pause,Delete
	reason kept over a refresh: night
	delete asks: Delete this task (to the trash)?; still on true
	EOF
	{ node "$dir/actions.mjs" "$login" "$id" "$PWD/pause" "$PWD/resume" >actual 2>drive.err ||
		{ cat actual drive.err; false; }; } &&
	test_cmp expect actual &&
	test "$(task-ls --json | python3 -c "import json, sys; t = json.loads(sys.stdin.readline()); print(t[\"enabled\"], t[\"status\"])")" = "True pending"
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_done
