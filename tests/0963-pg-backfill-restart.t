#!/bin/sh
# task-run --backfill across a restart of its database: the first
# occurrence's executor stops the server (the test starts it 3 s later), so
# its result meets a server that is away; the backfill waits for it, as
# task-tick does, and goes on: every occurrence once, in order, all
# recorded.  Its own server (tests/pg-server).
. "$AC_TOP/tests/lib.sh"
pg_own_server || exit 1

cat >job <<EOF
#!/bin/sh
echo "\$TASK_SLOT" >>"$PWD/seen"
if [ ! -f "$PWD/restarted" ]; then
	touch "$PWD/restarted"
	"$AC_TOP/tests/pg-server" stop "$PGSRV"
fi
echo ok
EOF
chmod +x job || exit 1

test_expect_success 'a backfill waits for its restarting database and goes on' '
	TASK_NOW=2026-11-23T00:00:00Z task-add --cron "0 * * * *" --missed skip --name hourly \
		--exec "$PWD/job" p >id &&
	{ TASK_NOW=2026-11-23T03:30:00Z task-run --backfill "2026-11-23T01:00Z..2026-11-23T03:00Z" \
		"$(cat id)" >out 2>err & } &&
	run=$! && echo "$run" >>"$TEST_TMP/.pids" &&
	test_until 60 test -f restarted && sleep 3 &&
	"$AC_TOP/tests/pg-server" resume "$PGSRV" &&
	{ wait "$run" || { echo "task-run exited $?; it said:"; cat err; false; }; } &&
	printf "2026-11-23T01:00:00Z\n2026-11-23T02:00:00Z\n2026-11-23T03:00:00Z\n" >expect &&
	test_cmp expect seen &&
	task-log --limit 0 | cut -f5-7 | sort -k2 >actual &&
	printf "backfill\t2026-11-23T01:00:00Z\tsuccess\nbackfill\t2026-11-23T02:00:00Z\tsuccess\nbackfill\t2026-11-23T03:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual
'

test_done
