#!/bin/sh
# task-tick --watch: fires at the due instant, wakes at once when a task is
# added, edited or queued, follows TASK_NOW forward with the clock, and on
# SIGTERM lets the runs in flight finish within the grace, records the rest
# as interrupted and exits 0.
. "$AC_TOP/tests/lib.sh"

# until_lines FILE N: wait (at most 15 s) until FILE has N lines.
until_lines() {
	t=0
	while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ]; do
		[ "$t" -lt 300 ] || { echo "$1 has fewer than $2 lines" >&2; return 1; }
		sleep 0.05
		t=$((t + 1))
	done
}

in_s() {
	date -u -d "@$(($(date +%s) + $1))" +%Y-%m-%dT%H:%M:%SZ
}

# watch: start a watcher; its pid goes to the file watcher.
watch() {
	task-tick --watch "$@" >wout 2>werr &
	echo $! >watcher
}

stop() {
	kill -TERM "$(cat watcher)" && wait "$(cat watcher)"
}

test_expect_success 'a task added while watching fires at its instant, not a minute later' '
	watch && sleep 0.3 &&
	at=$(in_s 2) &&
	task-add --at "$at" --exec true x >/dev/null &&
	until_lines wout 1 &&
	stop && test ! -s werr &&
	grep -q "\"slot\":\"$at\",\"status\":\"success\",\"exit_code\":0,\"started_at\":\"$at\"" wout
'

test_expect_success 'an edit wakes the watcher too' '
	rm -f "$TASK_DB" &&
	id=$(task-add --at "$(in_s 3600)" --exec true x) &&
	watch && sleep 0.3 &&
	at=$(in_s 1) && task-edit --at "$at" $id >/dev/null &&
	until_lines wout 1 && stop &&
	grep -q "\"slot\":\"$at\",\"status\":\"success\"" wout
'

# A loaded machine may start the run a second or so late; never early.
test_expect_success 'TASK_NOW moves forward with the clock in --watch' '
	rm -f "$TASK_DB" &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --at 2026-11-23T07:00:02Z --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z watch && until_lines wout 1 && stop &&
	cat wout &&
	grep -q "\"slot\":\"2026-11-23T07:00:02Z\",\"status\":\"success\",\"exit_code\":0,\"started_at\":\"2026-11-23T07:00:0[2-9]Z\"" wout
'

test_expect_success 'SIGTERM: a run in flight finishes within the grace; exit 0' '
	rm -f "$TASK_DB" started &&
	printf "#!/bin/sh\n: >started\nsleep 1\necho finished\n" >short && chmod +x short &&
	task-add --at "$(in_s 1)" --exec "$PWD/short" x >/dev/null &&
	watch --grace 10 &&
	t=0 && until [ -e started ]; do [ $t -lt 100 ] || exit 1; sleep 0.05; t=$((t + 1)); done &&
	stop &&
	grep -q "\"status\":\"success\"" wout &&
	grep -q "^task-tick: Terminated: letting 1 run finish (up to 10 s), then stopping$" werr
'

test_expect_success 'SIGTERM: past the grace the run is ended and recorded interrupted' '
	rm -f "$TASK_DB" started &&
	printf "#!/bin/sh\n: >started\nsleep 30\n" >long && chmod +x long &&
	id=$(task-add --at "$(in_s 1)" --exec "$PWD/long" x) &&
	watch --grace 1 &&
	t=0 && until [ -e started ]; do [ $t -lt 100 ] || exit 1; sleep 0.05; t=$((t + 1)); done &&
	start=$(date +%s) && stop && took=$(($(date +%s) - start)) &&
	{ cat wout werr && echo "stopped in $took s"; } >&2 &&
	test $took -lt 10 &&
	grep -q "\"status\":\"interrupted\",\"exit_code\":null,.*\"error\":\"killed by signal 15 (SIGTERM); stopped before the run finished\"" wout &&
	task-show --json $id | grep -q "\"consecutive_failures\":1" &&
	test -z "$(task-log --status running)"
'

test_expect_success 'nothing fires while paused; --resume wakes the watcher' '
	rm -f "$TASK_DB" &&
	task-tick --pause 2>/dev/null &&
	task-add --at "$(in_s 1)" --exec true x >/dev/null &&
	watch && sleep 2.5 &&
	test ! -s wout &&
	task-tick --resume 2>/dev/null &&
	until_lines wout 1 && stop &&
	grep -q "\"trigger\":\"catchup\"\|\"trigger\":\"schedule\"" wout
'

kill "$(cat watcher 2>/dev/null)" 2>/dev/null

test_done
