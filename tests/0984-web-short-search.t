#!/bin/sh
# task-web's tasks page with a text too short for the trigram index (one
# or two characters): a walk of the tasks in next-run order that reads at
# most 5,000 of them, not every task.  A walk that stops before the end
# says so, with a link that goes on from where it stopped (a keyset, not
# an offset), keeping the filter; a page that fills up does the same.
# Plans, not times: on PostgreSQL the walk goes down the ordering index
# (the planner, left alone, read and sorted every task), and the tasks by
# state (task-status, the overview) are counted from indexes alone.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"
export TASK_NOW=2026-12-01T00:00:00Z
if test "$AC_STORE" = postgres; then
	# A server of this file's own: its log is read for plans, and the
	# suite's is written by every file at once.
	pg_own_server || exit 1
	store_sql() { own_sql "$1"; }
fi

req() {
	req_as "$tok" "$@"
}
# names FILE: the names the page FILE lists, in its order.
names() {
	sed -n 's|.*<td><a href="/tasks/[^"]*">\([^<]*\)</a></td>.*|\1|p' "$1"
}
# more FILE: the continue link's target, as a browser follows it.
more() {
	sed -n 's|.*<a href="\(/tasks?[^"]*\)" id="continue">.*|\1|p' "$1" | sed 's/&amp;/\&/g'
}

