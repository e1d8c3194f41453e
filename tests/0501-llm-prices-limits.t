#!/bin/sh
# Prices from the config file give each model call its cost beside its
# tokens; a model without a price costs nothing but its tokens count.  A
# conversation is bounded by --max-rounds, --max-run-tokens and what the
# run's budget leaves (TASK_BUDGET_LEFT), each checked before a request.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY TASK_NOW=2026-11-23T09:00:00Z
export OPENAI_BASE_URL OPENAI_API_KEY TASK_NOW
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# $1 a token in, $2 a token out: costs read as token counts.
printf "price.gpt-4o-mini = 1000000 2000000\n" >"$CONF" && chmod 600 "$CONF" || exit 1

# calls: each record's model, tokens in and out, cost and error, oldest first.
calls() {
	task-log --calls --json | sed 's/.*"model":"\([^"]*\)".*"error":\(null\|"[^"]*"\),"input_tokens":\([0-9a-z]*\),"output_tokens":\([0-9a-z]*\),"cost":\([0-9.a-z]*\),.*/\1 \3 \4 \5 \2/' | tac
}

test_expect_success 'a priced model: the cost beside the tokens, in the record and --json' '
	llm-call --json hello there >out &&
	grep -q "\"usage\":{\"input_tokens\":2,\"output_tokens\":3},\"cost\":8," out &&
	calls >actual &&
	echo "gpt-4o-mini 2 3 8 null" >expect &&
	test_cmp expect actual
'

test_expect_success 'a model without a price costs nothing on record, its tokens count' '
	llm-call -m gpt-4o --json hello there >out &&
	grep -q "\"cost\":null," out &&
	calls | tail -n 1 >actual &&
	echo "gpt-4o 2 3 null null" >expect &&
	test_cmp expect actual
'

test_expect_success 'a model named as providers spell it (a tag, a vendor) has its price' '
	printf "price.gpt-4o-mini = 1000000 2000000\nprice.llama3.2:3b = 0 1000000\nprice.openai/gpt-4o = 2000000 0\n" >"$CONF" &&
	llm-call -m llama3.2:3b --json hello there >out &&
	grep -q "\"cost\":3," out &&
	llm-call -m openai/gpt-4o --json hello there >out &&
	grep -q "\"cost\":4," out &&
	printf "price.gpt-4o-mini = 1000000 2000000\n" >"$CONF"
'

test_expect_success 'a price that does not read fails every run alike: exit 78' '
	printf "price.gpt-4o-mini = 0.15\n" >"$CONF" &&
	test_expect_code 78 llm-call hi >out 2>err &&
	echo "llm-call: config: bad price.gpt-4o-mini '\''0.15'\'': expected two prices in dollars per million tokens, input then output (0.15 0.60)" >expect &&
	test_cmp expect err && test ! -s out &&
	printf "price.gpt-4o-mini = 1000000 2000000\n" >"$CONF"
'

test_expect_success 'tool rounds stop at --max-rounds (default 20), tokens and cost on record' '
	reset_store &&
	test_expect_code 1 llm-call --tools "[[loop]] go" >out 2>err &&
	echo "llm-call: the model still calls tools after 20 rounds (--max-rounds)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 llm-call --tools --max-rounds 2 "[[loop]] go" 2>err &&
	echo "llm-call: the model still calls tools after 2 rounds (--max-rounds)" >expect &&
	test_cmp expect err &&
	calls >actual &&
	cat >expect <<-\EOT &&
	gpt-4o-mini 882 21 924 "the model still calls tools after 20 rounds (--max-rounds)"
	gpt-4o-mini 18 3 24 "the model still calls tools after 2 rounds (--max-rounds)"
	EOT
	test_cmp expect actual
'

test_expect_success '--max-run-tokens stops before the request past it, and says where' '
	reset_store && rm -f fp/requests.log &&
	test_expect_code 1 llm-call --tools --max-run-tokens 60 "[[loop]] go" >out 2>err &&
	echo "llm-call: stopped before model request 7: the conversation used 78 tokens, its bound is 60 (--max-run-tokens)" >expect &&
	test_cmp expect err &&
	test "$(wc -l <fp/requests.log)" -eq 6 &&
	calls >actual &&
	echo "gpt-4o-mini 72 6 84 \"stopped before model request 7: the conversation used 78 tokens, its bound is 60 (--max-run-tokens)\"" >expect &&
	test_cmp expect actual
'

test_expect_success 'what the budget leaves in dollars stops a tool loop; it overshoots by one request at most' '
	reset_store && rm -f fp/requests.log &&
	TASK_BUDGET_LEFT=\$39 test_expect_code 1 llm-call --tools "[[loop]] go" >out 2>err &&
	echo "llm-call: stopped before model request 5: the run'\''s budget is spent (\$40.00 used, \$39.00 was left)" >expect &&
	test_cmp expect err &&
	test "$(wc -l <fp/requests.log)" -eq 4 &&
	calls >actual &&
	echo "gpt-4o-mini 32 4 40 \"stopped before model request 5: the run'\''s budget is spent (\$40.00 used, \$39.00 was left)\"" >expect &&
	test_cmp expect actual
'

test_expect_success 'in tokens too, and both: the first one reached stops it' '
	TASK_BUDGET_LEFT=20 test_expect_code 1 llm-call --tools "[[loop]] go" 2>err &&
	echo "llm-call: stopped before model request 4: the run'\''s budget is spent (21 tokens used, 20 were left)" >expect &&
	test_cmp expect err &&
	TASK_BUDGET_LEFT="\$1000,20" test_expect_code 1 llm-call --tools "[[loop]] go" 2>err &&
	test_cmp expect err &&
	TASK_BUDGET_LEFT=\$0 test_expect_code 1 llm-call hi 2>err &&
	echo "llm-call: stopped before model request 1: the run'\''s budget is spent (\$0.00 used, \$0.00 was left)" >expect &&
	test_cmp expect err
'

test_expect_success 'a plain answer within what is left is not stopped' '
	TASK_BUDGET_LEFT="\$9,9" llm-call hello >out 2>err &&
	echo "echo: hello" >expect && test_cmp expect out && test ! -s err
'

test_expect_success 'bad values are refused: exit 2' '
	TASK_BUDGET_LEFT=lots test_expect_code 2 llm-call hi 2>err &&
	echo "llm-call: bad TASK_BUDGET_LEFT '\''lots'\'': expected what the run may still spend in dollars (\$0.37), tokens (12000) or both (\$0.37,12000)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call --max-run-tokens 0 hi 2>err &&
	echo "llm-call: bad --max-run-tokens '\''0'\'': expected a number of tokens from 1 to 1000000000" >expect &&
	test_cmp expect err
'

test_done
