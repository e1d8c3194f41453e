#!/bin/sh
# A run that reports blocked (a person is needed) is told as a failure:
# its --after TASK:failure and :any followers fire once, given its answer;
# its :success followers do not; it is not retried, on a schedule or not.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-23T06:00:00Z
export TASK_NOW

run_logger --input || exit 1
cat >blocked <<\EOT
#!/bin/sh
echo '{"status": "blocked", "summary": "needs a login to the bank"}' >"$TASK_OUTCOME_FILE"
echo "I could not log in"
EOT
chmod +x blocked

test_expect_success 'a blocked run by hand fires its failure and any followers' '
	task-add --manual --name up --exec "$PWD/blocked" u >/dev/null &&
	task-add --after up:failure --name alert --exec "$PWD/ex" a >/dev/null &&
	task-add --after up:any --name every --exec "$PWD/ex" e >/dev/null &&
	task-add --after up --name onsuccess --exec "$PWD/ex" s >/dev/null &&
	test_expect_code 1 task-run up >out 2>err &&
	task-tick >/dev/null 2>&1 &&
	sort log >actual &&
	cat >expect <<-\EOT &&
	alert after 2026-11-23T06:00:00Z <a||I could not log in|>
	every after 2026-11-23T06:00:00Z <e||I could not log in|>
	EOT
	test_cmp expect actual
'

test_expect_success 'a scheduled blocked run fires them once, and is not retried' '
	rm -f log &&
	task-add --cron "0 7 * * *" --name daily --exec "$PWD/blocked" d >/dev/null &&
	task-add --after daily:failure --name told --exec "$PWD/ex" t >/dev/null &&
	for at in 07:00 07:01 07:05 07:31 08:30; do
		TASK_NOW=2026-11-23T$at:00Z task-tick >/dev/null 2>>tick.err || return 1
	done &&
	echo "told after 2026-11-23T07:00:00Z <t||I could not log in|>" >expect &&
	test_cmp expect log &&
	task-log --task daily --limit 0 | cut -f5,7 >actual &&
	printf "schedule\tblocked\n" >expect && test_cmp expect actual
'

test_done
