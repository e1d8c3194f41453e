#!/bin/sh
# PostgreSQL faults: a server restarted in the middle of a pass or under a
# watcher, and one host's connections dropped, lose no run and fire nothing
# twice.  This file restarts its own server (tests/pg-server), not the
# suite's.
. "$AC_TOP/tests/lib.sh"

# At the end the server stops, then lib.sh's cleanup ends what the tests
# left running in the background (.pids) and removes the scratch directory.
pg_own_server || exit 1

# job: a run that says it started, then ends only once the file $DIR/go is
# there (a barrier the check lifts when the server is where it wants it;
# at most 300 s, so that a failed check leaves no run waiting forever).
cat >job <<\EOF
#!/bin/sh
echo "$TASK_ID" >>"$DIR/started"
n=6000
while [ ! -e "$DIR/go" ] && [ "$n" -gt 0 ]; do sleep 0.05; n=$((n - 1)); done
echo "$TASK_ID" >>"$DIR/execs"
echo ok
EOF
chmod +x job || exit 1

# server_back: the server up again whatever a check left it as (stopped,
# its socket held by refuse), for the checks after it.
server_back() {
	if [ -n "${refuse:-}" ]; then
		kill "$refuse" 2>/dev/null
		wait "$refuse" 2>/dev/null
		refuse=
		rm -f "$PGSRV/.s.PGSQL.5432"
	fi
	test -f "$PGSRV/data/postmaster.pid" || "$AC_TOP/tests/pg-server" resume "$PGSRV"
}

# tick_gone: the pass started in the background (pid in tick) ended, for a
# check that failed before it waited for it: the runs it held would come
# through the next checks' counts.
tick_gone() {
	touch go
	test_end "$tick"
}

# refuse SOCKET LOG: a server that is down but whose socket is there:
# each connection is accepted, counted (a line appended to LOG) and closed
# unanswered, which libpq reports as a server gone ("server closed the
# connection unexpectedly").  Says "ready" on standard output once it
# listens, and runs until killed.
cat >refuse <<\EOF
use strict;
use IO::Socket::UNIX;
my ($path, $log) = @ARGV;
my $s = IO::Socket::UNIX->new(Local => $path, Listen => 64) or die "refuse: $path: $!\n";
$| = 1;
print "ready\n";
close STDOUT;
while (my $c = $s->accept) {
	open my $f, ">>", $log or die "refuse: $log: $!\n";
	print $f "connection\n";
	close $f;
	close $c;
}
die "refuse: accept: $!\n";
EOF
DIR=$PWD
export DIR

test_expect_success 'a restart in the middle of a pass: every run recorded once, nothing twice' '
	rm -f go &&
	for i in 1 2 3 4 5 6; do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --force --exec "$PWD/job" p$i >/dev/null || return 1
	done &&
	{ TASK_NOW=2026-11-23T07:00:01Z task-tick -j 6 >out 2>err & } &&
	tick=$! && echo "$tick" >>"$TEST_TMP/.pids" &&
	test_when_finished tick_gone &&
	test_when_finished server_back &&
	test_until 60 lines started 6 &&
	"$AC_TOP/tests/pg-server" restart "$PGSRV" &&
	touch go &&
	{ wait $tick || { echo "task-tick exited $?; it said:"; cat err; false; }; } &&
	wc -l <execs | tr -d " " >n && echo 6 >expect && test_cmp expect n &&
	grep -c "\"status\":\"success\"" out >n && test_cmp expect n &&
	own_sql "SELECT status, count(*) FROM runs GROUP BY status" >actual &&
	echo "success|6" >expect && test_cmp expect actual &&
	own_sql "SELECT status, count(*) FROM tasks GROUP BY status" >actual &&
	echo "completed|6" >expect && test_cmp expect actual
'

