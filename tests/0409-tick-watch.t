#!/bin/sh
# task-tick --watch: fires at the due instant, wakes at once when a task is
# added, edited or queued, follows TASK_NOW forward with the clock, and on
# SIGTERM lets the runs in flight finish within the grace, records the rest
# as interrupted and exits 0.
. "$AC_TOP/tests/lib.sh"

# Readiness is systemd's protocol (the unit task-tick prints for --watch is
# Type=notify): READY=1 once the first pass is made and wake-ups are
# watched, so from then on only a wake-up or the clock makes it fire.
test_expect_success 'a task added while watching fires at its instant, not a minute later' '
	tick_watch &&
	at=$(in_s 4) &&
	task-add --at "$at" --exec true x >/dev/null &&
	test_until 30 lines wout 1 &&
	tick_stop &&
	host=$(hostname) &&
	cat >expect <<-EOF &&
	task-tick: watching store '"'$TASK_DB'"' on host $host with -j 4, woken $(case $AC_STORE in
		sqlite) echo "through inotify by any program using the store" ;;
		*) echo "by LISTEN/NOTIFY from any host" ;; esac)
	task-tick: stopped watching store '"'$TASK_DB'"'
	EOF
	test_cmp expect werr &&
	grep -q "\"slot\":\"$at\",\"status\":\"success\",\"exit_code\":0,\"started_at\":" wout &&
	started=$(sed "s/.*\"started_at\":\"\([^\"]*\)\".*/\1/" wout) &&
	late=$(($(date -d "$started" +%s) - $(date -d "$at" +%s))) &&
	{ test "$late" -ge 0 && test "$late" -le 20 || { echo "started $late s after its instant" >&2; false; }; } &&
	test_json_norm -t <wout >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"x","trigger":"schedule","slot":"<time>","status":"success","exit_code":0,"started_at":"<time>","ended_at":"<time>","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	printf "READY=1\nSTOPPING=1\n" >expect &&
	test_cmp expect .wout.notify
'

test_expect_success 'an edit wakes the watcher too' '
	reset_store &&
	id=$(task-add --at "$(in_s 3600)" --exec true x) &&
	tick_watch &&
	at=$(in_s 1) && task-edit --at "$at" $id >/dev/null &&
	test_until 60 lines wout 1 && tick_stop &&
	grep -q "\"slot\":\"$at\",\"status\":\"success\"" wout
'

# A loaded machine may start the run a second or so late; never early.
test_expect_success 'TASK_NOW moves forward with the clock in --watch' '
	reset_store &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --at 2026-11-23T07:00:02Z --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z tick_watch && test_until 60 lines wout 1 && tick_stop &&
	cat wout &&
	grep -q "\"slot\":\"2026-11-23T07:00:02Z\",\"status\":\"success\",\"exit_code\":0,\"started_at\":\"2026-11-23T07:00:0[2-9]Z\"" wout
'

# The executor holds its run open until the test lets it go, so the run is
# in flight when SIGTERM comes however slow the machine.
test_expect_success 'SIGTERM: a run in flight finishes within the grace; exit 0' '
	reset_store && rm -f started go &&
	printf "#!/bin/sh\n: >started\nwhile ! test -e go; do sleep 0.05; done\necho finished\n" >held &&
	chmod +x held &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/held" x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z tick_watch --grace 10 &&
	test_until 60 test -e started &&
	kill -TERM "$(cat watcher)" &&
	test_until 60 grep -q "letting 1 run finish" werr &&
	touch go && wait "$(cat watcher)" &&
	echo "task-tick: Terminated: letting 1 run finish (up to 10 s), then stopping" >expect &&
	watcher_said werr >said && test_cmp expect said &&
	grep -q "\"slot\":\"2026-11-23T07:00:00Z\"" wout &&
	test_json_norm -t <wout >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"x","trigger":"schedule","slot":"<time>","status":"success","exit_code":0,"started_at":"<time>","ended_at":"<time>","duration_ms":<ms>,"error":null}
	EOF
	test_cmp expect actual &&
	printf "READY=1\nSTOPPING=1\n" >expect &&
	test_cmp expect .wout.notify
'

