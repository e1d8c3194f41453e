#!/bin/sh
# Several hosts, one schedule on PostgreSQL: every occurrence runs exactly
# once however many tickers on however many hosts claim it (executions are
# counted, not rows); a host killed mid-run has its runs recovered by
# another within the documented bound; a host stopped past it comes back
# without overwriting the recovery; a watcher on one host wakes when
# another host changes the schedule.  Hosts are separate PID and UTS
# namespaces where unshare can make them, else TASK_HOST_ID.
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB

# Others recover a silent process's runs after 3 s (default 30).
test_config 'owner_timeout = 3' || exit 1

T0=2026-11-23T07:00:00Z

# import N EXEC: N one-shot tasks due at T0 running EXEC.
import() {
	i=0
	while [ "$i" -lt "$1" ]; do
		printf '{"name":"t%d","prompt":"p%d","kind":"at","at":"%s","exec":"%s"}\n' "$i" "$i" "$T0" "$2"
		i=$((i + 1))
	done | TASK_NOW=2026-11-23T06:00:00Z task-add --json - >/dev/null
}

count() {
	pg_sql "$1"
}

cat >count-exec <<\EOF
#!/bin/sh
echo "$TASK_ID" >>"$EXECS"
EOF
cat >slow <<\EOF
#!/bin/sh
# Until the file "fast" exists: record that it runs, then sleep.
[ -f "$DIR/fast" ] && { echo "$TASK_ID" >>"$DIR/execs"; exit 0; }
echo "$TASK_ID $$" >>"$DIR/started"
sleep "${SLOW:-60}"
echo done
EOF
chmod +x count-exec slow || exit 1
DIR=$PWD EXECS=$PWD/execs
export DIR EXECS

test_expect_success '3 hosts x 3 tickers over 2,000 due tasks: each runs exactly once' '
	import 2000 "$PWD/count-exec" &&
	for h in a b c; do
		for k in 1 2 3; do
			TASK_NOW=2026-11-23T07:00:05Z on_host $h task-tick -j 4 >tick.$h$k 2>err.$h$k &
		done
	done &&
	wait &&
	cat err.* >errs && test_cmp /dev/null errs &&
	{ test "$(wc -l <execs)" -eq 2000 || { echo "$(wc -l <execs) executions of 2000"; false; }; } &&
	sort execs | uniq -d >twice && test_cmp /dev/null twice &&
	cat tick.* | wc -l >n && echo 2000 >expect && test_cmp expect n &&
	count "SELECT status, count(*) FROM runs GROUP BY status" >actual &&
	echo "success|2000" >expect && test_cmp expect actual &&
	count "SELECT count(*) FROM tasks WHERE status <> '\''completed'\''" >actual &&
	echo 0 >expect && test_cmp expect actual &&
	for h in a b c; do
		test -s tick.${h}1 -o -s tick.${h}2 -o -s tick.${h}3 || { echo "host $h ran nothing"; return 1; }
	done
'

test_expect_success 'every host claimed a share: the claims ran side by side' '
	for h in a b c; do cat tick.${h}1 tick.${h}2 tick.${h}3 | wc -l; done >shares &&
	while read -r n; do test "$n" -ge 100 || return 1; done <shares
'

