#!/bin/sh
# What a receiver said, as a version before the control-character fix
# kept it (escape sequences, a bell, a C1 CSI, a tab), is shown by
# task-log --deliveries and task-show as task-deliver keeps it now: control characters as '?' or a blank, in text and JSON
# alike, on a terminal or not; the store keeps what it holds.
. "$AC_TOP/tests/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
export TASK_NOW=2026-11-23T08:00:00Z
printf '#!/bin/sh\necho fine\n' >job && chmod +x job || exit 1
test_config "deliver_timeout = 2"
esc=$(printf '\033') bel=$(printf '\007') csi=$(printf '\302\233')
raw_ok="ok ${esc}]0;pwned${bel} ${csi}2J$(printf '\t')done"
raw_err="HTTP 500: ${esc}[31mno${esc}[0m"

test_expect_success 'setup: two receipts whose replies an older version kept raw' '
	id=$(task-add --manual --exec "$PWD/job" --name old \
		--deliver webhook:http://127.0.0.1:1/a --deliver slack:http://127.0.0.1:1/b x) &&
	echo "$id" >id &&
	task-run "$id" >/dev/null && task-deliver >/dev/null &&
	store_sql "UPDATE receipts SET status = '"'"'delivered'"'"', next_at = NULL,
		answer = '"'"'$raw_ok'"'"', error = NULL WHERE kind = '"'"'webhook'"'"'" &&
	store_sql "UPDATE receipts SET status = '"'"'failed'"'"', next_at = NULL,
		error = '"'"'$raw_err'"'"' WHERE kind = '"'"'slack'"'"'" &&
	store_sql "SELECT count(*) FROM receipts WHERE answer = '"'"'$raw_ok'"'"' OR error = '"'"'$raw_err'"'"'" >actual &&
	echo 2 >expect && test_cmp expect actual
'

test_expect_success 'task-log --deliveries: shown as kept now' '
	task-log --deliveries | cut -f2,3,6 | sort >actual &&
	printf "delivered\twebhook\tok ?]0;pwned? ?2J done\nfailed\tslack\tHTTP 500: ?[31mno?[0m\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-log --deliveries --json: the same text, no control character' '
	task-log --deliveries --json >json &&
	$PY -c "
import json, sys
for l in open(sys.argv[1], \"rb\"):
    r = json.loads(l.decode(\"utf-8\"))
    print(r[\"kind\"], r[\"answer\"], r[\"error\"], sep=\"|\")
" json | sort >actual &&
	printf "slack|None|HTTP 500: ?[31mno?[0m\nwebhook|ok ?]0;pwned? ?2J done|None\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-show: the deliveries as kept now' '
	task-show "$(cat id)" | sed -n "/^deliveries:/,\$p" | sort >actual &&
	{
		echo "  2026-11-23T08:00:00Z  delivered webhook:http://127.0.0.1:1/*** (1 attempt): ok ?]0;pwned? ?2J done" &&
		echo "  2026-11-23T08:00:00Z  failed slack:http://127.0.0.1:1/*** (1 attempt): HTTP 500: ?[31mno?[0m" &&
		echo "deliveries:"
	} | sort >expect &&
	test_cmp expect actual
'

test_expect_success 'on a terminal too, and the store keeps what it held' '
	script -qec "task-log --deliveries; task-show $(cat id)" /dev/null >tty &&
	! grep -q "$esc" tty && ! grep -q "$bel" tty && ! grep -q "$csi" tty &&
	test "$(grep -c "ok ?\]0;pwned? ?2J done" tty)" -eq 2 &&
	store_sql "SELECT count(*) FROM receipts WHERE answer = '"'"'$raw_ok'"'"' OR error = '"'"'$raw_err'"'"'" >actual &&
	echo 2 >expect && test_cmp expect actual
'

test_done
