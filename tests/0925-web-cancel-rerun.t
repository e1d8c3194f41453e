#!/bin/sh
# task-web's run actions: a cancel ends any run in flight (not only those
# of --overlap replace tasks), whichever program runs it (task-tick,
# task-run), and records it cancelled with the token's name; a rerun of a
# failed run, or Run now, queues one that the next pass carries out, on
# another host too (TASK_HOST_ID).  And
# --print-systemd writes nothing where systemd is not init.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

# req OUT [CURL ARG...] URL: req_as the token $as (default: ci's).
req() {
	req_as "${as:-$tok}" "$@"
}
# running NAME: the id of NAME's run in flight, once there is one.
running() {
	task-log --task "$1" --status running --json 2>/dev/null |
		sed -n "s/^{\"id\":\"\([^\"]*\)\".*/\1/p" >"$1.run" && test -s "$1.run"
}
# idle NAME: NAME has no run in flight.
idle() {
	test -z "$(task-log --task "$1" --status running)"
}
# ended NAME: the status and error of NAME's latest run.
ended() {
	task-log --task "$1" --limit 1 --json | node -e '
		const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
		console.log(r.status + "|" + r.error);'
}

# The executor waits, its pid on record, until it is ended.
cat >slow <<\EOF
#!/bin/sh
echo $$ >"$HOME/$TASK_NAME.pid"
exec sleep 120
EOF
chmod +x slow

task-web --new-token ci >tok 2>/dev/null
task-web --new-token reader --read-only >rtok 2>/dev/null
tok=$(cat tok) rtok=$(cat rtok)
task-add --manual --name ticked --exec "$PWD/slow" p >/dev/null
task-add --manual --name fore --exec "$PWD/slow" p >/dev/null
task-add --manual --name flaky --exec false p >/dev/null

TASK_HOST_ID=host-a web_start

task-run --queue ticked >/dev/null 2>&1
task-tick >tick.out 2>tick.err &
tick_pid=$!
test_expect_success 'a run of a task without --overlap replace, in task-tick: cancelled' '
	test_until 60 running ticked &&
	run=$(cat ticked.run) &&
	test "$(as=$rtok req body -X POST "$url/runs/$run/cancel")" = 403 &&
	test "$(req body -X POST "$url/runs/$run/cancel")" = 200 &&
	grep -q "\"done\":\"cancel\"" body &&
	test_until 60 idle ticked &&
	ended ticked >actual &&
	grep -q "^cancelled|cancelled by ci in task-web; ended by SIGTERM" actual &&
	! alive "$(cat "$HOME/ticked.pid")" &&
	grep -q "^task-web: ci: cancel run ${run%%-*}$" werr
'
wait "$tick_pid"; tick_status=$?
test_expect_success 'task-tick ended its pass once the run was recorded' '
	test "$tick_status" -le 1 && grep -q "\"status\":\"cancelled\"" tick.out
'

task-run fore >fore.out 2>fore.err &
fore_pid=$!
test_expect_success 'a run in task-run, in the foreground: cancelled the same way' '
	test_until 60 running fore &&
	run=$(cat fore.run) &&
	test "$(req body -X POST "$url/runs/$run/cancel")" = 200 &&
	test_until 60 idle fore &&
	ended fore >actual &&
	grep -q "^cancelled|cancelled by ci in task-web" actual
'
wait "$fore_pid"; fore_status=$?
test_expect_success 'task-run says the run did not succeed' 'test "$fore_status" -ne 0'

test_expect_success 'a cancel of a run that is not running: 409, one line, nothing changed' '
	run=$(task-log --task fore --limit 1 --json | sed -n "s/^{\"id\":\"\([^\"]*\)\".*/\1/p") &&
	test "$(req body -X POST "$url/runs/$run/cancel")" = 409 &&
	test "$(wc -l <body)" = 1 && grep -q "is not running (it is cancelled)" body &&
	test "$(req body -X POST "$url/runs/ffffffff/cancel")" = 404
'

