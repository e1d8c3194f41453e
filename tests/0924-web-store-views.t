#!/bin/sh
# task-web's views that the store answers at any size: the text filter
# (looked for by the store, not in the program), the timeline's fires per
# minute from groups of tasks that fire alike (the tasks_herd index, with
# its upgrade), and a task's runs paged by keyset (?before=RUN).
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

# The schema version this agentcron gives a new store: its numbered steps
# and the columns of its fields (task_fields.h).
schema=$(d=$(new_store schema) && TASK_DB=$d task-add --manual --name v x >/dev/null &&
	case $AC_STORE in
	sqlite) TASK_DB=$d store_sql "PRAGMA user_version" ;;
	postgres) TASK_DB=$d store_sql "SELECT max(version) FROM agentcron_schema" ;;
	esac) || exit 1

# req OUT [CURL ARG...] URL: as the token $tok.
req() {
	req_as "$tok" "$@"
}

test_expect_success 'a store from before the timeline index is upgraded in place' '
	old=$(new_store old) &&
	TASK_DB=$old task-add --cron "0 9 * * *" --name kept x >/dev/null &&
	case $AC_STORE in
	sqlite) sqlite3 "$old" "DROP TABLE spend; DROP TABLE reserves; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; DROP TABLE run_inputs; DROP INDEX tasks_after; ALTER TABLE tasks DROP COLUMN after_tasks;
		ALTER TABLE tasks DROP COLUMN gate; ALTER TABLE tasks DROP COLUMN gate_timeout;
		DROP INDEX tasks_herd; ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 15" ;;
	postgres) TASK_DB=$old store_sql "DROP TABLE spend, reserves; DROP TABLE run_inputs; DROP INDEX tasks_after;
		ALTER TABLE tasks DROP COLUMN after_tasks, DROP COLUMN gate, DROP COLUMN gate_timeout;
		DROP INDEX tasks_herd; ALTER TABLE llm_calls DROP COLUMN request; UPDATE agentcron_schema SET version = 11" ;;
	esac &&
	TASK_DB=$old task-ls | cut -f2 >actual &&
	echo kept >expect && test_cmp expect actual &&
	case $AC_STORE in
	sqlite) sqlite3 "$old" "SELECT count(*) FROM sqlite_master WHERE name = '\''tasks_herd'\'';
		PRAGMA user_version" ;;
	postgres) TASK_DB=$old store_sql "SELECT count(*) FROM pg_indexes WHERE indexname = '\''tasks_herd'\''
		UNION ALL SELECT max(version) FROM agentcron_schema" ;;
	esac >actual &&
	printf "1\n%s\n" "$schema" >expect &&
	test_cmp expect actual
'

TASK_NOW=2026-12-01T00:00:00Z
export TASK_NOW
task-web --new-token views >tok 2>/dev/null
tok=$(cat tok)
for n in 1 2 3; do task-add --force --cron "0 9 * * *" --tz UTC --name "nine $n" "p" >/dev/null; done
# The same wall time in two zones: two groups, an hour apart.
task-add --cron "0 9 * * *" --tz Europe/London --name london p >/dev/null
task-add --cron "0 9 * * *" --tz Europe/Paris --name paris p >/dev/null
task-add --force --cron "*/30 * * * *" --tz UTC --name "half 1" p >/dev/null
task-add --force --cron "*/30 * * * *" --tz UTC --name "half 2" p >/dev/null
# Its recurrence ends at 03:00: six fires (00:30 .. 03:00); the two
# above 47 each (00:30 .. 23:30), as the next 00:00 is a day away.
task-add --cron "*/30 * * * *" --tz UTC --until 2026-12-01T03:00:00Z --name ends p >/dev/null
task-add --cron "0 9 * * *" --tz UTC --name "off" p >/dev/null && task-edit off --disable >/dev/null
task-add --at 2026-12-01T12:00:00Z --name once "100% sure_thing" >/dev/null
task-add --manual --name "Mixed Case" "a prompt with Needle in it" >/dev/null

web_start
test_expect_success 'the timeline: every group reckoned once and counted for all its tasks' '
	test "$(req page "$url/timeline")" = 200 &&
	grep -o "<p>[0-9]* fires; the busiest minute, [^,]*, has [0-9]*\." page >actual &&
	echo "<p>106 fires; the busiest minute, 2026-12-01 09:00 UTC, has 6." >expect &&
	test_cmp expect actual
'

test_expect_success 'the overview: each host'\''s last pass, what needs a look, the spend' '
	test "$(req page "$url/")" = 200 &&
	grep -q "No pass recorded: is task-tick running?" page &&
	grep -q "<tr><td>failing (last run failed)</td><td>0</td></tr>" page &&
	grep -q "<tr><td>today (UTC)</td><td>\$0.00</td></tr>" page &&
	{ TASK_HOST_ID=hostA task-tick >/dev/null 2>&1; test $? -le 1; } &&
	test "$(req page "$url/")" = 200 &&
	! grep -q "No pass recorded" page &&
	grep -q "<tr><td>hostA</td><td><time datetime=\"2026-12-01T00:00:00Z\">[^<]*</time></td><td>0ms ago</td><td>cron</td></tr>" page &&
	grep -q "<a href=\"/tasks?status=pending\">pending</a></td><td>11</td>" page