# 6,000 tasks firing at the same minute: the next-run order is the order
# they were made in.  "Zq" is in the 11th and the 5,501st.
test_expect_success 'a store of 6,000 tasks' '
	task-add --cron "0 9 * * *" --tz UTC --name "task 0" "plain prompt" >/dev/null &&
	case $AC_STORE in
	sqlite) cols=$(store_sql "SELECT group_concat(name, '\'', '\'') FROM pragma_table_info('\''tasks'\'')
			WHERE name NOT IN ('\''id'\'', '\''name'\'')") &&
		store_sql "INSERT INTO tasks (id, name, $cols)
			WITH RECURSIVE g(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM g WHERE k < 5999)
			SELECT printf('\''%08x-0000-4000-8000-%012x'\'', k, k), '\''task '\'' || k, $cols
			FROM g, tasks WHERE tasks.name = '\''task 0'\'' ORDER BY k" ;;
	postgres) cols=$(store_sql "SELECT string_agg(column_name, '\'', '\'' ORDER BY ordinal_position)
			FROM information_schema.columns WHERE table_name = '\''tasks'\''
			AND column_name NOT IN ('\''id'\'', '\''name'\'', '\''seq'\'')") &&
		store_sql "INSERT INTO tasks (id, name, $cols)
			SELECT lpad(to_hex(k), 8, '\''0'\'') || '\''-0000-4000-8000-'\'' || lpad(to_hex(k), 12, '\''0'\''),
			'\''task '\'' || k, $cols FROM generate_series(1, 5999) g(k), tasks
			WHERE tasks.name = '\''task 0'\'' ORDER BY k" ;;
	esac &&
	store_sql "UPDATE tasks SET name = '\''Zq one'\'' WHERE name = '\''task 10'\''" &&
	store_sql "UPDATE tasks SET name = '\''zQ two'\'' WHERE name = '\''task 5500'\''" &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 6000 &&
	if test "$AC_STORE" = postgres; then
		# Prompts of a real size: a table of tiny rows costs about as
		# little to read whole as its index, and its plans say nothing.
		store_sql "UPDATE tasks SET prompt = repeat('\''plain prompt '\'', 60)" &&
		own_sql "VACUUM ANALYZE tasks" &&
		own_sql "ALTER DATABASE agentcron SET session_preload_libraries = '\''auto_explain'\''" &&
		own_sql "ALTER DATABASE agentcron SET auto_explain.log_min_duration = 0"
	fi
'

task-web --new-token short >tok 2>/dev/null
tok=$(cat tok)
web_start

test_expect_success 'a short text: the first 5,000 tasks read, the walk said cut short' '
	test "$(req page "$url/tasks?q=zq")" = 200 &&
	names page >actual &&
	echo "Zq one" >expect && test_cmp expect actual &&
	grep -q "<p class=\"muted\" id=\"cut\">1 task found; the search was cut short (a short text is looked for in 5,000 tasks at a time, in next-run order)" page &&
	more page >link &&
	grep -q "^/tasks?q=zq&after=[0-9-]*\.[0-9]*$" link
'

test_expect_success 'the continue link goes on from there, to the end: not cut short' '
	test "$(req page2 "$url$(cat link)")" = 200 &&
	names page2 >actual &&
	echo "zQ two" >expect && test_cmp expect actual &&
	! grep -q "id=\"cut\"" page2 &&
	grep -q "<p class=\"muted\">1 task</p>" page2
'

test_expect_success 'a full page is cut short too, and goes on after its last task' '
	test "$(req full "$url/tasks?q=sk&sort=name")" = 200 &&
	test "$(names full | wc -l)" = 500 &&
	grep -q "500 tasks found; the search was cut short (a page is full" full &&
	more full >link &&
	grep -q "^/tasks?q=sk&sort=name&after=" link &&
	test "$(req full2 "$url$(cat link)")" = 200 &&
	names full2 >got &&
	test "$(wc -l <got)" = 500 &&
	# In next-run order, the second page is task 501 to task 1000 (the
	# 11th task, named Zq, holds no "sk"); sorted by name, as asked.
	grep -qx "task 501" got && grep -qx "task 1000" got && ! grep -qx "task 500" got &&
	test "$(head -n 1 got)" = "task 1000"
'

test_expect_success 'the filter beside the text is kept in the link' '
	test "$(req st "$url/tasks?q=zq&status=pending&scope=")" = 200 &&
	more st >link &&
	grep -q "^/tasks?q=zq&status=pending&after=" link &&
	test "$(req st2 "$url$(cat link)")" = 200 &&
	names st2 >actual && echo "zQ two" >expect && test_cmp expect actual &&
	test "$(req none "$url/tasks?q=zq&status=failed")" = 200 &&
	test -z "$(names none)"
'

test_expect_success 'a text of three characters or more is not cut short' '
	test "$(req long "$url/tasks?q=zQ%20t")" = 200 &&
	names long >actual && echo "zQ two" >expect && test_cmp expect actual &&
	! grep -q "id=\"cut\"" long
'

test_expect_success 'a bad place to go on from: 400, one line, nothing else' '
	for bad in x 12 12. .5 1.2x 99999999999999999999.1; do
		test "$(req bad "$url/tasks?q=zq&after=$bad")" = 400 || return 1
		grep -q "bad '\''after'\''" bad || return 1
	done
'

# api_names FILE: the names of the API answer FILE's tasks, in its order.
api_names() {
	python3 -c "import json, sys; [print(t[\"name\"]) for t in json.load(open(sys.argv[1]))]" "$1"
}
# next FILE: the API answer FILE's Link rel="next" target.
next() {
	sed -n 's|^Link: <\(/api/tasks?[^>]*\)>; rel="next"\r$|\1|p' "$1.h"
}

test_expect_success 'the API: a short text is the same bounded walk, going on by a Link header' '
	test "$(req api "$url/api/tasks?q=zq&status=pending")" = 200 &&
	api_names api >actual && echo "Zq one" >expect && test_cmp expect actual &&
	next api >link &&
	grep -q "^/api/tasks?q=zq&status=pending&after=[0-9-]*\.[0-9]*$" link &&
	test "$(req api2 "$url$(cat link)")" = 200 &&
	api_names api2 >actual && echo "zQ two" >expect && test_cmp expect actual &&
	test -z "$(next api2)"
'

test_expect_success 'the API: a full answer goes on after its last task; a long text has no link' '
	test "$(req full "$url/api/tasks?q=sk&limit=3")" = 200 &&
	api_names full >actual && printf "task 0\ntask 1\ntask 2\n" >expect && test_cmp expect actual &&
	next full >link && grep -q "^/api/tasks?q=sk&limit=3&after=" link &&
	test "$(req full2 "$url$(cat link)")" = 200 &&
	api_names full2 >actual && printf "task 3\ntask 4\ntask 5\n" >expect && test_cmp expect actual &&
	test "$(req long "$url/api/tasks?q=zQ%20t")" = 200 &&
	api_names long >actual && echo "zQ two" >expect && test_cmp expect actual &&
	! grep -qi "^Link:" long.h &&
	test "$(req bad "$url/api/tasks?q=zq&after=1.x")" = 400 &&
	grep -q "^{\"error\":\"bad '\''after'\''" bad
'

# plans_of WHAT FILE: the plan lines (PostgreSQL's log, since offset
# $off) of the statements holding WHAT.
plans_of() {
	tail -c +$((off + 1)) "$PGSRV/log" | awk -v what="$1" '
		/LOG:  duration: .* plan:$/ { inplan = 1; s = 0; next }
		/^[^\t]/ { inplan = 0 }
		inplan && /^\tQuery Text: / { s = index($0, what) > 0; next }
		inplan && s && /^\t/ { sub(/^\t */, ""); print }' >"$2"
}

test_expect_success 'PostgreSQL: the walk goes down the ordering index' '
	if test "$AC_STORE" = postgres; then
		off=$(wc -c <"$PGSRV/log") &&
		test "$(req walk "$url/tasks?q=zq")" = 200 &&
		plans_of "WITH w AS" walk.plan &&
		grep -q "Index Scan using tasks_order on tasks" walk.plan &&
		if grep -E "Seq Scan|Bitmap|JIT" walk.plan; then return 1; fi
	fi
'

test_expect_success 'the tasks by state are counted from indexes alone' '
	case $AC_STORE in
	sqlite) "$AC_BUILD/tools/status-plans" >all.plan; test $? -le 2 &&
		awk "/^SQL / { s = index(\$0, \"*all\") > 0 } s && /^PLAN /" all.plan >tally.plan ;;
	postgres) off=$(wc -c <"$PGSRV/log") &&
		{ task-status >/dev/null; test $? -le 2; } &&
		plans_of "'\''*all'\''" tally.plan ;;
	esac &&
	grep -E "(SCAN|SEARCH) tasks USING (COVERING )?INDEX tasks_disabled|Index Only Scan using tasks_disabled" tally.plan &&
	grep -E "(SCAN|SEARCH) tasks USING (COVERING )?INDEX tasks_status|Index Only Scan using tasks_status" tally.plan &&
	# The total: on SQLite from tasks_order; a server may read a table of
	# 6,000 tasks whole for it (at 100,000, tasks_order alone).
	if test "$AC_STORE" = sqlite; then
		grep -E "SCAN tasks USING (COVERING )?INDEX tasks_order" tally.plan &&
		if grep -E "SCAN tasks$" tally.plan; then return 1; fi
	fi
'

test_done