# start_host NAME CMD...: CMD as host NAME in the background, in a session
# of its own; host.NAME.init is the pid its other processes descend from.
start_host() {
	start_host_name=$1
	shift
	if [ "$AC_UNSHARE" = yes ]; then
		setsid unshare --uts --pid --fork --mount-proc \
			sh -c 'hostname "$0" && exec "$@"' "$start_host_name" "$@" 2>"host.$start_host_name.err" &
		start_host_pid=$!
		test_until 60 sh -c "cat /proc/$start_host_pid/task/*/children 2>/dev/null | grep -q ." &&
		cat /proc/$start_host_pid/task/*/children | tr " " "\n" | grep . | head -n 1 \
			>"host.$start_host_name.init"
	else
		TASK_HOST_ID=$start_host_name setsid "$@" 2>"host.$start_host_name.err" &
		echo $! >"host.$start_host_name.init"
	fi
}

# host_pids NAME: every live process of host NAME.  Without namespaces,
# the processes of this file alone (its HOME) with that TASK_HOST_ID:
# other files running beside it name their hosts a, b and c too.
host_pids() {
	if [ "$AC_UNSHARE" = yes ]; then
		host_ns_=$(readlink "/proc/$(cat "host.$1.init")/ns/pid" 2>/dev/null) || return 0
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/ns/pid" 2>/dev/null)" = "$host_ns_" ] && echo "${p#/proc/}"
		done
	else
		for f in $(grep -l -z -x -F "TASK_HOST_ID=$1" /proc/[0-9]*/environ 2>/dev/null); do
			grep -q -z -x -F "HOME=$HOME" "$f" 2>/dev/null && echo "$f" | cut -d/ -f3
		done
	fi
	return 0
}

# signal_host SIG NAME: SIG to every process of host NAME, the first one
# first (a host that dies dies at once, before its task-tick could notice
# its executors go).
signal_host() {
	kill "-$1" "$(cat "host.$2.init")" 2>/dev/null
	for p in $(host_pids "$2"); do kill "-$1" "$p" 2>/dev/null; done
	return 0
}

host_gone() {
	test -z "$(host_pids "$1")"
}

# killed HOST: SIGKILL to every process of HOST, again until none is left
# (a shell listed a moment before may have forked its sleep since).
killed() {
	signal_host KILL "$1"
	host_gone "$1"
}

# recovered_by HOST: one pass of HOST has ended the stopped host's run.
recovered_by() {
	TASK_NOW=2026-11-23T07:00:30Z on_host "$1" task-tick >>recovery 2>&1
	running 0
}

running() {
	test "$(count "SELECT count(*) FROM runs WHERE status = 'running'")" -eq "$1"
}

test_expect_success 'SIGKILL every process of one host mid-run: another host recovers its runs' '
	TASK_DB=$(pg_new_db) && rm -f started execs &&
	import 4 "$PWD/slow" &&
	TASK_NOW=2026-11-23T07:00:01Z start_host a task-tick -j 4 &&
	test_until 30 running 4 &&
	test_until 10 killed a &&
	start=$(date +%s) &&
	TASK_NOW=2026-11-23T07:00:02Z test_start_ready wout werr env TASK_HOST_ID=b task-tick --watch &&
	test_until 30 running 0 &&
	took=$(($(date +%s) - start)) &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	echo "recovered after $took s" &&
	count "SELECT status, attempt, count(*) FROM runs GROUP BY status, attempt" >actual &&
	echo "interrupted|1|4" >expect && test_cmp expect actual &&
	count "SELECT count(*) FROM runs WHERE error LIKE '\''%stopped showing signs of life%'\''" >n &&
	echo 4 >expect && test_cmp expect n &&
	count "SELECT status, consecutive_failures, count(*) FROM tasks GROUP BY 1, 2" >actual &&
	echo "pending|1|4" >expect && test_cmp expect actual &&
	touch fast &&
	TASK_NOW=2026-11-23T08:00:00Z on_host c task-tick >retry &&
	count "SELECT status, attempt, count(*) FROM runs GROUP BY 1, 2 ORDER BY 1" >actual &&
	printf "interrupted|1|4\nsuccess|2|4\n" >expect && test_cmp expect actual &&
	test "$(wc -l <execs)" -eq 4 && rm fast
'

