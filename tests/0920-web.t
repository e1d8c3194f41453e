#!/bin/sh
# task-web over HTTP: tokens, the login link and sessions, the JSON API and
# the actions, each status code, and the headers every answer carries.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

# one_error FILE: an HTTP answer that is one line: a JSON error, or text.
one_error() {
	[ "$(wc -l <"$1")" -eq 1 ] && return 0
	echo "expected one line in $1, got:" >&2
	cat "$1" >&2
	return 1
}
header() {
	tr -d '\r' <"$1.h" | sed -n "s/^$2: //Ip"
}

test_expect_success 'tokens: made once, listed by name, revoked' '
	task-web --new-token ci >tok 2>err &&
	grep -q "^[0-9a-f]\{64\}$" tok &&
	task-web --new-token reader --read-only >rtok 2>/dev/null &&
	task-web --tokens | cut -f1,2 >actual &&
	printf "ci\tread-write\nreader\tread-only\n" >expect &&
	test_cmp expect actual &&
	store_dump >dump && ! grep -q "$(cat tok)" dump &&
	test_expect_code 4 task-web --new-token ci 2>err &&
	test_one_line err &&
	test_expect_code 2 task-web --new-token "bad name" 2>err &&
	test_one_line err &&
	task-web --new-token gone >/dev/null 2>&1 &&
	task-web --revoke gone 2>/dev/null &&
	test_expect_code 3 task-web --revoke gone 2>err &&
	grep -q "no token named .gone." err
'

test_expect_success 'a store of the schema before the tokens table is upgraded in place' '
	old=$(new_store old) &&
	TASK_DB=$old task-add --manual --name kept "a prompt" >/dev/null &&
	case $AC_STORE in
	sqlite) sqlite3 "$old" "DROP TABLE spend; DROP TABLE reserves; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; ALTER TABLE tasks DROP COLUMN gate; ALTER TABLE tasks DROP COLUMN gate_timeout;
		DROP TABLE web_tokens; DROP TABLE web_hooks; DROP TABLE web_hook_events;
		DROP INDEX tasks_herd; DROP TABLE run_inputs; DROP INDEX tasks_after; ALTER TABLE tasks DROP COLUMN after_tasks; DROP INDEX tasks_deliver; DROP TABLE receipts;
		ALTER TABLE tasks DROP COLUMN deliver; ALTER TABLE tasks DROP COLUMN deliver_on;
		ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 13" ;;
	postgres) TASK_DB=$old store_sql "DROP TABLE spend, reserves; ALTER TABLE tasks DROP COLUMN gate, DROP COLUMN gate_timeout;
		DROP TABLE web_tokens, web_hooks, web_hook_events;
		DROP INDEX tasks_herd; DROP TABLE run_inputs; DROP INDEX tasks_after; ALTER TABLE tasks DROP COLUMN after_tasks; DROP INDEX tasks_deliver; DROP TABLE receipts;
		ALTER TABLE tasks DROP COLUMN deliver, DROP COLUMN deliver_on;
		ALTER TABLE llm_calls DROP COLUMN request; UPDATE agentcron_schema SET version = 9" ;;
	esac &&
	{ TASK_DB=$old task-web --new-token after >/dev/null 2>err || { cat err; false; }; } &&
	TASK_DB=$old task-web --tokens | cut -f1 >actual &&
	echo after >expect && test_cmp expect actual &&
	TASK_DB=$old task-ls --json | grep -q "\"name\":\"kept\""
'

test_expect_success 'beyond loopback: refused without a token, and by default address only' '
	TASK_DB=$(new_store empty) &&
	export TASK_DB &&
	test_expect_code 4 task-web --listen 0.0.0.0:0 2>err &&
	test_one_line err &&
	grep -q "make a token first" err
'

test_expect_success 'bad options: one line each' '
	test_expect_code 2 task-web --listen nonsense 2>err && test_one_line err &&
	test_expect_code 2 task-web --listen 127.0.0.1:99999 2>err && test_one_line err &&
	test_expect_code 2 task-web --listen 127.0.0.1:0 --socket x 2>err && test_one_line err &&
	test_expect_code 2 task-web extra 2>err && test_one_line err
'

test_expect_success '--print-systemd gives a notify service with the address' '
	task-web --print-systemd --listen 127.0.0.1:9000 >unit &&
	grep -q "^Type=notify$" unit &&
	grep -q "^ExecStart=.*task-web --listen 127.0.0.1:9000$" unit
'

task-add --manual --name alpha "first prompt" >id1
task-add --manual --name beta "second prompt" >id2
id1=$(cat id1) id2=$(cat id2)
tok=$(cat tok) rtok=$(cat rtok)

web_start
test_expect_success 'start: the listening line, then the login link' '
	test -n "$url" && test -n "$login" &&
	head -n 1 werr | grep -q "^task-web: listening on http://127.0.0.1:[0-9]*/$"
'

