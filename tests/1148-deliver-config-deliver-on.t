#!/bin/sh
# A bad deliver_on in the config is said as the config's, by name: the
# word alone ("bad notify event 'sucess'") left a reader to guess where
# it came from.  Nothing is sent and nothing changes while it is bad.
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

test_done