# The executor is stopped with its host: its sleep ends at the SIGCONT if
# the stop outlasted it (a recovery pass on a busy machine may come 15 s
# after), so it sleeps longer than any stop here.
test_expect_success 'SIGSTOP a host past its silence bound, then SIGCONT: the recovery stands, its run is ended' '
	TASK_DB=$(pg_new_db) && rm -f started execs &&
	import 1 "$PWD/slow" &&
	SLOW=40 TASK_NOW=2026-11-23T07:00:01Z start_host a task-tick &&
	test_until 30 running 1 &&
	signal_host STOP a &&
	test_until 30 recovered_by b &&
	signal_host CONT a &&
	test_until 30 host_gone a &&
	count "SELECT status, attempt FROM runs" >actual &&
	echo "interrupted|1" >expect && test_cmp expect actual &&
	count "SELECT note LIKE '\''late result, after the run had been recovered: interrupted %'\''
		AND note LIKE '\''%before others could recover it%'\'' FROM runs" >actual &&
	echo t >expect && test_cmp expect actual &&
	test ! -e execs &&
	count "SELECT count(*) FROM runs GROUP BY task_id, slot, arming HAVING count(*) > 1" >twice &&
	test ! -s twice
'
# A stopped host left by a failed test would hold the next ones up.
signal_host KILL a

# frozen_in_transaction: a session of the stopped host waits inside a
# transaction it has not committed: its second, the claim of the due tasks
# (the first looks at running ones).  Its task-tick is not the first
# process of its namespace, which would ignore the SIGSTOP it raises.
frozen_in_transaction() {
	test "$(count "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
		AND state = 'idle in transaction'")" -ge 1
}

test_expect_success 'a host stopped inside its claim holds nothing: the server ends its session, another host runs the tasks once' '
	TASK_DB=$(pg_new_db) && rm -f started execs && touch fast &&
	import 2 "$PWD/slow" &&
	LD_PRELOAD=$AC_BUILD/tools/crash.so CRASH_AT=2 CRASH_WHEN=before CRASH_SIGNAL=STOP \
		ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 \
		TASK_NOW=2026-11-23T07:00:01Z start_host a sh -c "task-tick; exit \$?" &&
	test_until 30 frozen_in_transaction &&
	count "SELECT count(*) FROM runs" >n && echo 0 >expect && test_cmp expect n &&
	TASK_NOW=2026-11-23T07:00:02Z test_start_ready wout werr env TASK_HOST_ID=b task-tick --watch &&
	test_until 30 sh -c "test \$(cat execs 2>/dev/null | wc -l) -ge 2" &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	signal_host CONT a &&
	test_until 30 host_gone a &&
	grep -q "idle-in-transaction timeout" host.a.err &&
	sort execs | uniq -d >twice && test ! -s twice &&
	count "SELECT status, count(*) FROM runs GROUP BY 1" >actual &&
	echo "success|2" >expect && test_cmp expect actual &&
	rm fast
'
signal_host KILL a

test_expect_success 'a watcher on one host wakes when another host adds or queues a task' '
	TASK_DB=$(pg_new_db) &&
	test_start_ready wout werr env TASK_HOST_ID=a task-tick --watch &&
	# Far enough ahead that the add comes before the instant on a busy
	# machine: the watcher must start it at the instant, woken by the add.
	at=$(date -u -d "@$(($(date +%s) + 5))" +%Y-%m-%dT%H:%M:%SZ) &&
	on_host b task-add --at "$at" --exec true --name soon x >/dev/null &&
	id=$(on_host c task-add --manual --exec true --name asked y) &&
	on_host c task-run --queue "$id" >/dev/null &&
	test_until 60 sh -c "test \$(wc -l <wout) -ge 2" &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	{ grep -q "\"name\":\"asked\",\"trigger\":\"manual\".*\"status\":\"success\"" wout &&
	  grep -q "\"name\":\"soon\",\"trigger\":\"schedule\",\"slot\":\"$at\",\"status\":\"success\",\"exit_code\":0,\"started_at\":\"$at\"" wout ||
	  { echo "due at $at; the watcher said:"; cat wout werr; false; }; }
'

test_done
