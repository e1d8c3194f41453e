#!/bin/sh
# A pass without --watch claims during its first minute (the config's
# pass_claim_time, here 1 s) and then only waits for its runs: work that
# falls due or is queued later waits for the next pass, so once cron stops
# starting passes nothing new starts.
. "$AC_TOP/tests/lib.sh"
mkdir -p config/agentcron && echo "pass_claim_time = 1" >config/agentcron/config &&
	chmod 600 config/agentcron/config || exit 1

cat >wait-for <<\EOF
#!/bin/sh
# wait-for NAME: say NAME started, then end once the file NAME.go exists.
echo "$1" >>"$(dirname "$0")/started"
i=0; while [ $i -lt 600 ] && [ ! -e "$(dirname "$0")/$1.go" ]; do sleep 0.1; i=$((i + 1)); done
EOF
chmod +x wait-for

test_expect_success 'after its first minute a pass claims nothing new; the next pass does' '
	TASK_NOW=2026-11-23T06:59:30Z task-add --cron "0 * * * *" --name long \
		--exec "$PWD/wait-for long" p >/dev/null &&
	TASK_NOW=2026-11-23T06:59:30Z task-add --cron "0 * * * *" --name short \
		--exec "$PWD/wait-for short" p >/dev/null &&
	TASK_NOW=2026-11-23T06:59:30Z task-add --manual --name later --exec "$PWD/wait-for later" \
		p >/dev/null &&
	touch later.go &&
	{ TASK_NOW=2026-11-23T07:00:05Z task-tick >pass.log 2>pass.err & pid=$!; } &&
	test_until 30 lines started 2 &&
	sleep 2 &&
	TASK_NOW=2026-11-23T07:00:10Z task-run --queue later 2>queue.err &&
	touch short.go &&
	test_until 30 lines pass.log 1 &&
	touch long.go &&
	wait $pid &&
	sort started >actual && printf "long\nshort\n" >expect && test_cmp expect actual &&
	grep -c "\"status\":\"success\"" pass.log >n && echo 2 >expect && test_cmp expect n &&
	test ! -s pass.err &&
	TASK_NOW=2026-11-23T07:01:05Z task-tick >next.log 2>next.err &&
	grep -q "\"name\":\"later\",\"trigger\":\"manual\",.*\"status\":\"success\"" next.log &&
	tail -n 1 started >actual && echo later >expect && test_cmp expect actual
'

test_expect_success 'a bad pass_claim_time is refused, nothing run' '
	echo "pass_claim_time = 0" >config/agentcron/config &&
	TASK_NOW=2026-11-23T07:02:05Z task-run --queue later 2>/dev/null &&
	test_expect_code 2 env TASK_NOW=2026-11-23T07:02:05Z task-tick >out 2>err &&
	echo "task-tick: config: bad pass_claim_time '\''0'\'': expected a number of seconds from 1 to 3600" >expect &&
	test_cmp expect err && test ! -s out &&
	task-log --limit 0 --task later | wc -l | tr -d " " >n && echo 1 >expect && test_cmp expect n
'

test_done
