#!/bin/sh
# task-deliver attempts each target's receipts in a process of its own
# (--jobs at once), in order within a target: a receiver that holds its
# answer (until the test releases it) holds back only its own receipts.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "answer of $TASK_NAME"\n' >job && chmod +x job || exit 1
sed -i "s/^deliver_timeout = .*/deliver_timeout = 200/" config/agentcron/config || exit 1
receipt() { store_sql "SELECT t.name, r.status, r.attempts FROM receipts r JOIN tasks t ON t.id = r.task_id ORDER BY t.name"; }
T0=1795417200 # 2026-11-23T07:00:00Z

test_expect_success 'a held receiver does not hold back the receipts of another target' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --deliver @hook --name a x >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --deliver @chat --name b x >/dev/null &&
	printf "/hook 429 10\n/services 500\n" >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT t.name, r.status, r.next_at FROM receipts r JOIN tasks t ON t.id = r.task_id ORDER BY t.name" >actual &&
	printf "a|pending|%s\nb|pending|%s\n" $((T0 + 10)) $((T0 + 30)) >expect && test_cmp expect actual &&
	echo "/hook hold 150" >rcv/plan &&
	{ TASK_NOW=2026-11-23T07:00:30Z task-deliver >deliver.out 2>deliver.err & dp=$!; echo $dp >deliver.pid; } &&
	printf "a|pending|2\nb|delivered|2\n" >expect &&
	{ test_until 60 eval "receipt >actual && cmp -s expect actual" || :; } && test_cmp expect actual &&
	touch rcv/release && wait $dp && test ! -s deliver.err &&
	receipt >actual && printf "a|delivered|2\nb|delivered|2\n" >expect && test_cmp expect actual &&
	$PY -c "import json; print(*sorted(json.loads(l)[\"status\"] for l in open(\"deliver.out\")))" >actual &&
	echo "delivered delivered" >expect && test_cmp expect actual
'
# Whatever became of the first check, its task-deliver must not outlive it:
# a later reset_store would pull the store from under it.
touch rcv/release
test ! -s deliver.pid || test_until 240 eval '! kill -0 "$(cat deliver.pid)" 2>/dev/null'
rm -f rcv/release

test_expect_success 'one target: its receipts go in the order its runs ended' '
	reset_store && rm -f rcv/requests rcv/plan rcv/release &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --deliver @push --name first x >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:01 --exec "$PWD/job" --deliver @push --name second x >/dev/null &&
	echo "/topic 500" >rcv/plan && tick 2026-11-23T07:00:00Z &&
	printf "/topic 500\n/topic 500\n" >rcv/plan && tick 2026-11-23T07:01:00Z &&
	store_sql "SELECT t.name, r.attempts, r.next_at FROM receipts r JOIN tasks t ON t.id = r.task_id ORDER BY t.name" >actual &&
	printf "first|2|%s\nsecond|1|%s\n" $((T0 + 60 + 120)) $((T0 + 60 + 30)) >expect && test_cmp expect actual &&
	rm -f rcv/requests && TASK_NOW=2026-11-23T08:00:00Z task-deliver --jobs 8 >/dev/null &&
	$PY -c "import json; print(*[json.loads(l)[\"body\"].strip() for l in open(\"rcv/requests\")])" >actual &&
	echo "answer of first answer of second" >expect && test_cmp expect actual
'

test_expect_success 'runs that ended before one pass: their receipts go in the order the runs ended' '
	reset_store && rm -f rcv/requests rcv/plan rcv/release &&
	printf "#!/bin/sh\necho \"run at \$TASK_SLOT\"\n" >stamp && chmod +x stamp &&
	task-add --manual --exec "$PWD/stamp" --deliver @hook --name m x >/dev/null &&
	for i in 0 1 2 3 4 5 6 7; do
		TASK_NOW=2026-11-23T07:0$i:00Z task-run m >/dev/null || return 1
	done &&
	TASK_NOW=2026-11-23T07:30:00Z task-deliver >/dev/null &&
	$PY -c "import json; print(*[json.loads(json.loads(l)[\"body\"])[\"data\"][\"started_at\"] for l in open(\"rcv/requests\")])" >actual &&
	for i in 0 1 2 3 4 5 6 7; do printf "2026-11-23T07:0%s:00Z\n" $i; done | paste -s -d " " >expect &&
	test_cmp expect actual
'

test_expect_success '--jobs wants 1 to 64; --ids takes receipt ids only' '
	test_expect_code 2 task-deliver --jobs 0 2>err && test_one_line err &&
	echo "task-deliver: bad --jobs '\''0'\'': expected a number from 1 to 64" >expect && test_cmp expect err &&
	echo "not-an-id" | test_expect_code 2 task-deliver --ids 2>err && test_one_line err &&
	grep "^task-deliver: --ids: .not-an-id. is no receipt id$" err
'

test_done