test_expect_success 'no token: 401 for the API, the login form for a page; headers on both' '
	test "$(req body "$url/api/tasks")" = 401 &&
	one_error body && grep -q "\"error\"" body &&
	test "$(req page "$url/tasks")" = 401 &&
	grep -q "<form method=\"post\" action=\"/login\">" page &&
	header page Content-Security-Policy | grep -q "script-src .self.;" &&
	! header page Content-Security-Policy | grep -q unsafe-inline &&
	test "$(header page X-Frame-Options)" = DENY &&
	test "$(header page Cache-Control)" = no-store &&
	test "$(req body -H "Authorization: Bearer nope" "$url/api/tasks")" = 401
'

test_expect_success 'the API: the objects task-ls --json and task-log --json print' '
	test "$(req body -H "Authorization: Bearer $tok" "$url/api/tasks")" = 200 &&
	test "$(header body Content-Type)" = application/json &&
	task-ls --json >lines &&
	node -e "
		const fs = require(\"fs\");
		const api = JSON.parse(fs.readFileSync(\"body\"));
		const cli = fs.readFileSync(\"lines\", \"utf8\").trim().split(\"\n\").map(JSON.parse);
		require(\"assert\").deepStrictEqual(api, cli);" &&
	test "$(req one -H "Authorization: Bearer $tok" "$url/api/tasks/$(echo $id1 | cut -c1-8)")" = 200 &&
	grep -q "\"name\":\"alpha\"" one &&
	test "$(req body -H "Authorization: Bearer $tok" "$url/api/tasks?q=SECOND")" = 200 &&
	grep -q beta body && ! grep -q alpha body &&
	test "$(req body -H "Authorization: Bearer $rtok" "$url/api/tasks/ffffffff")" = 404 &&
	one_error body &&
	test "$(req body -H "Authorization: Bearer $tok" "$url/api/tasks?status=bogus")" = 400 &&
	one_error body &&
	test "$(req body -H "Authorization: Bearer $tok" "$url/api/runs?limit=x")" = 400 &&
	test "$(req body -H "Authorization: Bearer $tok" "$url/nowhere")" = 404
'

test_expect_success '/api/status is task-status --json; /metrics its --prometheus, to a read-only token' '
	test "$(req body -H "Authorization: Bearer $rtok" "$url/api/status")" = 200 &&
	task-status --json >cli &&
	node -e "
		const fs = require(\"fs\");
		const api = JSON.parse(fs.readFileSync(\"body\")), cli = JSON.parse(fs.readFileSync(\"cli\"));
		const a = require(\"assert\");
		a.deepStrictEqual(Object.keys(api), Object.keys(cli));
		a.deepStrictEqual(api.tasks, cli.tasks);
		a.strictEqual(api.check, cli.check);" &&
	test "$(req metrics -H "Authorization: Bearer $rtok" "$url/metrics")" = 200 &&
	grep -q "^agentcron_paused 0$" metrics &&
	grep -q "^agentcron_tasks{state=\"pending\"} 2$" metrics &&
	test "$(req metrics "$url/metrics")" = 401
'

test_expect_success 'actions: 202 for a queued run, 200 otherwise, 403 read-only, 400 without a reason' '
	test "$(req body -X POST -H "Authorization: Bearer $tok" "$url/tasks/$id1/run")" = 202 &&
	grep -q "\"queued\":true" body &&
	test "$(store_sql "SELECT queued FROM tasks WHERE id = '\''$id1'\''")" = 1 &&
	test "$(req body -X POST -H "Authorization: Bearer $rtok" "$url/tasks/$id2/run")" = 403 &&
	one_error body &&
	test "$(req body -X POST -H "Authorization: Bearer $tok" "$url/tasks/$id2/pause")" = 400 &&
	test "$(req body -X POST -H "Authorization: Bearer $tok" -d "reason=deploy freeze" \
		"$url/tasks/$id2/pause")" = 200 &&
	task-show "$id2" >show &&
	grep -q "^paused: *deploy freeze (by ci)$" show &&
	test "$(req body -X POST -H "Authorization: Bearer $tok" "$url/tasks/$id2/resume")" = 200 &&
	task-show "$id2" >show && ! grep -q "^paused:" show &&
	test "$(req body -X POST -H "Authorization: Bearer $tok" "$url/tasks/ffffffff/run")" = 404 &&
	test "$(req body -X POST -H "Authorization: Bearer $tok" "$url/tasks/$id2/explode")" = 404 &&
	grep -q "^task-web: ci: pause task ${id2%%-*}: deploy freeze$" werr
'

test_expect_success 'bulk pause and resume through the API' '
	test "$(req body -X POST -H "Authorization: Bearer $tok" \
		-d "action=pause&reason=night&id=$id1&id=$id2&id=ffffffff" "$url/tasks/bulk")" = 200 &&
	grep -q "\"done\":2" body && grep -q "\"refused\":1" body &&
	test "$(task-ls --json --disabled | wc -l)" = 2 &&
	test "$(req body -X POST -H "Authorization: Bearer $tok" \
		-d "action=resume&id=$id1&id=$id2" "$url/tasks/bulk")" = 200 &&
	test "$(task-ls --json --disabled | wc -l)" = 0
'

test_expect_success 'a form field holding %00: 400, the task not paused (no reason read short)' '
	test "$(req body -X POST -H "Authorization: Bearer $tok" -d "reason=ok%00<b>" \
		"$url/tasks/$id1/pause")" = 400 &&
	one_error body && grep -q "%00 (NUL)" body &&
	test "$(task-ls --json --disabled | wc -l)" = 0
'

test_expect_success 'a body over 1 MiB: 413' '
	head -c 1100000 /dev/zero | tr "\0" a >big &&
	test "$(req body -X POST -H "Authorization: Bearer $tok" --data-binary @big \
		"$url/tasks/$id1/run")" = 413
'

test_expect_success 'the login link: once, a strict HttpOnly cookie, then forms need the CSRF token' '
	test "$(req body -c jar "$login")" = 303 &&
	header body Set-Cookie >cookie &&
	grep -q "HttpOnly" cookie && grep -q "SameSite=Strict" cookie &&
	test "$(req body "$login")" = 401 &&
	test "$(req page -b jar "$url/tasks/$id1")" = 200 &&
	grep -q "alpha" page &&
	! grep -q "<script>" page &&
	csrf=$(sed -n "s/.*name=\"csrf\" value=\"\([0-9a-f]*\)\".*/\1/p" page | head -n 1) &&
	test -n "$csrf" &&
	test "$(req body -b jar -X POST "$url/tasks/$id1/run")" = 403 &&
	test "$(req body -b jar -X POST -d "csrf=$csrf&back=//evil.example/" "$url/tasks/$id1/run")" = 303 &&
	test "$(header body Location)" = "/tasks/$id1" &&
	test "$(req body -b jar -X POST -d "csrf=$csrf&reason=by+hand" "$url/tasks/$id1/pause")" = 303 &&
	task-show "$id1" >show && grep -q "^paused: *by hand (by login)$" show
'

test_expect_success 'pages: overview, tasks filtered, a run; the static files' '
	test "$(req page -b jar "$url/")" = 200 && grep -q "<h1>Overview</h1>" page &&
	test "$(req page -b jar "$url/tasks?q=beta")" = 200 &&
	grep -q ">beta</a>" page && ! grep -q ">alpha</a>" page &&
	test "$(req js -b jar "$url/static/web.js")" = 200 &&
	grep -q visibilitychange js &&
	test "$(req body -b jar "$url/runs/ffffffff")" = 404
'

test_expect_success 'the timeline shows the herd at 09:00; the tasks sort by name' '
	for n in 1 2 3; do
		task-add --force --cron "0 9 * * *" --name "nine $n" "p" >/dev/null || return 1
	done &&
	test "$(req page -b jar "$url/timeline")" = 200 &&
	grep -q "the busiest minute, [0-9-]* 09:00 UTC, has 3\." page &&
	test "$(req page -b jar "$url/tasks?sort=name")" = 200 &&
	sed -n "s|.*<a href=\"/tasks/[^\"]*\">\([^<]*\)</a>.*|\1|p" page >names &&
	printf "alpha\nbeta\nnine 1\nnine 2\nnine 3\n" >expect &&
	test_cmp expect names &&
	grep -q "<time datetime=\"[0-9T:-]*Z\">" page
'

web_stop; stopped=$?
test_expect_success 'stops on SIGTERM, exit 0' 'test "$stopped" = 0'

web_start --read-only
test_expect_success '--read-only refuses every action, whoever asks' '
	test "$(req body -X POST -H "Authorization: Bearer $tok" "$url/tasks/$id2/run")" = 403 &&
	grep -q "read-only" body &&
	test "$(req body -H "Authorization: Bearer $tok" "$url/api/tasks")" = 200
'
test_expect_success 'failed logins are logged and, past ten a minute, answered 429' '
	for i in 1 2 3 4 5 6 7 8 9 10; do
		test "$(req body -H "Authorization: Bearer wrong$i" "$url/api/tasks")" = 401 || return 1
	done &&
	test "$(req body -H "Authorization: Bearer $tok" "$url/api/tasks")" = 429 &&
	test -n "$(header body Retry-After)" &&
	grep -q "^task-web: failed login from 127.0.0.1 (a wrong token)$" werr
'

web_stop; stopped=$?
test_expect_success 'stops on SIGTERM, exit 0' 'test "$stopped" = 0'

test_start_ready wout werr task-web --socket "$TEST_TMP/web.sock"
web_pid=$test_ready_pid
test_expect_success 'a Unix socket, mode 0600' '
	test "$(stat -c %a web.sock)" = 600 &&
	test "$(curl -s --max-time 20 --unix-socket web.sock -o body -w "%{http_code}" \
		-H "Authorization: Bearer $tok" http://x/api/tasks)" = 200
'
web_stop; stopped=$?
test_expect_success 'stops on SIGTERM, exit 0, the socket removed' 'test "$stopped" = 0 && test ! -e web.sock'

test_done
