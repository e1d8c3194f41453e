#!/bin/sh
# The global pause, the heartbeat (one executor call with the base prompt
# and every active heartbeat task under "## Heartbeat Additions"), and the
# crontab line and systemd units task-tick prints.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

printf '#!/bin/sh\necho "[$TASK_TRIGGER]"\ncat\n' >echo-exec && chmod +x echo-exec
export TASK_EXEC=$PWD/echo-exec

test_expect_success '--pause: nothing fires, queued runs wait, task-run still works' '
	a=$(task-add --at 2026-11-23T07:00:00Z --name due x) &&
	b=$(task-add --manual --name queued y) &&
	task-tick --pause 2>err &&
	echo "task-tick: scheduler paused since 2026-11-23T07:00:00Z; nothing fires until task-tick --resume" >expect &&
	test_cmp expect err &&
	task-run --queue $b >/dev/null &&
	task-tick >out 2>err && test ! -s out && test ! -s err &&
	task-tick --dry-run >out 2>err && test ! -s out &&
	grep -q "^task-tick: scheduler paused since 2026-11-23T07:00:00Z; nothing would fire$" err &&
	task-run $b >out && printf "[manual]\ny" >expect && test_cmp expect out
'

test_expect_success 'a second --pause keeps the first instant; --resume lets it all fire' '
	TASK_NOW=2026-11-23T07:30:00Z task-tick --pause 2>err &&
	grep -q "paused since 2026-11-23T07:00:00Z" err &&
	task-tick --resume 2>err && echo "task-tick: scheduler resumed" >expect && test_cmp expect err &&
	task-tick --resume 2>err && echo "task-tick: scheduler was not paused" >expect && test_cmp expect err &&
	TASK_NOW=2026-11-23T07:30:00Z task-tick >out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"due","trigger":"catchup","slot":"2026-11-23T07:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T07:30:00Z","ended_at":"2026-11-23T07:30:00Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual
'

test_expect_success '--heartbeat CRON creates the heartbeat task; run again it changes it' '
	reset_store &&
	id=$(task-tick --heartbeat "*/30 * * * *") &&
	task-ls | cut -f1-5 >actual &&
	printf "%s\tHeartbeat\tpending\t2026-11-23T07:30:00Z\tEvery 30 minutes\n" $id >expect &&
	test_cmp expect actual &&
	id2=$(task-tick --heartbeat "0 * * * *" --heartbeat-prompt "Check in.") &&
	test "$id" = "$id2" &&
	task-ls | cut -f4 >actual && echo 2026-11-23T08:00:00Z >expect && test_cmp expect actual &&
	task-show --json $id | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"Heartbeat","prompt":"Check in.","system_prompt":null,"kind":"cron","cron":"0 * * * *","at":null,"plan":null,"tz":"UTC","description":"Hourly at :00","enabled":true,"status":"pending","next_run_at":"2026-11-23T08:00:00Z","due_at":"2026-11-23T08:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":"agentcron.heartbeat","channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"stagger":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-23T07:00:00Z","updated_at":"2026-11-23T07:00:00Z","deleted_at":null,"runs":[]}
	EOF
	test_cmp expect actual
'

test_expect_success 'a heartbeat run: the base prompt and each active heartbeat task, oldest first' '
	TASK_NOW=2026-11-23T07:01:00Z task-add --heartbeat --name greet "Greet me by name." >/dev/null &&
	TASK_NOW=2026-11-23T07:02:00Z task-add --heartbeat --name mail "Summarise new email:
two lines at most." >/dev/null &&
	TASK_NOW=2026-11-23T07:03:00Z task-add --heartbeat --disabled --name off "Not this one." >/dev/null &&
	c=$(TASK_NOW=2026-11-23T07:04:00Z task-add --heartbeat --name gone "Nor this one.") &&
	task-rm --cancel $c >/dev/null &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"Heartbeat","trigger":"heartbeat","slot":"2026-11-23T08:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T08:00:00Z","ended_at":"2026-11-23T08:00:00Z","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	task-log "$(task-log --limit 1 | cut -f1)" | sed -n "/^output:/,/^error:/p" >actual &&
	cat >expect <<-\EOF &&
	output:
	  [heartbeat]
	  Check in.
	  
	  ## Heartbeat Additions
	  
	  - Greet me by name.
	  - Summarise new email:
	    two lines at most.
	error:
	EOF
	test_cmp expect actual &&
	test "$(task-log --limit 0 | wc -l)" -eq 1
'

test_expect_success 'a heartbeat with no additions gets its base prompt alone' '
	reset_store &&
	task-tick --heartbeat "0 * * * *" --heartbeat-prompt "Alone." >/dev/null &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >/dev/null &&
	task-log "$(task-log --limit 1 | cut -f1)" | sed -n "/^output:/,/^error:/p" >actual &&
	printf "output:\n  [heartbeat]\n  Alone.\nerror:\n" >expect && test_cmp expect actual
'

test_expect_success '--heartbeat off disables it; bad input is refused' '
	id=$(task-tick --heartbeat off) &&
	task-show --json $id | grep -q "\"enabled\":false" &&
	TASK_NOW=2026-11-23T09:00:00Z task-tick >out && test ! -s out &&
	test_expect_code 2 task-tick --heartbeat "61 * * * *" 2>err && test_one_line err &&
	test_expect_code 2 task-tick --heartbeat-prompt x 2>err && test_one_line err &&
	reset_store && test_expect_code 3 task-tick --heartbeat off 2>err && test_one_line err