test_expect_success 'a server down when the runs end: the pass waits for it, records each run once, exits 0' '
	rm -f started execs go &&
	for i in 1 2 3; do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T08:00:00Z --force --exec "$PWD/job" q$i >/dev/null || return 1
	done &&
	{ TASK_NOW=2026-11-23T08:00:01Z task-tick -j 3 >out 2>err & } &&
	tick=$! && echo "$tick" >>"$TEST_TMP/.pids" &&
	test_when_finished tick_gone &&
	test_when_finished server_back &&
	test_until 60 lines started 3 &&
	"$AC_TOP/tests/pg-server" stop "$PGSRV" &&
	# refuse, on the socket of the stopped server (default port), counts
	# the tries to reach it; the runs end only once it listens, so the
	# pass meets the store down after they ended.
	rm -f listening refused && mkfifo listening &&
	{ perl "$PWD/refuse" "$PGSRV/.s.PGSQL.5432" "$PWD/refused" >listening & } &&
	refuse=$! &&
	echo "$refuse" >>"$TEST_TMP/.pids" &&
	{ read -r said <listening && test "$said" = ready ||
		{ echo "refuse did not listen on the stopped server'\''s socket"; false; }; } &&
	touch go &&
	test_until 60 lines execs 3 &&
	# The first try to record comes as the runs end (then 250 ms apart,
	# doubling).
	test_until 60 lines refused 1 &&
	server_back &&
	{ wait $tick || { echo "task-tick exited $?; it said:"; cat err; false; }; } &&
	test_cmp /dev/null err &&
	grep -c "\"status\":\"success\"" out >n && echo 3 >expect && test_cmp expect n &&
	own_sql "SELECT status, count(*) FROM runs WHERE task_id IN (SELECT id FROM tasks WHERE name LIKE '\''q%'\'') GROUP BY status" >actual &&
	echo "success|3" >expect && test_cmp expect actual &&
	own_sql "SELECT status, count(*) FROM tasks WHERE name LIKE '\''q%'\'' GROUP BY status" >actual &&
	echo "completed|3" >expect && test_cmp expect actual
'

test_expect_success 'a watcher rides out a restart and fires what is added after it' '
	rm -f started execs &&
	test_start_ready wout werr task-tick --watch &&
	test_when_finished "test_end \$test_ready_pid" &&
	test_when_finished server_back &&
	"$AC_TOP/tests/pg-server" restart "$PGSRV" &&
	at=$(date -u -d "@$(($(date +%s) + 2))" +%Y-%m-%dT%H:%M:%SZ) &&
	task-add --at "$at" --exec "$PWD/job" after-restart >/dev/null &&
	test_until 30 lines wout 1 &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	grep -q "\"name\":\"after-restart\",\"trigger\":\"schedule\",\"slot\":\"$at\",\"status\":\"success\"" wout &&
	test "$(wc -l <execs)" -eq 1 &&
	# The watcher met the store down (the restart ended its connection)
	# and said so, and as often that it is back.
	{ grep -c "firing nothing until it is back" werr >down || true; } &&
	{ grep -c "'\'' is back$" werr >back || true; } &&
	test "$(cat down)" -ge 1 && test_cmp down back
'

test_expect_success 'one host'\''s connections dropped (pg_terminate_backend): its watcher reconnects' '
	rm -f started execs &&
	PGAPPNAME=host-a test_start_ready wout werr task-tick --watch &&
	test_when_finished "test_end \$test_ready_pid" &&
	own_sql "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\''host-a'\''" >n &&
	echo 1 >expect && test_cmp expect n &&
	at=$(date -u -d "@$(($(date +%s) + 2))" +%Y-%m-%dT%H:%M:%SZ) &&
	task-add --at "$at" --exec "$PWD/job" after-drop >/dev/null &&
	test_until 30 lines wout 1 &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	grep -q "\"name\":\"after-drop\",\"trigger\":\"schedule\",\"slot\":\"$at\",\"status\":\"success\"" wout
'

test_expect_success 'a server that is down: one line naming it, exit 1, no hang' '
	"$AC_TOP/tests/pg-server" stop "$PGSRV" &&
	test_expect_code 1 timeout 60 task-ls 2>err &&
	test_one_line err &&
	grep -q "^task-ls: cannot connect to the PostgreSQL store '\''postgresql:///agentcron?host=$PGSRV&user=postgres'\'': " err
'

test_done
