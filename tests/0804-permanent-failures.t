#!/bin/sh
# "Retrying will not help": llm-call exits 78 for a missing key, a config
# it cannot use, and a provider that refuses the request as it stands
# (400, 401, 403, 404, 413, 422); task-tick fails such a one-shot after
# that one run, where any other failure is retried with backoff.  Time
# moves with TASK_NOW; the provider is the local fake one.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-permanent-0123456789
port=$(provider_start fp "$KEY" 60 300) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1
export OPENAI_BASE_URL

# state ID: status, next run, last status and failures.
state() {
	task-show --json "$1" |
		sed "s/.*\"status\":\"\([a-z]*\)\".*\"next_run_at\":\([^,]*\),.*\"last_status\":\"\([a-z]*\)\".*\"consecutive_failures\":\([0-9]*\).*/\1 \2 \3 \4/"
}

# ticks: a pass at the run, then at every instant a retry could have had.
ticks() {
	for t in 07:00:10 07:01:10 07:03:10 07:07:10 08:00:00; do
		TASK_NOW=2026-11-23T${t}Z task-tick >>tick.out 2>>tick.err || return 1
	done
}

# Only the provider's own service surely needs a key: these go there, and
# stop before any request for want of one.
test_expect_success 'llm-call without a key exits 78 with the one line' '
	(OPENAI_BASE_URL= && test_expect_code 78 llm-call hi >out 2>err) &&
	echo "llm-call: no API key for openai: set OPENAI_API_KEY, or openai_api_key in $XDG_CONFIG_HOME/agentcron/config" >expect &&
	test_cmp expect err && test ! -s out
'

test_expect_success 'a one-shot whose llm-call has no key: failed after one run, no retries' '
	id=$(TASK_NOW=2026-11-23T06:00:00Z task-add --at 07:00 --name nokey "Summarise the news") &&
	(OPENAI_BASE_URL= && ticks) &&
	state "$id" >actual &&
	echo "failed null failed 1" >expect &&
	test_cmp expect actual &&
	task-show "$id" | grep "^last error:" >actual &&
	echo "last error:   exited with status 78 llm-call: no API key for openai: set OPENAI_API_KEY, or openai_api_key in $XDG_CONFIG_HOME/agentcron/config" >expect &&
	test_cmp expect actual &&
	task-log --task "$id" --limit 0 | cut -f5,7,8 >actual &&
	printf "schedule\tfailed\t78\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'the same task with a key that works is retried on a server error, then succeeds' '
	id=$(TASK_NOW=2026-11-23T06:00:00Z task-add --at 07:00 --name flaky \
		--exec "llm-call --retries 0" "[[503x1]] flaky") &&
	(export OPENAI_API_KEY=$KEY && ticks) &&
	state "$id" >actual &&
	echo "completed null success 0" >expect &&
	test_cmp expect actual &&
	task-log --task "$id" --limit 0 | cut -f5,7,8 | sort >actual &&
	printf "retry\tsuccess\t0\nschedule\tfailed\t1\n" >expect &&
	test_cmp expect actual
'

test_expect_success '401 (a wrong key), 400 and 404 (an unknown model): failed at once' '
	a=$(TASK_NOW=2026-11-23T06:00:00Z task-add --at 07:00 --name wrongkey "hello") &&
	b=$(TASK_NOW=2026-11-23T06:00:00Z task-add --at 07:00 --name bad "[[400]] bad request") &&
	c=$(TASK_NOW=2026-11-23T06:00:00Z task-add --at 07:00 --name nomodel -m gpt-9 "[[404]] missing") &&
	rm -f tick.out &&
	(export OPENAI_API_KEY=sk-wrong-key-0000 && ticks) &&
	for t in $a $b $c; do state $t; task-log --task $t --limit 0 | cut -f7,8; done >actual &&
	cat >expect <<-\EOF &&
	failed null failed 1
	failed	78
	failed null failed 1
	failed	78
	failed null failed 1
	failed	78
	EOF
	test_cmp expect actual
'

test_expect_success 'a config file llm-call cannot use is permanent too' '
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	printf "openai_api_key = %s\n" "$KEY" >"$XDG_CONFIG_HOME/agentcron/config" &&
	chmod 644 "$XDG_CONFIG_HOME/agentcron/config" &&
	test_expect_code 78 llm-call hi 2>err && test_one_line err &&
	chmod 600 "$XDG_CONFIG_HOME/agentcron/config" &&
	llm-call hi >out &&
	echo "echo: hi" >expect && test_cmp expect out
'

test_expect_success 'usage errors stay 2; failures worth retrying stay 1' '
	test_expect_code 2 llm-call --retries x hi 2>err && test_one_line err &&
	OPENAI_API_KEY=$KEY test_expect_code 1 llm-call --retries 0 "[[503]] down" 2>err &&
	test_one_line err &&
	OPENAI_API_KEY=$KEY test_expect_code 1 llm-call --retries 0 --base-url http://127.0.0.1:1/v1 hi 2>err &&
	test_one_line err
'

test_done
