#!/bin/sh
# llm-call's --deadline bounds the whole call: every attempt, every wait
# between attempts and every tool round.  --timeout is per attempt: alone,
# --timeout 5 through tool rounds ran 20 s.  In a run the default is the
# run's timeout (TASK_TIMEOUT) less a margin, so llm-call ends by itself,
# says why and is recorded, before task-tick would end it.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY

requests() { if [ -e fp/requests.log ]; then wc -l <fp/requests.log; else echo 0; fi; }

test_expect_success 'tool rounds of a second each, --timeout 5 --deadline 3: ended at the deadline' '
	n=$(requests) &&
	test_expect_code 1 llm-call --tools --timeout 5 --deadline 3 "[[loop]] [[slow=1000]] go" >out 2>err &&
	test_one_line err && test ! -s out &&
	grep -q "^llm-call: no answer within the deadline of 3 s (--deadline)" err &&
	test $(($(requests) - n)) -le 4
'

test_expect_success 'no attempt is started that the deadline leaves no time for' '
	n=$(requests) &&
	test_expect_code 1 llm-call --deadline 2 --retries 5 "[[503 ra=5]] busy" >out 2>err &&
	test_one_line err &&
	grep -q "(no time for another attempt)" err &&
	test $(($(requests) - n)) -eq 1
'

test_expect_success 'a bad --deadline is a usage error' '
	test_expect_code 2 llm-call --deadline soon hi 2>err && test_one_line err &&
	test_expect_code 2 llm-call --deadline 0 hi 2>err && test_one_line err
'

test_expect_success 'in a run of timeout 5: llm-call ends itself first, the run failed with why' '
	cfg=$XDG_CONFIG_HOME/agentcron && mkdir -p "$cfg" &&
	printf "openai_api_key = %s\nopenai_base_url = %s\n" "$KEY" "$OPENAI_BASE_URL" >"$cfg/config" &&
	chmod 600 "$cfg/config" &&
	n=$(requests) &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --timeout 5 \
		--exec "llm-call --tools --timeout 5" --name bounded "[[loop]] [[slow=1500]] go" >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >out 2>err &&
	grep -q "\"name\":\"bounded\".*\"status\":\"failed\",\"exit_code\":1" out &&
	grep -q "no answer within the deadline of 4 s (--deadline)" err &&
	test $(($(requests) - n)) -le 3
'

# A wrapper that starts llm-call 2 s into a run of timeout 5: counted from
# its own start, llm-call would go on until 6 s and be ended at 5 without
# saying why; counted from the run's start (TASK_DEADLINE) it ends at 4.
test_expect_success 'started late in a run: llm-call still ends itself before the run is ended' '
	cat >late <<-\EOF &&
	#!/bin/sh
	sleep 2
	exec llm-call --tools --timeout 5
	EOF
	chmod +x late &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T08:00:00Z --timeout 5 \
		--exec "$PWD/late" --name late "[[loop]] [[slow=700]] go" >/dev/null &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >out 2>err &&
	grep -q "\"name\":\"late\".*\"status\":\"failed\",\"exit_code\":1" out &&
	grep -q "no answer within the deadline of 4 s (--deadline)" err &&
	! grep -q "timed out" err
'

test_done
