#!/bin/sh
# A task's page shows its newest 50 runs, and links to "Older runs" only
# when an older one exists: at exactly 50 the link led to an empty page.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

# runs N: N more runs of the task, by hand.
runs() {
	for i in $(seq "$1"); do task-run job >/dev/null || return 1; done
}

task-add --manual --name job --exec true x >/dev/null
id=$(task-ls --json | python3 -c "import json,sys; print(json.loads(sys.stdin.readline())[\"id\"])")
tok=$(task-web --new-token ops 2>/dev/null)
web_start

test_expect_success '50 runs: all shown, no link to older ones' '
	runs 50 &&
	test "$(req_as "$tok" page "$url/tasks/$id")" = 200 &&
	test "$(grep -o "<a href=\"/runs/" page | wc -l)" = 50 &&
	! grep -q "Older runs" page
'

test_expect_success '51 runs: the newest 50, and the link leads to the oldest' '
	runs 1 &&
	test "$(req_as "$tok" page "$url/tasks/$id")" = 200 &&
	test "$(grep -o "<a href=\"/runs/" page | wc -l)" = 50 &&
	next=$(sed -n "s|.*<a href=\"\(/tasks/[^\"]*before=[^\"]*\)\" rel=\"next\">Older runs</a>.*|\1|p" page) &&
	test -n "$next" &&
	test "$(req_as "$tok" older "$url$next")" = 200 &&
	test "$(grep -o "<a href=\"/runs/" older | wc -l)" = 1 &&
	! grep -q "Older runs" older &&
	oldest=$(task-log --task job --limit 0 --json | tail -n 1 | python3 -c "import json,sys; print(json.load(sys.stdin)[\"id\"][:8])") &&
	grep -q ">$oldest</a>" older
'

test_done
