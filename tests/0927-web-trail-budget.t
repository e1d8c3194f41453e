#!/bin/sh
# A task's page shows its audit trail (who changed what and when: the
# user at a terminal, a task-web token) and its budget with what its window
# spent; the overview counts and lists the tasks over budget as task-status
# does.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

# req OUT [CURL ARG...] URL: as the token $tok.
req() {
	req_as "$tok" "$@"
}
# section FILE TITLE END: the lines of FILE under <h2>TITLE</h2>, before the next line with END.
section() {
	sed -n "/<h2>$2<\/h2>/,/$3/p" "$1" | sed '1d;$d'
}

TASK_NOW=2026-12-01T10:00:00Z
export TASK_NOW
task-web --new-token ops >tok 2>/dev/null
tok=$(cat tok)
me="uid $(id -u) on $(hostname)"
id=$(task-add --cron "0 9 * * *" --tz UTC --name "daily digest" "sum up the day")
task-edit "daily digest" --name digest --budget 100tok/day >/dev/null
web_start

test_expect_success 'a task page shows its changes, newest first: when, who, what, before and after' '
	test "$(req body -X POST --data-urlencode "reason=too noisy <today>" "$url/tasks/$id/pause")" = 200 &&
	test "$(req page "$url/tasks/$id")" = 200 &&
	section page Changes "<\/div>" >actual &&
	cat >expect <<-EOT &&
	<table><tr><th>when (UTC)</th><th>who</th><th>action</th><th>change</th></tr>
	<tr><td><time datetime="2026-12-01T10:00:00Z">2026-12-01T10:00:00Z</time></td><td>token ops</td><td>pause</td><td>enabled: true &rarr; false<br>paused: null &rarr; &quot;too noisy &lt;today&gt; (by ops)&quot;</td></tr>
	<tr><td><time datetime="2026-12-01T10:00:00Z">2026-12-01T10:00:00Z</time></td><td>$me</td><td>edit</td><td>name: &quot;daily digest&quot; &rarr; &quot;digest&quot;<br>budget: null &rarr; &quot;100/day&quot;</td></tr>
	<tr><td><time datetime="2026-12-01T10:00:00Z">2026-12-01T10:00:00Z</time></td><td>$me</td><td>create</td><td>name "daily digest"</td></tr>
	</table>
	EOT
	test_cmp expect actual &&
	task-log --audit --task digest | cut -f3,4 >who &&
	printf "token ops\tpause\n%s\tedit\n%s\tcreate\n" "$me" "$me" >expect && test_cmp expect who
'

test_expect_success 'a task without changes on record says so' '
	store_sql "INSERT INTO tasks (id, name, prompt, kind, tz, created_at, updated_at)
		VALUES ('\''00000000-0000-4000-8000-000000000001'\'', '\''quiet'\'', '\''p'\'', '\''manual'\'', '\''UTC'\'', 1795000000, 1795000000)" &&
	test "$(req page "$url/tasks/00000000-0000-4000-8000-000000000001")" = 200 &&
	section page Changes "<\/div>" >actual &&
	echo "<p class=\"muted\">No changes on record.</p>" >expect && test_cmp expect actual
'

test_expect_success 'the budget and its window'\''s spend on the task page; not over yet' '
	test "$(req page "$url/tasks/$id")" = 200 &&
	grep "<tr><th>budget</th>" page >actual &&
	echo "<tr><th>budget</th><td>100/day, 0 tokens spent this day</td></tr>" >expect &&
	test_cmp expect actual &&
	test "$(req page "$url/")" = 200 &&
	grep -q "<tr><td>over budget</td><td>0</td></tr>" page &&
	! grep -q "<h2>Over budget</h2>" page
'

test_expect_success 'over budget: the task page says so, the overview lists it as task-status does' '
	store_sql "INSERT INTO spend (task_id, at, dollars, tokens) VALUES ('\''$id'\'', 1796110200, 0, 150)" &&
	task-status --json >status.json &&
	grep -o "\"over_budget\":\[[^]]*\]" status.json >over &&
	grep -q "\"reason\":\"budget: 150 of 100 tokens this day\"" over &&
	test "$(req page "$url/tasks/$id")" = 200 &&
	grep "<tr><th>budget</th>" page >actual &&
	echo "<tr><th>budget</th><td class=\"failed\">100/day, 150 tokens spent this day<br>over budget: its runs are skipped until the next window (budget: 150 of 100 tokens this day)</td></tr>" >expect &&
	test_cmp expect actual &&
	test "$(req page "$url/")" = 200 &&
	grep -q "<tr><td>over budget</td><td class=\"failed\">1</td></tr>" page &&
	section page "Over budget" "<h2>" >actual &&
	cat >expect <<-EOT &&
	<table><tr><th>task</th><th>why</th></tr>
	<tr><td><a href="/tasks/$id">digest</a></td><td>budget: 150 of 100 tokens this day</td></tr>
	</table>
	EOT
	test_cmp expect actual
'

test_expect_success 'the global budget spent: every task held, on the overview and the task page' '
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	echo "budget = 200tok/day" >"$XDG_CONFIG_HOME/agentcron/config" &&
	chmod 600 "$XDG_CONFIG_HOME/agentcron/config" &&
	store_sql "INSERT INTO spend (task_id, at, dollars, tokens) VALUES ('\'''\'', 1796110200, 0, 250)" &&
	task-status >status.txt &&
	grep "every task is held" status.txt >held &&
	test "$(req page "$url/")" = 200 &&
	grep "Every task is held by the global budget" page >actual &&
	why=$(sed "s/.*every task is held: //" held) &&
	echo "<p class=\"failed\">Every task is held by the global budget: $why</p>" >expect &&
	test_cmp expect actual &&
	test "$(req page "$url/tasks/00000000-0000-4000-8000-000000000001")" = 200 &&
	grep "<tr><th>budget</th>" page >actual &&
	echo "<tr><th>budget</th><td class=\"failed\">none of its own<br>over budget: its runs are skipped until the next window ($why)</td></tr>" >expect &&
	test_cmp expect actual
'

test_done
