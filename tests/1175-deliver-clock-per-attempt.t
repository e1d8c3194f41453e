#!/bin/sh
# A delivery pass reads the clock for each attempt, not once: a receipt
# sent late in a long pass carries the time it was sent (webhook-timestamp,
# which a Standard Webhooks verifier checks against its own clock) and is
# leased from then, not from the pass's start.
. "$AC_TOP/tests/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
$PY "$AC_TOP/tests/tools/slow-receiver" 1.2 2>rcv.err &
echo $! >>"$TEST_TMP/.pids"
test_until 30 test -s port || { cat rcv.err; exit 1; }
P=$(cat port)
printf '#!/bin/sh\necho fine\n' >job && chmod +x job || exit 1
test_config "deliver_timeout = 5"

test_expect_success 'four receipts in one pass of 5 s: each sent with the time it was sent' '
	id=$(task-add --manual --exec "$PWD/job" --name slow \
		--deliver webhook:http://127.0.0.1:$P/hook x) &&
	for i in 1 2 3 4; do task-run "$id" >/dev/null || return 1; done &&
	task-deliver >out 2>err && test ! -s err &&
	test "$(wc -l <out)" -eq 4 &&
	$PY -c "
import sys
for l in open(\"requests\"):
    rid, ts, came = l.split()
    late = float(came) - int(ts)
    print(rid, \"on time\" if -0.5 <= late < 1.5 else \"off by %.1f s\" % late)
" >actual &&
	store_sql "SELECT id FROM receipts ORDER BY created_at, id" >ids &&
	sed "s/$/ on time/" ids | sort >expect && sort actual >actual.s &&
	test_cmp expect actual.s
'

test_done
