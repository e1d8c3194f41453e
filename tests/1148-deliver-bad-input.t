#!/bin/sh
# Bad input about delivery, refused and said.  A bad deliver_on in the
# config is said as the config's, by name: the word alone ("bad notify
# event 'sucess'") left a reader to guess where it came from; nothing is
# sent and nothing changes while it is bad.  A Telegram chat id is a
# number as Telegram makes them (no leading zero, 64 bits) or @ and a
# name: "telegram:@" or "telegram:0123" were taken, and every message to
# them refused by Telegram (the latter sent as JSON that is not JSON).
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho fine\n' >job && chmod +x job || exit 1

test_expect_success 'config deliver_on = sucess: task-deliver exits 1 naming deliver_on, receipts unmade' '
	fresh --deliver @hook &&
	cp config/agentcron/config config.good &&
	echo "deliver_on = sucess" >>config/agentcron/config &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>tick.err &&
	echo "task-deliver: config: deliver_on: bad notify event '"'"'sucess'"'"': expected a list of failure, recovery, change, success, always, never" >expect &&
	test_cmp expect tick.err &&
	TASK_NOW=2026-11-23T07:01:00Z test_expect_code 1 task-deliver >out 2>err &&
	test ! -s out && test_cmp expect err &&
	store_sql "SELECT count(*) FROM receipts" >actual && echo 0 >expect && test_cmp expect actual &&
	test ! -e rcv/requests &&
	cp config.good config/agentcron/config &&
	TASK_NOW=2026-11-23T07:02:00Z task-deliver >/dev/null &&
	store_sql "SELECT status FROM receipts" >actual && echo delivered >expect && test_cmp expect actual
'

test_expect_success 'telegram: chat ids that are none are refused, the stored tasks unchanged' '
	reset_store && task-ls --json >before &&
	for t in telegram:@ telegram:0123 telegram:-0 telegram:0 telegram:12345678901234567890 \
		telegram:-; do
		test_refused 2 task-add --manual --name "to $t" --deliver "$t" x &&
		echo "task-add: delivery target '"'"'$t'"'"' needs a chat id (a number, or @channel)" >expect &&
		test_cmp expect err || return 1
	done &&
	for t in telegram:@my_channel telegram:-1001234567890 telegram:42 telegram:9223372036854775807; do
		task-add --manual --name "to $t" --deliver "$t" x >/dev/null || return 1
	done &&
	task-ls --json | $PY -c "import json,sys; [print(json.loads(l)[\"deliver\"][0]) for l in sys.stdin]" |
		sort >actual &&
	printf "%s\n" telegram:-1001234567890 telegram:42 telegram:9223372036854775807 telegram:@my_channel >expect &&
	sort expect >e && test_cmp e actual
'

test_done
