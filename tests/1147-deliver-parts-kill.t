#!/bin/sh
# A message in parts, its sender killed (-9) between them: the parts the
# receiver took are on record as each is taken, so the next pass sends
# only the rest, and a chat shows no part twice; a sender whose lease
# another pass took meanwhile sends no more parts.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\ncat "%s/answer"\n' "$PWD" >job && chmod +x job || exit 1
# 10,000 characters: three parts for ntfy (4,000 bytes a part).
$PY "$AC_TOP/tests/tools/deliver-check" long 10000 >answer || exit 1
requests() { test "$(cat rcv/requests 2>/dev/null | wc -l)" = "$1"; }

test_expect_success 'killed while part 2 of 3 is held: the next pass sends parts 2 and 3 alone' '
	fresh --deliver @push &&
	printf "ok\nhold\n" >rcv/plan &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >tick.out 2>tick.err & tp=$!; } &&
	test_until 30 requests 2 &&
	dp=$(ps -o pid= --ppid $tp | tr -d " ") && test -n "$dp" &&
	test "$(cat /proc/$dp/comm)" = task-deliver &&
	kill -9 "$dp" && wait $tp &&
	store_sql "SELECT status, attempts, parts_done FROM receipts" >actual &&
	echo "pending|1|1" >expect && test_cmp expect actual &&
	touch rcv/release &&
	TASK_NOW=2026-11-23T07:01:30Z task-deliver >/dev/null &&
	store_sql "SELECT status, attempts, parts_done, answer FROM receipts" >actual &&
	echo "delivered|2|3|3 parts; HTTP 200" >expect && test_cmp expect actual &&
	id=$(store_sql "SELECT id FROM receipts") &&
	check keys /topic >actual &&
	printf "%s\n" "$id.1" "$id.2" "$id.2" "$id.3" >expect && test_cmp expect actual &&
	$PY -c "
import json
for l in open(\"rcv/requests\"):
    print(json.loads(l)[\"body\"].split(\"\\n\")[0])
" >actual &&
	printf "%s\n" "[1/3]" "[2/3]" "[2/3]" "[3/3]" >expect && test_cmp expect actual
'

test_expect_success 'a lease taken over while part 2 is held: the first sender stops there' '
	fresh --deliver @push &&
	printf "ok\nhold\n" >rcv/plan && rm -f rcv/release &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >tick.out 2>tick.err & tp=$!; } &&
	test_until 30 requests 2 &&
	TASK_NOW=2026-11-23T07:01:30Z task-deliver >/dev/null &&
	touch rcv/release && wait $tp &&
	store_sql "SELECT status, attempts, parts_done, answer FROM receipts" >actual &&
	echo "delivered|2|3|3 parts; HTTP 200" >expect && test_cmp expect actual &&
	id=$(store_sql "SELECT id FROM receipts") &&
	check keys /topic >actual &&
	printf "%s\n" "$id.1" "$id.2" "$id.2" "$id.3" >expect && test_cmp expect actual &&
	echo "task-deliver: receipt ${id%${id#????????}}: its lease ran out before the attempt ended; another pass may try it again" >expect &&
	test_cmp expect tick.err
'

test_done
