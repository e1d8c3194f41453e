#!/bin/sh
# llm-call writes each request's spend to the ledger as its answer
# arrives, not when the conversation ends: a run still talking to the
# model already counts against the global budget of a claim made
# meanwhile, the record at its end adds nothing twice, and --no-log
# records no spend.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY" 120 240) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# A token costs $1: the first request of the long run is $6.
budget() {
	printf "price.gpt-4o-mini = 1000000 1000000\nbudget = %s\n" "$1" >"$XDG_CONFIG_HOME/agentcron/config" &&
	chmod 600 "$XDG_CONFIG_HOME/agentcron/config"
}
budget \$100/day || exit 1

# requests N: the provider has had request N (it logs each as it comes).
requests() {
	grep -q "^$1 " "$TEST_TMP/fp/requests.log" 2>/dev/null
}
ledger() {
	store_sql "SELECT sum(tokens) FROM spend WHERE task_id = ''"
}
calls() {
	store_sql "SELECT sum(input_tokens + output_tokens) FROM llm_calls"
}

# claim_meanwhile: while run long waits for its second answer, task-run
# short (into short.out, its status into short.status) under a global
# budget of $5 a day; then long is let go.
claim_meanwhile() {
	{ task-run long >long.out 2>&1 & echo $! >>"$TEST_TMP/.pids"; echo $! >long.pid; } &&
	i=0 && while ! requests 2 && kill -0 "$(cat long.pid)" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1 && i=$((i + 1))
	done &&
	requests 2 &&
	test "$(store_sql "SELECT count(*) FROM llm_calls")" = 0 &&
	ledger >held.spent &&
	budget \$5/day
	task-run short >short.out 2>&1
	echo $? >short.status
	touch "$TEST_TMP/go"
	wait "$(cat long.pid)"
}

test_expect_success 'a run in its second request has its first one counted by another claim' '
	task-add --manual --name long --exec "llm-call --tools=native" \
		"[[call task_list {}]] [[hold=$TEST_TMP/go]] go" >/dev/null &&
	task-add --manual --name short hello >/dev/null &&
	claim_meanwhile &&
	test "$(cat held.spent)" -gt 0 &&
	test "$(cat short.status)" -ne 0 &&
	grep -q "budget: .* (all tasks)" short.out &&
	grep -q "tool results" long.out &&
	test "$(task-log --limit 0 | grep -c success)" = 1
'

test_expect_success 'the record at the end of a run adds only what the ledger lacks' '
	test "$(calls)" -gt "$(cat held.spent)" &&
	test "$(ledger)" = "$(calls)" &&
	test "$(store_sql "SELECT sum(tokens) FROM spend WHERE task_id <> '"''"'")" = "$(calls)" &&
	test "$(store_sql "SELECT spent_tokens FROM reserves")" = "$(calls)"
'

test_expect_success 'llm-call --no-log records no spend; a call without a task counts globally' '
	before=$(ledger) &&
	llm-call --no-log hello >out && grep -q "echo: hello" out &&
	test "$(ledger)" = "$before" &&
	llm-call hello >out && grep -q "echo: hello" out &&
	test "$(ledger)" -gt "$before" &&
	test "$(ledger)" = "$(calls)"
'

test_done
