#!/bin/sh
# The text filter of task-web's task list gives the same tasks in the same
# order however the store finds them: through its trigram index (a text
# of three characters or more that few tasks hold), by walking the next-run
# order (one most tasks hold) or by reading every task (a shorter text);
# the index follows adds, edits, the trash and purges, and a store from
# before it is upgraded in place.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

# req OUT [CURL ARG...] URL: as the token $tok.
req() {
	req_as "$tok" "$@"
}
# names QUERY: the names /api/tasks gives for QUERY, one a line, in order.
names() {
	test "$(req body "$url/api/tasks?$1")" = 200 || return 1
	tr "{" "\n" <body | sed -n "s/.*\"name\":\"\([^\"]*\)\".*/\1/p"
}

test_expect_success 'a store from before the text index is upgraded in place; its tasks are found' '
	old=$(new_store old) &&
	TASK_DB=$old task-add --manual --name "kept one" "find the walrus" >/dev/null &&
	TASK_DB=$old task-add --manual --name other "nothing" >/dev/null &&
	case $AC_STORE in
	sqlite) sqlite3 "$old" "DROP TRIGGER task_text_add; DROP TRIGGER task_text_drop;
		DROP TRIGGER task_text_edit; DROP TABLE task_text; DROP TABLE task_text_keys;
		PRAGMA user_version = 23" ;;
	postgres) : ;;
	esac &&
	TASK_DB=$old task-web --new-token old >tok 2>/dev/null && tok=$(cat tok) &&
	TASK_DB=$old web_start &&
	names "q=WALRUS" >actual &&
	echo "kept one" >expect && test_cmp expect actual &&
	kill "$web_pid" && { wait "$web_pid" 2>/dev/null; true; } &&
	case $AC_STORE in
	sqlite) test "$(sqlite3 "$old" "PRAGMA user_version")" -ge 24 ;;
	esac
'

TASK_NOW=2026-12-01T00:00:00Z
export TASK_NOW
task-web --new-token text >tok 2>/dev/null
tok=$(cat tok)
task-add --manual --name "Quarterly report" "Write the REPORT for the board" >/dev/null
task-add --manual --name "café menu" "list the dishes" >/dev/null
task-add --manual --name "quotes" 'say "hi there" to everyone' >/dev/null
task-add --manual --name "renamed later" "a prompt about otters" >/dev/null
task-add --manual --name "to the trash" "a prompt about badgers" >/dev/null
web_start

test_expect_success 'a text is found in names and prompts, any ASCII case, taken as it is' '
	names "q=report" >actual &&
	echo "Quarterly report" >expect && test_cmp expect actual &&
	names "q=ReP" >actual && test_cmp expect actual &&
	names "q=caf%C3%A9" >actual &&
	echo "café menu" >expect && test_cmp expect actual &&
	names "q=%22hi%20there%22" >actual &&
	echo quotes >expect && test_cmp expect actual &&
	names "q=%22hi" >actual && test_cmp expect actual &&
	names "q=%C3%A9%20m" >actual &&
	echo "café menu" >expect && test_cmp expect actual &&
	names "q=zzz" >actual && test ! -s actual &&
	names "q=%25%25%25" >actual && test ! -s actual
'

test_expect_success 'the index follows a rename, a new prompt, the trash, a restore and a purge' '
	task-edit "renamed later" --name "sea creatures" >/dev/null &&
	names "q=renamed" >actual && test ! -s actual &&
	names "q=creatures" >actual &&
	echo "sea creatures" >expect && test_cmp expect actual &&
	task-edit "sea creatures" --prompt "a prompt about seals" >/dev/null &&
	names "q=otters" >actual && test ! -s actual &&
	names "q=seals" >actual && test_cmp expect actual &&
	task-rm "to the trash" >/dev/null &&
	names "q=badgers" >actual && test ! -s actual &&
	task-rm --undo >/dev/null &&
	names "q=badgers" >actual &&
	echo "to the trash" >expect && test_cmp expect actual &&
	task-rm "to the trash" >/dev/null && task-rm --purge >/dev/null &&
	names "q=badgers" >actual && test ! -s actual &&
	task-add --manual --name "to the trash" "a prompt about badgers again" >/dev/null &&
	names "q=badgers" >actual && test_cmp expect actual