'

test_expect_success '--print-cron: the crontab line with the real path' '
	self=$(readlink -f "$(command -v task-tick)") &&
	task-tick --print-cron >out &&
	grep -v "^#" out >actual &&
	echo "* * * * * (umask 077 && mkdir -p \"\$HOME/.local/state/agentcron\" && touch \"\$HOME/.local/state/agentcron/tick.log\") && TASK_DB='\''$TASK_DB'\'' XDG_CONFIG_HOME='\''$XDG_CONFIG_HOME'\'' $self >>\"\$HOME/.local/state/agentcron/tick.log\"" >expect &&
	test_cmp expect actual &&
	grep -q "^# .*config" out
'

# The units' script checks that systemd is init; here it is told so.
as_systemd() {
	mkdir -p "$TEST_TMP/systemd-booted" && sed "s|/run/systemd/system|$TEST_TMP/systemd-booted|"
}

test_expect_success '--print-systemd | sh writes a service and a minutely, persistent timer' '
	self=$(readlink -f "$(command -v task-tick)") &&
	mkdir -p fakebin && printf "#!/bin/sh\necho \"\$@\" >>systemctl.log\n" >fakebin/systemctl &&
	chmod +x fakebin/systemctl &&
	task-tick --print-systemd | as_systemd | PATH=$PWD/fakebin:$PATH sh &&
	u=config/systemd/user &&
	grep -qx "ExecStart=$self" $u/agentcron-tick.service &&
	grep -qx "Type=oneshot" $u/agentcron-tick.service &&
	grep -qx "Environment=\"TASK_DB=$TASK_DB\"" $u/agentcron-tick.service &&
	grep -qx "OnCalendar=minutely" $u/agentcron-tick.timer &&
	grep -qx "Persistent=true" $u/agentcron-tick.timer &&
	printf "%s\n" "--user daemon-reload" "--user enable --now agentcron-tick.timer" >expect &&
	test_cmp expect systemctl.log &&
	rm systemctl.log && task-tick --print-systemd --watch | as_systemd | PATH=$PWD/fakebin:$PATH sh &&
	grep -qx "ExecStart=$self --watch" $u/agentcron-tick.service &&
	grep -qx "Type=notify" $u/agentcron-tick.service &&
	grep -q "enable --now agentcron-tick.service" systemctl.log
'

test_expect_success '--print-cron and --print-systemd: odd paths quoted, a relative TASK_DB made absolute' '
	odd="$PWD/odd dir%1" && mkdir -p "$odd" && cp "$(command -v task-tick)" "$odd/" &&
	(TASK_DB=rel.db "$odd/task-tick" --print-cron) >out &&
	grep -v "^#" out >line &&
	printf "%s\n" "* * * * * (umask 077 && mkdir -p \"\$HOME/.local/state/agentcron\" && touch \"\$HOME/.local/state/agentcron/tick.log\") && TASK_DB='\''$PWD/rel.db'\'' XDG_CONFIG_HOME='\''$XDG_CONFIG_HOME'\'' '\''$PWD/odd dir\\%1/task-tick'\'' >>\"\$HOME/.local/state/agentcron/tick.log\"" >expect &&
	test_cmp expect line &&
	cmd=$(cut -d" " -f6- line | sed "s/\\\\%/%/g") &&
	(cd / && sh -c "$cmd") &&
	test -f rel.db && test -f .local/state/agentcron/tick.log &&
	mkdir -p fakebin && printf "#!/bin/sh\n:\n" >fakebin/systemctl && chmod +x fakebin/systemctl &&
	(TASK_DB=rel.db "$odd/task-tick" --print-systemd) | as_systemd | PATH=$PWD/fakebin:$PATH sh &&
	u=config/systemd/user &&
	grep -qxF "ExecStart=\"$PWD/odd dir%%1/task-tick\"" $u/agentcron-tick.service &&
	grep -qxF "Environment=\"TASK_DB=$PWD/rel.db\"" $u/agentcron-tick.service
'

test_expect_success 'the man page: its grep for failed runs finds them; --grace reads right' '
	reset_store &&
	task-add --at 2026-11-23T07:00:00Z --name bad --exec false x >/dev/null &&
	task-add --at 2026-11-23T07:00:00Z --force --name good --exec true y >/dev/null &&
	mandoc -Tascii "$AC_TOP/man/man1/task-tick.1" | sed "s/.$(printf "\\b")//g" >page &&
	example=$(sed -n "s/^ *\(task-tick | grep .*\)/\1/p" page) &&
	sh -c "$example" >actual 2>/dev/null &&
	test_json_norm <actual >norm &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"bad","trigger":"schedule","slot":"2026-11-23T07:00:00Z","status":"failed","exit_code":1,"started_at":"2026-11-23T07:00:00Z","ended_at":"2026-11-23T07:00:00Z","duration_ms":<ms>,"error":"exited with status 1"}
	EOF
	test_cmp expect norm &&
	tr -s " \n" "  " <page | grep -q "(--grace, default 30), then ends the rest"
'

test_done
