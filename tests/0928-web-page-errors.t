#!/bin/sh
# A task-web page whose store fails as it is drawn: the page is dropped and
# the answer is 503 with the store's error as one line of plain text, not a
# page cut short.  The model calls' table is taken away under a running
# task-web, which the overview, the timeline, a task's page and a run's
# page each read last.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

id=$(task-add --manual --name once --exec "echo done" "say done")
task-run once >/dev/null
run=$(task-log --task once --json | sed -n 's/^{"id":"\([^"]*\)".*/\1/p')
task-web --new-token ops >tok 2>/dev/null
tok=$(cat tok)
pages="/ /timeline /tasks/$id /runs/$run"
web_start

test_expect_success 'each page answers whole while the store does' '
	test -n "$run" &&
	for p in $pages; do
		test "$(req_as "$tok" page -H "Accept: text/html" "$url$p")" = 200 &&
		tail -n 1 page >last &&
		echo "</main></body></html>" >expect &&
		test_cmp expect last || return 1
	done
'

test_expect_success 'a store that fails: 503, one line of text, no page' '
	case $AC_STORE in
	sqlite) store_sql "DROP TABLE llm_calls" ;;
	postgres) store_sql "DROP TABLE llm_calls CASCADE" ;;
	esac &&
	for p in $pages; do
		test "$(req_as "$tok" page -H "Accept: text/html" "$url$p")" = 503 &&
		test "$(wc -l <page)" -eq 1 &&
		grep -q llm_calls page &&
		! grep -q "<" page &&
		tr -d "\r" <page.h | grep -qx "Content-Type: text/plain; charset=utf-8" || {
			echo "$p:" && cat page && return 1
		}
	done
'

web_stop; stopped=$?
test_expect_success 'stops on SIGTERM, exit 0' 'test "$stopped" = 0'

test_done
