#!/bin/sh
# Two delivery passes at once, the second started when the first has been
# sending for longer than a lease (10 x deliver_timeout + 60 s): no receipt
# is sent twice, and each carries the time it was sent.  A pass leased each
# receipt from its own start, so the second found those the first was
# still sending already free.  The clock runs 30 times as fast (the preload
# clock-offset.so) for the programs and the receiver alike, so a pass of
# minutes takes seconds.  On SQLite only: a PostgreSQL store's clock is
# the server's, which the preload does not move.
. "$AC_TOP/tests/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
SPEED=30
printf '#!/bin/sh\necho fine\n' >job && chmod +x job || exit 1
test_config "deliver_timeout = 1"
# fast CMD...: CMD on the fast clock.
fast() {
	CLOCK_BASE=$BASE CLOCK_SPEED=$SPEED LD_PRELOAD=$AC_BUILD/tools/clock-offset.so \
		ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 "$@"
}
BASE=$(date +%s)
CLOCK_BASE=$BASE CLOCK_SPEED=$SPEED LD_PRELOAD=$AC_BUILD/tools/clock-offset.so $PY "$AC_TOP/tests/tools/slow-receiver" 0.6 2>rcv.err &
echo $! >>"$TEST_TMP/.pids"
test_until 30 test -s port || { cat rcv.err; exit 1; }
P=$(cat port)

test_expect_success 'a second pass after 75 s of a 180 s first: each receipt sent once, on time' '
	id=$(task-add --manual --exec "$PWD/job" --name slow \
		--deliver webhook:http://127.0.0.1:$P/hook x) &&
	for i in 1 2 3 4 5 6 7 8 9 10; do task-run "$id" >/dev/null || return 1; done &&
	{ fast task-deliver >out.a 2>err.a & a=$!; } &&
	sleep 2.5 && fast task-deliver >out.b 2>err.b && wait $a &&
	cat err.a err.b >err && { test ! -s err || { cat err; false; }; } &&
	test "$(cat out.a out.b | wc -l)" -eq 10 &&
	$PY -c "
import sys
for l in open(\"requests\"):
    rid, ts, came = l.split()
    late = float(came) - int(ts)
    print(rid, \"on time\" if -1 <= late < $SPEED else \"off by %.0f s\" % late)
" | sort >actual &&
	store_sql "SELECT id FROM receipts WHERE status = '"'"'delivered'"'"' AND attempts = 1" |
		sed "s/$/ on time/" | sort >expect &&
	test "$(wc -l <expect)" -eq 10 && test_cmp expect actual
'

test_done