test_expect_success 'a rerun of a failed run: queued (202), carried out by the next pass' '
	test_expect_code 1 task-run flaky >/dev/null 2>&1 &&
	run=$(task-log --task flaky --limit 1 --json | sed -n "s/^{\"id\":\"\([^\"]*\)\".*/\1/p") &&
	test "$(as=$rtok req body -X POST "$url/runs/$run/rerun")" = 403 &&
	test "$(req body -X POST "$url/runs/$run/rerun")" = 202 &&
	grep -q "\"queued\":true" body && grep -q "\"done\":\"rerun\"" body &&
	{ task-tick >out 2>err; test $? -le 1; } &&
	task-log --task flaky --limit 0 --json | sed -n "s/.*\"trigger\":\"\([a-z]*\)\".*\"status\":\"\([a-z]*\)\".*/\1 \2/p" >actual &&
	printf "manual failed\nmanual failed\n" >expect && test_cmp expect actual
'

test_expect_success 'Run now on one host'\''s task-web is carried out by another host'\''s ticker' '
	task-add --manual --name elsewhere --exec true p >id &&
	test "$(req body -X POST "$url/tasks/$(cat id)/run")" = 202 &&
	{ TASK_HOST_ID=host-b task-tick >out 2>err; test $? -le 1; } &&
	task-log --task elsewhere --json | sed -n "s/.*\"trigger\":\"\([a-z]*\)\".*\"status\":\"\([a-z]*\)\".*/\1 \2/p" >actual &&
	echo "manual success" >expect && test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM passes WHERE host = '\''host-b'\''")" = 1
'

test_expect_success 'task-edit --trigger-token new: a token that fires the task and reads nothing' '
	id=$(task-log --task flaky --limit 1 --json | sed -n "s/.*\"task_id\":\"\([^\"]*\)\".*/\1/p") &&
	task-edit flaky --trigger-token new >ttok 2>err &&
	grep -q "^[0-9a-f]\{64\}$" ttok && grep -q "shown this once" err &&
	store_dump >dump && ! grep -q "$(cat ttok)" dump &&
	test "$(as=$(cat ttok) req body -X POST "$url/hooks/$id")" = 202 &&
	test "$(store_sql "SELECT queued FROM tasks WHERE id = '\''$id'\''")" = 1 &&
	test "$(as=$(cat ttok) req body "$url/api/tasks")" = 401 &&
	task-edit flaky --trigger-secret new >secret 2>/dev/null &&
	grep -q "^[0-9a-f]\{64\}$" secret &&
	test_expect_code 2 task-edit flaky --trigger-token old 2>err && test_one_line err &&
	test_expect_code 2 task-edit flaky --trigger-token new --name x 2>err && test_one_line err &&
	test_expect_code 3 task-edit ffffffff --trigger-token new 2>err && test_one_line err
'

web_stop; stopped=$?
test_expect_success 'task-web stops on SIGTERM, exit 0' 'test "$stopped" = 0'

test_expect_success '--print-systemd: the script tests for systemd as task-tick'\''s does' '
	task-web --print-systemd --listen 127.0.0.1:9000 >script &&
	grep -q "^if \[ ! -d /run/systemd/system \]; then" script &&
	mkdir -p fakebin &&
	printf "#!/bin/sh\necho \"\$@\" >>\"\$HOME/systemctl.log\"\n" >fakebin/systemctl &&
	chmod +x fakebin/systemctl &&
	sed "s|/run/systemd/system|$TEST_TMP/no-systemd-here|" script |
		PATH=$PWD/fakebin:$PATH test_expect_code 1 sh >out 2>err &&
	test_one_line err &&
	grep -q "^task-web: systemd is not this machine.s init: nothing written" err &&
	test ! -s out && test ! -e config/systemd && test ! -e systemctl.log &&
	mkdir -p "$TEST_TMP/systemd-here" &&
	sed "s|/run/systemd/system|$TEST_TMP/systemd-here|" script |
		PATH=$PWD/fakebin:$PATH XDG_CONFIG_HOME=$PWD/config sh >out 2>err &&
	grep -q "^ExecStart=.*task-web --listen 127.0.0.1:9000$" config/systemd/user/agentcron-web.service &&
	grep -q "enable --now agentcron-web.service" systemctl.log
'

test_done