'

test_expect_success 'the text filter: any case, name or prompt, % and _ taken as they are' '
	test "$(req page "$url/tasks?q=needle")" = 200 &&
	sed -n "s|.*<a href=\"/tasks/[^\"]*\">\([^<]*\)</a>.*|\1|p" page >names &&
	echo "Mixed Case" >expect && test_cmp expect names &&
	test "$(req body "$url/api/tasks?q=mixed%20CASE")" = 200 &&
	grep -o "\"name\":" body | wc -l >n && echo 1 >expect && test_cmp expect n &&
	test "$(req body "$url/api/tasks?q=100%25%20sure_")" = 200 &&
	grep -q "\"name\":\"once\"" body && grep -o "\"name\":" body | wc -l >n && test_cmp expect n &&
	test "$(req body "$url/api/tasks?q=10_%25")" = 200 &&
	test "$(cat body)" = "[]" &&
	test "$(req body "$url/api/tasks?q=nine&status=pending&limit=2")" = 200 &&
	grep -o "\"name\":\"nine" body | wc -l >n && echo 2 >expect && test_cmp expect n
'

# 55 runs of one task, three by three at the same start, so the pages'
# order rests on the tie-break too.
busy=$(task-add --manual --name busy p)
values=
i=0
while [ $i -lt 55 ]; do
	values="$values${values:+,}('$(printf '00000000-0000-4000-8000-%012d' $i)', '$busy', NULL, 'manual',
		'success', $((1795000000 + i / 3 * 60)), $((1795000000 + i / 3 * 60 + 1)), 0, 'r$i', 1000, 1, 0)"
	i=$((i + 1))
done
store_sql "INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at, exit_code,
	output, duration_ms, attempt, arming) VALUES $values"

test_expect_success 'a task page shows its newest 50 runs and a link to the older ones' '
	task-log --task busy --limit 0 --json | sed -n "s/^{\"id\":\"\([^\"]*\)\".*/\1/p" >all &&
	test "$(wc -l <all)" = 55 &&
	test "$(req page "$url/tasks/$busy")" = 200 &&
	sed -n "s|.*<a href=\"/runs/\([^\"]*\)\">.*|\1|p" page >first &&
	head -n 50 all >expect && test_cmp expect first &&
	! grep -q "Newest runs" page &&
	next=$(sed -n "s|.*<a href=\"\(/tasks/[^\"]*?before=[^\"]*\)\" rel=\"next\">Older runs</a>.*|\1|p" page) &&
	test "$next" = "/tasks/$busy?before=$(sed -n 50p all)" &&
	test "$(req page "$url$next")" = 200 &&
	sed -n "s|.*<a href=\"/runs/\([^\"]*\)\">.*|\1|p" page >second &&
	tail -n 5 all >expect && test_cmp expect second &&
	grep -q "Newest runs" page && ! grep -q "Older runs" page
'

test_expect_success 'the API pages runs by ?before=, every run once, in the listing order' '
	: >paged && before= &&
	while :; do
		test "$(req body "$url/api/runs?task=busy&limit=20${before:+&before=$before}")" = 200 ||
			return 1
		tr "{" "\n" <body | sed -n "s/^\"id\":\"\([^\"]*\)\".*/\1/p" >page || return 1
		[ -s page ] || break
		cat page >>paged && before=$(tail -n 1 page)
	done &&
	test_cmp all paged &&
	test "$(req body "$url/api/runs?task=busy&before=ffffffff")" = 404 &&
	test "$(req page "$url/tasks/busy?before=ffffffff")" = 404 &&
	other=$(task-add --manual --name other p) &&
	test "$(req page "$url/tasks/$other?before=$(head -n 1 all)")" = 404
'

test_expect_success 'a run page lists its delivery receipts, and only where there are some' '
	run=00000000-0000-4000-8000-000000000054 &&
	store_sql "INSERT INTO receipts (id, run_id, task_id, target, kind, status, attempts,
		created_at, error) VALUES ('\''00000000-0000-4000-8000-0000000000r1'\'', '\''$run'\'',
		'\''$busy'\'', '\''exec:notify-me'\'', '\''exec'\'', '\''failed'\'', 3, 1795003300,
		'\''boom <b>'\'')" &&
	test "$(req page "$url/runs/$run")" = 200 &&
	grep -q "<h2>Deliveries</h2>" page &&
	grep -q "<tr><td>exec:notify-me</td><td class=\"failed\">failed</td><td>3</td><td>boom &lt;b&gt;</td></tr>" page &&
	test "$(req page "$url/runs/00000000-0000-4000-8000-000000000053")" = 200 &&
	! grep -q "Deliveries" page
'

web_stop; stopped=$?
test_expect_success 'stops on SIGTERM, exit 0' 'test "$stopped" = 0'

test_done