'

# 2,100 tasks written straight into the store (as another program would),
# their next runs in the reverse order of their numbers.
test_expect_success 'tasks written by SQL are found too' '
	store_sql "INSERT INTO tasks (id, name, prompt, kind, tz, next_run_at, created_at, updated_at)
		WITH RECURSIVE g(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM g WHERE k < 2099)
		SELECT '\''c'\'' || k, '\''common '\'' || k, '\''p'\'', '\''cron'\'', '\''UTC'\'',
		1800000000 + (2100 - k) * 60, 1795000000, 1795000000 FROM g" &&
	names "q=ommon%202099" >actual &&
	echo "common 2099" >expect && test_cmp expect actual
'

test_expect_success 'few, many or a short text: the tasks in next-run order' '
	names "q=ommon%2020" >actual &&
	{ k=2099; while [ $k -ge 2000 ]; do echo "common $k"; k=$((k - 1)); done
	  k=209; while [ $k -ge 200 ]; do echo "common $k"; k=$((k - 1)); done
	  echo "common 20"; } >expect &&
	test_cmp expect actual &&
	names "q=COMMON&limit=3" >actual &&
	printf "common %s\n" 2099 2098 2097 >expect && test_cmp expect actual &&
	names "q=n%201&limit=2" >actual &&
	printf "common %s\n" 1999 1998 >expect && test_cmp expect actual &&
	names "q=99" >actual &&
	{ k=2099; while [ $k -ge 0 ]; do case $k in *99*) echo "common $k" ;; esac; k=$((k - 1)); done; } >expect &&
	test_cmp expect actual &&
	test "$(req page "$url/tasks?q=common")" = 200 &&
	sed -n "s|.*<a href=\"/tasks/[^\"]*\">\([^<]*\)</a>.*|\1|p" page >actual &&
	k=2099 && while [ $k -ge 1600 ]; do echo "common $k"; k=$((k - 1)); done >expect &&
	test_cmp expect actual &&
	grep -q "500 tasks (the first ones; narrow the filter)" page
'

test_expect_success 'a filter on text and status together' '
	store_sql "UPDATE tasks SET status = '\''failed'\'' WHERE id IN ('\''c2050'\'', '\''c5'\'')" &&
	names "q=common&status=failed" >actual &&
	printf "common %s\n" 2050 5 >expect && test_cmp expect actual
'

# SQLite indexes the tasks a unit added at its commit, all in one
# statement; one added by another program is pending until then, and a
# candidate of every text meanwhile.
test_expect_success 'SQLite: a task not yet indexed is found, renamed, indexed by the next add' '
	if test "$AC_STORE" = sqlite; then
		pending() { store_sql "SELECT count(*) FROM task_text_keys WHERE pending IS NOT NULL"; } &&
		test "$(pending)" = 2100 &&
		task-add --manual --name "indexes them" "p" >/dev/null &&
		test "$(pending)" = 0 &&
		store_sql "INSERT INTO tasks (id, name, prompt, kind, tz, created_at, updated_at)
			VALUES ('\''w1'\'', '\''pending walrus'\'', '\''about narwhals'\'', '\''manual'\'', '\''UTC'\'',
			1795000000, 1795000000), ('\''w2'\'', '\''gone walrus'\'', '\''p'\'', '\''manual'\'', '\''UTC'\'',
			1795000000, 1795000000)" &&
		test "$(pending)" = 2 &&
		names "q=narwhal" >actual &&
		echo "pending walrus" >expect && test_cmp expect actual &&
		task-edit "pending walrus" --name "narwhal watch" >/dev/null &&
		task-rm "gone walrus" >/dev/null && task-rm --purge >/dev/null &&
		names "q=walrus" >actual && test ! -s actual &&
		test "$(pending)" = 1 &&
		task-add --manual --name "and this one" "p" >/dev/null &&
		test "$(pending)" = 0 &&
		names "q=narwhal" >actual &&
		echo "narwhal watch" >expect && test_cmp expect actual &&
		names "q=walrus" >actual && test ! -s actual &&
		sqlite3 "$TASK_DB" "INSERT INTO task_text (task_text, rank) VALUES ('\''integrity-check'\'', 0)"
	fi
'

test_done