test_expect_success 'SIGTERM: past the grace the run is ended and recorded interrupted' '
	reset_store && rm -f started &&
	printf "#!/bin/sh\n: >started\nsleep 30\n" >long && chmod +x long &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/long" x >id &&
	TASK_NOW=2026-11-23T07:00:00Z tick_watch --grace 1 &&
	test_until 60 test -e started &&
	start=$(date +%s) && tick_stop && took=$(($(date +%s) - start)) &&
	{ cat wout werr && echo "stopped in $took s"; } >&2 &&
	grep -q "\"status\":\"interrupted\",\"exit_code\":null,.*\"error\":\"killed by signal 15 (SIGTERM); stopped before the run finished\"" wout &&
	grep -q "\"slot\":\"2026-11-23T07:00:00Z\"" wout &&
	test_json_norm -t <wout >actual &&
	cat >expect <<-\EOF &&
	{"run_id":"<id1>","task_id":"<id2>","name":"x","trigger":"schedule","slot":"<time>","status":"interrupted","exit_code":null,"started_at":"<time>","ended_at":"<time>","duration_ms":<ms>,"error":"killed by signal 15 (SIGTERM); stopped before the run finished"}
	EOF
	test_cmp expect actual &&
	task-show --json $(cat id) | grep -q "\"consecutive_failures\":1" &&
	test -z "$(task-log --status running)"
'

test_expect_success 'nothing fires while paused; --resume wakes the watcher' '
	reset_store &&
	task-tick --pause 2>/dev/null &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --at 2026-11-23T07:00:00Z --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:01Z tick_watch &&
	test ! -s wout && test -z "$(task-log --limit 0)" &&
	task-tick --resume 2>/dev/null &&
	test_until 60 lines wout 1 && tick_stop &&
	grep -q "\"trigger\":\"schedule\",\"slot\":\"2026-11-23T07:00:00Z\",\"status\":\"success\"" wout
'

test_expect_success 'the notify socket may be a path; a single pass says nothing' '
	reset_store &&
	test_start_ready wout werr -s "$PWD/notify.sock" task-tick --watch &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	watcher_said werr >said && test ! -s said &&
	printf "READY=1\nSTOPPING=1\n" >expect && test_cmp expect .wout.notify &&
	test ! -e notify.sock &&
	"$AC_BUILD/tools/notify-wait" -l pass.notify task-tick >out 2>err &&
	test ! -s out && test ! -s err && test ! -s pass.notify
'

# werr goes before each watcher starts: the last one's lines would end the
# wait before this one has even blocked SIGTERM.
test_expect_success 'a NOTIFY_SOCKET that cannot be used is said on stderr; the watcher goes on' '
	reset_store && rm -f werr &&
	{ NOTIFY_SOCKET=relative/sock task-tick --watch >wout 2>werr & } && echo $! >watcher &&
	test_until 60 grep -q NOTIFY_SOCKET werr &&
	tick_stop &&
	cat >expect <<-\EOF &&
	task-tick: NOTIFY_SOCKET is neither an absolute socket path nor an @abstract name
	task-tick: NOTIFY_SOCKET is neither an absolute socket path nor an @abstract name
	EOF
	watcher_said werr >said && test_cmp expect said &&
	rm werr &&
	{ NOTIFY_SOCKET=@no-one-listens task-tick --watch >wout 2>werr & } && echo $! >watcher &&
	test_until 60 grep -q NOTIFY_SOCKET werr &&
	tick_stop &&
	cat >expect <<-\EOF &&
	task-tick: cannot notify the service manager at NOTIFY_SOCKET: Connection refused
	task-tick: cannot notify the service manager at NOTIFY_SOCKET: Connection refused
	EOF
	watcher_said werr >said && test_cmp expect said
'

# cpu_ticks PID: the CPU time PID has used, user and system, in clock ticks.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# An idle watcher sleeps in poll until the next due instant, a wake-up or
# its periodic look; it spun at a whole core before its first claim.  Over
# three seconds of real time it may use a fifth of a second of CPU at most:
# a wide margin either way, as a spinning one uses all three.
test_expect_success 'an idle watcher sleeps: an empty store, then nothing due for an hour' '
	reset_store &&
	hz=$(getconf CLK_TCK) &&
	for due in none hour; do
		if test $due = hour; then
			task-add --at "$(in_s 3600)" --exec true later >/dev/null || return 1
		fi &&
		tick_watch &&
		tick=$(cat /proc/$(cat watcher)/task/*/children) &&
		before=$(cpu_ticks $tick) &&
		sleep 3 &&
		after=$(cpu_ticks $tick) &&
		tick_stop &&
		echo "$due: $((after - before)) ticks of $hz a second over 3 s" &&
		test $(((after - before) * 5)) -le "$hz" || return 1
	done &&
	test ! -s wout
'

test_done
