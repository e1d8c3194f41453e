#!/bin/sh
# --budget as people write it: task-add says what it understood; a bare
# number under 1,000 (tokens, though it reads as dollars) is refused with
# what to write; "$5/day" in double quotes, which the shell turns into
# "/day", is refused with the shell named; small amounts keep two
# significant digits.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z

test_expect_success 'on a terminal, task-add says what the budget means' '
	script -qec "task-add --daily 09:00 --exec true --budget \"\\\$5/day\" five" /dev/null | tr -d "\r" >out &&
	grep -qx "  budget:   \$5.00 a day" out &&
	script -qec "task-add --daily 09:00 --exec true --budget 200k/week tokens" /dev/null | tr -d "\r" >out &&
	grep -qx "  budget:   200000 tokens a week" out &&
	script -qec "task-add --daily 09:00 --exec true --budget 5tok/month few" /dev/null | tr -d "\r" >out &&
	grep -qx "  budget:   5 tokens a month" out
'

test_expect_success 'a bare number under 1,000: refused, naming $5 and 5tok' '
	test_expect_code 2 task-add --daily 09:00 --budget 5/day x >out 2>err &&
	echo "task-add: bad --budget: '\''5/day'\'' would be 5 tokens: write \$5/day for dollars or 5tok/day for tokens" >expect &&
	test_cmp expect err && test ! -s out &&
	test_expect_code 2 task-add --daily 09:00 --budget 999/week x 2>err && test_one_line err &&
	id=$(task-add --daily 09:00 --exec true --budget 1000/day x) &&
	test "$(task-show --json "$id" | sed "s/.*\"budget\":\"\([^\"]*\)\".*/\1/")" = 1000/day
'

test_expect_success '"$5/day" in double quotes (so "/day"): the shell named, nothing added' '
	n=$(task-ls | wc -l) &&
	test_expect_code 2 task-add --daily 09:00 --budget /day x >out 2>err &&
	test_one_line err && grep -q "has no amount: in double quotes the shell replaced \$5" err &&
	grep -q "write '\''\$5/day'\'' in single quotes" err &&
	test "$(task-ls | wc -l)" = "$n"
'

test_expect_success 'task-edit reads budgets the same way' '
	id=$(task-add --manual --exec true y) &&
	test_expect_code 2 task-edit --budget 3/day "$id" 2>err && test_one_line err &&
	grep -q "3tok/day" err &&
	task-edit --budget 3tok/day "$id" >/dev/null
'

test_expect_success 'small amounts keep two significant digits' '
	mkdir -p config/agentcron &&
	echo "price.tiny = 0.1 0.1" >config/agentcron/config &&
	id=$(task-add --manual --budget "\$0.00001/day" --exec "sh -c \"echo \\\$TASK_BUDGET_LEFT\"" small) &&
	task-run "$id" >out &&
	grep -q "0.00001" out &&
	script -qec "task-show $id" /dev/null | tr -d "\r" >show &&
	grep -q "\$0.000010" show
'

test_done
