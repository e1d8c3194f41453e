#!/bin/sh
# A crash of a durable PostgreSQL server (fsync and synchronous_commit on,
# as agentcron(7) requires) with runs in flight: no occurrence runs twice,
# and nothing the server acknowledged is lost (a removed task stays
# removed, an added one stays).  This file runs its own durable server
# (PG_DURABLE=1 tests/pg-server) and crashes it (restart -m immediate).
. "$AC_TOP/tests/lib.sh"

pg_own_server durable || exit 1

# A job runs until the file "go" exists (the server has crashed), else
# SLOW seconds: its end comes after the crash however busy the machine.
cat >job <<\EOF
#!/bin/sh
echo "$TASK_ID $TASK_SLOT" >>"$DIR/started"
if [ -n "${GO:-}" ]; then
	while [ ! -e "$DIR/go" ]; do sleep 0.05; done
else
	sleep "${SLOW:-2}"
fi
echo "$TASK_ID $TASK_SLOT" >>"$DIR/execs"
EOF
chmod +x job || exit 1
DIR=$PWD
export DIR

test_expect_success 'the server is durable: fsync and synchronous_commit on; task-tick says nothing' '
	own_sql "SELECT setting FROM pg_settings WHERE name IN ('\''fsync'\'', '\''synchronous_commit'\'') ORDER BY name" >actual &&
	printf "on\non\n" >expect && test_cmp expect actual &&
	task-tick >out 2>err && test ! -s err
'

test_expect_success 'a crash with 8 runs in flight and writes just acknowledged: each run once, none lost' '
	for i in 1 2 3 4 5 6 7 8; do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --force --exec "$PWD/job" p$i >/dev/null || return 1
	done &&
	gone=$(TASK_NOW=2026-11-23T06:00:00Z task-add --manual --name gone x) &&
	{ GO=1 TASK_NOW=2026-11-23T07:00:01Z task-tick -j 8 >out 2>err & } &&
	tick=$! && echo "$tick" >>"$TEST_TMP/.pids" && test_when_finished "test_end \$tick" &&
	test_until 30 lines started 8 &&
	task-rm "$gone" 2>/dev/null &&
	kept=$(TASK_NOW=2026-11-23T06:00:00Z task-add --manual --name kept y) &&
	"$AC_TOP/tests/pg-server" crash "$PGSRV" &&
	touch go &&
	{ wait $tick || { echo "task-tick exited $?; it said:"; cat err; false; }; } &&
	sort execs | uniq -c | awk "{print \$1}" | sort | uniq -c | tr -s " " >actual &&
	echo " 8 1" >expect && test_cmp expect actual &&
	own_sql "SELECT status, count(*) FROM runs GROUP BY status" >actual &&
	echo "success|8" >expect && test_cmp expect actual &&
	task-ls --json >all && ! grep -q "\"id\":\"$gone\"" all && grep -q "\"id\":\"$kept\"" all &&
	task-ls --trash --json | grep -q "\"id\":\"$gone\""
'

test_expect_success 'an every-minute task through three crashes: each minute once' '
	rm -f started execs &&
	TASK_NOW=2026-11-23T07:59:30Z task-add --cron "* * * * *" --exec "$PWD/job" minutely >/dev/null &&
	for m in 00 01 02; do
		SLOW=3 TASK_NOW=2026-11-23T08:$m:05Z task-tick >>out 2>>err &
		tick=$! && test_when_finished "test_end $tick" &&
		test_until 30 lines started $((${m#0} + 1)) &&
		"$AC_TOP/tests/pg-server" crash "$PGSRV" &&
		# A pass that meets the crash between statements may end with
		# exit 1, saying it lost the server; the next pass goes on.
		{ wait $tick || { test $? -eq 1 && tail -n 1 err | grep -q "lost the connection to the server"; } ||
			{ echo "task-tick failed:"; cat err; return 1; }; } || return 1
	done &&
	SLOW=0 TASK_NOW=2026-11-23T08:02:30Z task-tick >>out 2>>err &&
	awk "{print \$2}" execs >actual &&
	printf "%s\n" 2026-11-23T08:00:00Z 2026-11-23T08:01:00Z 2026-11-23T08:02:00Z >expect &&
	test_cmp expect actual &&
	own_sql "SELECT count(*) FROM runs r JOIN tasks t ON t.id = r.task_id WHERE t.name = '\''minutely'\''" >n &&
	echo 3 >expect && test_cmp expect n
'

test_done
