#!/bin/sh
# A run's answer is delivered when the run ends, however long ago it
# started: a delivery pass looked only at runs started within a day of
# the last, which left a run of --timeout 3d without a receipt when
# other runs had ended while it ran.  A pass now keeps the ids of the
# runs in flight for longer, and reads them when they end.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
# The job waits for the file go; a run's times are TASK_NOW's, so its
# end is set to three days after its start once it is over.
printf '#!/bin/sh\ntouch started\nwhile [ ! -e go ]; do sleep 0.1; done\necho "after three days"\n' >job &&
chmod +x job || exit 1

test_expect_success 'a run of three days, in flight while other runs ended: delivered' '
	long=$(TASK_NOW=2026-11-20T06:00:00Z task-add --manual --timeout 3d --exec "$PWD/job" \
		--name long --deliver @hook x) &&
	other=$(TASK_NOW=2026-11-20T06:00:00Z task-add --manual --exec true --name other x) &&
	TASK_NOW=2026-11-20T06:01:00Z task-deliver >/dev/null 2>err && test ! -s err &&
	{ TASK_NOW=2026-11-20T06:02:00Z task-run "$long" >long.out 2>&1 & pid=$!; } &&
	test_until 30 test -e started &&
	TASK_NOW=2026-11-22T06:00:00Z task-run "$other" >/dev/null &&
	TASK_NOW=2026-11-22T06:01:00Z task-deliver >/dev/null 2>err && test ! -s err &&
	touch go && wait $pid && { grep -q "after three days" long.out || { cat long.out; false; }; } &&
	store_sql "UPDATE runs SET ended_at = started_at + 3 * 86400 WHERE task_id = '"'"'$long'"'"'" &&
	TASK_NOW=2026-11-23T06:03:00Z task-deliver >/dev/null 2>err && test ! -s err &&
	store_sql "SELECT r.status, r.answer FROM receipts r JOIN runs u ON u.id = r.run_id
		WHERE u.ended_at - u.started_at = 3 * 86400" >actual &&
	echo "delivered|HTTP 200" >expect && test_cmp expect actual &&
	check text webhook >actual && echo "after three days" >expect && test_cmp expect actual
'

test_expect_success 'a run that ended before the last pass looked is not delivered again' '
	TASK_NOW=2026-11-23T06:30:00Z task-deliver >/dev/null 2>err && test ! -s err &&
	store_sql "SELECT count(*) FROM receipts" >actual &&
	echo 1 >expect && test_cmp expect actual
'

test_done
