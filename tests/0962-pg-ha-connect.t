#!/bin/sh
# Following the primary, without a failover: a store named by a connection
# string (host=a,b ... target_session_attrs=read-write) or a URI with two
# hosts, whose first is a standby, reaches the primary and never prints a
# password; task-tick warns once a day when the primary's standbys are all
# asynchronous; task-status --check says UNKNOWN within its own time when
# the server stops answering after login.
. "$AC_TOP/tests/lib.sh"
A=$TEST_TMP/a B=$TEST_TMP/b
trap '"$AC_TOP/tests/pg-server" stop "$B"; "$AC_TOP/tests/pg-server" stop "$A"; test_cleanup_' EXIT
PG_PRIMARY=1 PG_DURABLE=1 "$AC_TOP/tests/pg-server" start "$A" >/dev/null &&
"$AC_TOP/tests/pg-server" standby "$B" "$A" || exit 1

on_a() {
	"$AC_PG_BIN/psql" -h "$A" -U postgres -d agentcron -X -q -A -t -v ON_ERROR_STOP=1 -c "$1"
}
streaming() {
	test "$(on_a "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" = 1
}

test_expect_success 'a connection string naming the standby first reaches the primary' '
	TASK_DB="host=$B,$A dbname=agentcron user=postgres target_session_attrs=read-write" &&
	id=$(task-add --manual --name cs "hello") &&
	task-ls >actual && test "$(cut -f2 actual)" = cs &&
	test "$(on_a "SELECT name FROM tasks")" = cs
'

test_expect_success 'a URI naming both, the standby first, reaches the primary too' '
	TASK_DB="postgresql:///agentcron?host=$B,$A&user=postgres&target_session_attrs=read-write" &&
	task-add --manual --name uri "again" >/dev/null &&
	test "$(on_a "SELECT count(*) FROM tasks")" = 2
'

test_expect_success 'a connection string'\''s password is never printed' '
	TASK_DB="host=$TEST_TMP/nowhere dbname=agentcron user=pwuser password='\''Zq9 wK7p'\'' connect_timeout=2" &&
	test_expect_code 1 task-ls 2>err &&
	test_one_line err && grep -q "cannot connect to the PostgreSQL store" err &&
	! grep -q "Zq9" err && ! grep -q "wK7p" err &&
	grep -q "host=$TEST_TMP/nowhere dbname=agentcron user=pwuser connect_timeout=2" err
'

test_expect_success 'task-tick warns once a day when no standby is synchronous' '
	TASK_DB="postgresql:///agentcron?host=$A,$B&user=postgres&target_session_attrs=read-write" &&
	test_until 30 streaming &&
	task-tick 2>err && grep -q "has 1 standby and none synchronous: a failover may lose what it acknowledged" err &&
	task-tick 2>err && ! grep -q standby err
'

test_expect_success 'and says nothing of it when one is' '
	rm -rf "$HOME/.local/state" "${XDG_STATE_HOME:-$HOME/.local/state}" &&
	"$AC_TOP/tests/pg-server" set "$A" "synchronous_standby_names = '\''b'\''" &&
	test_until 30 sh -c "test \"\$(\"$AC_PG_BIN/psql\" -h $A -U postgres -d agentcron -XAtc \"SELECT sync_state FROM pg_stat_replication\")\" = sync" &&
	task-tick 2>err && ! grep -q standby err
'

test_expect_success 'task-status --check: UNKNOWN within its time when the server stops answering after login' '
	mkdir px &&
	proxy=$("$AC_BUILD/tools/freeze-proxy" -t 120 "$PWD/px/.s.PGSQL.5432" "$A/.s.PGSQL.5432") &&
	echo "$proxy" >>"$TEST_TMP/.pids" &&
	{ "$AC_PG_BIN/psql" -h "$A" -U postgres -d agentcron -X -q -c "BEGIN" \
		-c "LOCK TABLE settings IN ACCESS EXCLUSIVE MODE" -c "SELECT pg_sleep(60)" >/dev/null 2>&1 & } &&
	locker=$! && echo "$locker" >>"$TEST_TMP/.pids" && test_when_finished "test_end \$locker" &&
	test_until 30 sh -c "test \"\$(\"$AC_PG_BIN/psql\" -h $A -U postgres -d agentcron -XAtc \"SELECT count(*) FROM pg_locks WHERE relation = '\''settings'\''::regclass AND granted\")\" -ge 1" &&
	start=$(ms) &&
	{ TASK_DB="postgresql:///agentcron?host=$PWD/px&user=postgres" timeout 60 task-status --check >out 2>err & } &&
	checker=$! && test_when_finished "test_end \$checker" &&
	test_until 30 sh -c "test \"\$(\"$AC_PG_BIN/psql\" -h $A -U postgres -d agentcron -XAtc \"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = '\''Lock'\''\")\" -ge 1" &&
	kill -USR1 "$proxy" &&
	on_a "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '\''SELECT pg_sleep%'\''" >/dev/null &&
	{ wait "$checker"; echo $? >rc; } &&
	took=$(($(ms) - start)) && echo "# UNKNOWN after $took ms" &&
	echo 3 >expect && test_cmp expect rc &&
	grep -q "^AGENTCRON UNKNOWN - " out &&
	test "$took" -lt 40000 &&
	kill -USR2 "$proxy"
'

test_done
