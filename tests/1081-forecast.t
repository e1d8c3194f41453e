#!/bin/sh
# The cost before it runs: task-add and task-edit forecast a task's runs in
# the next 30 days and their spend (on a terminal, and as "forecast" in
# --json), from its prompt and the model's typical answer while it is new,
# from its recent runs once it has some, and warn on stderr when a budget
# would be passed (the global budget against all enabled tasks' spend with
# this one's, a follower's runs counted after each run of its upstream);
# task-when --cost answers the same for a task or any schedule.  Calls are made by llm-call with the echo provider, which
# counts a word as a token, so every figure is worked out by hand below.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-30T00:00:00Z TZ=UTC # a Monday
mkdir -p "$XDG_CONFIG_HOME/agentcron"
config() {
	printf '%s\n' "$@" >"$XDG_CONFIG_HOME/agentcron/config"
}
config "provider = echo" "model = tiny" "price.tiny = 1 2" "stagger = 0"
# forecast: the "forecast" object of one line of JSON.
forecast() {
	sed -n 's/.*"forecast":\({[^{}]*\("price":{[^{}]*}[^{}]*\)*\("budgets":\[[^]]*\]\)*}\).*/\1/p'
}

test_expect_success 'the call log: two answers of tiny, one of another model' '
	llm-call -m tiny "a b c" >/dev/null &&        # 3 tokens in, 4 out ("tiny: a b c")
	llm-call -m tiny "a b c d e" >/dev/null &&    # 5 in, 6 out
	llm-call -m big "a b c d e f g h i j k l m n o p" >/dev/null && # not tiny: not counted
	task-log --calls >calls && test $(wc -l <calls) -eq 3
'

# A follower runs after each run of its upstream that its link matches:
# weekdays at 09:00 are 22, so is "after up" and "after fol:any"; a
# failure is not expected, so "after fol:failure" counts none.  Each run
# is 3 tokens in (12 bytes), 5 out (the mean of tiny): $0.000013.
test_expect_success 'a follower'\''s runs follow its upstream'\''s, down the chain' '
	up=$(task-add --cron "0 9 * * 1-5" --name up abcdefghijkl) &&
	task-add --json --after up --name fol abcdefghijkl >out &&
	forecast <out | cut -d, -f3-5 >actual &&
	echo "\"runs\":22,\"chained_runs\":22,\"basis\":\"prompt\"" >expect &&
	test_cmp expect actual &&
	task-add --json --after fol:failure --name folf abcdefghijkl >out &&
	forecast <out | cut -d, -f3 >actual && echo "\"runs\":0" >expect && test_cmp expect actual &&
	task-add --json --after fol:any --name fola --cron "0 12 * * 6" abcdefghijkl >out &&
	forecast <out | cut -d, -f3-4 >actual &&
	echo "\"runs\":26,\"chained_runs\":22" >expect && test_cmp expect actual &&
	task-when --cost fola | sed -n 2p >actual &&
	echo "runs:     26 in 30 days from 2026-11-30 00:00 UTC (22 after the tasks it follows)" >expect &&
	test_cmp expect actual
'

# The global budget weighs every enabled task: on Monday at 09:00 up, fol
# and fola run ($0.000039), and a new daily task adds $0.000013: $0.000052
# reaches $0.00005 a day; alone it would be far within.  Disabled, the
# upstream takes its followers' runs with it: what is left is fola's own
# Saturday run beside the daily one.
test_expect_success 'the global budget weighs all enabled tasks with the new one' '
	config "provider = echo" "model = tiny" "price.tiny = 1 2" "stagger = 0" "budget = \$0.00005/day" &&
	id=$(task-add --daily 9am --name daily abcdefghijkl 2>err) && s=$(echo "$id" | cut -c1-8) &&
	echo "task-add: warning: with task $s \"daily\", the 4 tasks that spend are expected to spend \$0.000052 in the day from 2026-11-30 00:00 (\$0.000013 of it this task'\''s), over the global budget of \$0.000050 a day" >expect &&
	test_cmp expect err &&
	task-when --cost "$id" | tail -n 1 >actual &&
	echo "budget:   \$0.000050 a day (all tasks): at most \$0.000052 in the day from 2026-11-30 00:00 (4 tasks; \$0.000013 of it this one'\''s): OVER" >expect &&
	test_cmp expect actual &&
	task-edit --json --disable up >out 2>err && test_cmp /dev/null err &&
	task-edit --json --name daily2 "$id" >out 2>err && test_cmp /dev/null err &&
	forecast <out | sed "s/.*\"budgets\"://" >actual &&
	echo "[{\"budget\":\"\$0.00005/day\",\"global\":true,\"worst\":2.6e-05,\"worst_runs\":2,\"tasks\":2,\"own\":1.3e-05,\"worst_from\":\"2026-12-05T00:00:00Z\",\"over\":false}]}" >expect &&
	test_cmp expect actual &&
	task-rm "$id" up fol folf fola >/dev/null &&
	config "provider = echo" "model = tiny" "price.tiny = 1 2" "stagger = 0"
'

# A new task: 12 bytes of prompt are 3 tokens in; tiny answered 5 tokens on
# average; 3 x $1 + 5 x $2 a million is $0.000013 a run; weekdays at 09:00
# from Monday 2026-11-30 are 22 runs in 30 days: $0.000286, 176 tokens.
test_expect_success 'task-add --json: a new task forecast from its prompt and the model'\''s answers' '
	task-add --json --cron "0 9 * * 1-5" --name weekdays abcdefghijkl >out 2>err &&
	test ! -s err &&
	forecast <out >actual &&
	cat >expect <<-\EOF &&
	{"days":30,"from":"2026-11-30T00:00:00Z","runs":22,"basis":"prompt","basis_count":2,"model":"tiny","input_tokens_per_run":3,"output_tokens_per_run":5,"tokens":176,"price":{"input":1,"output":2},"dollars_per_run":1.3e-05,"dollars":0.000286,"budgets":[]}
	EOF
	test_cmp expect actual
'

test_expect_success 'on a terminal task-add says it; piped, only the id' '
	script -qec "task-add --cron \"0 9 * * 1-5\" --name term --force abcdefghijkl" /dev/null |
		tr -d "\r" >out &&
	echo "  forecast: 22 runs in 30 days: \$0.00029, 176 tokens (a run: 3 tokens in, 5 out, from its prompt, and the mean answer of 2 calls of tiny)" >expect &&
	tail -n 1 out >actual && test_cmp expect actual &&
	task-add --cron "0 9 * * 1-5" --name piped --force abcdefghijkl >out 2>err &&
	test $(wc -l <out) -eq 1 && grep -q "^[0-9a-f-]\{36\}$" out && test ! -s err
'

test_expect_success 'task-add warns when the task would pass its budget or the global one' '
	# weekdays, term and piped each spend \$0.000065 a week too
	config "provider = echo" "model = tiny" "price.tiny = 1 2" "stagger = 0" "budget = \$0.00005/week" &&
	id=$(task-add --cron "0 9 * * 1-5" --name pricey --budget "\$0.00001/day" abcdefghijkl 2>err) &&
	s=$(echo "$id" | cut -c1-8) &&
	cat >expect <<-EOF &&
	task-add: warning: task $s "pricey" is expected to spend \$0.000013 in the day from 2026-11-30 00:00, over its budget of \$0.000010 a day
	task-add: warning: with task $s "pricey", the 4 tasks that spend are expected to spend \$0.00026 in the week from 2026-11-30 00:00 (\$0.000065 of it this task'\''s), over the global budget of \$0.000050 a week
	EOF
	test_cmp expect err &&
	task-show "$id" >/dev/null &&
	task-add --json --cron "0 9 * * 1-5" --name pricey2 --budget "\$0.00002/day" abcdefghijkl 2>err >out &&
	forecast <out | sed "s/.*\"budgets\"://" >actual &&
	echo "[{\"budget\":\"\$0.00002/day\",\"global\":false,\"worst\":1.3e-05,\"worst_runs\":1,\"worst_from\":\"2026-11-30T00:00:00Z\",\"over\":false},{\"budget\":\"\$0.00005/week\",\"global\":true,\"worst\":0.000325,\"worst_runs\":25,\"tasks\":5,\"own\":6.5e-05,\"worst_from\":\"2026-11-30T00:00:00Z\",\"over\":true}]}" >expect &&
	test_cmp expect actual && test $(wc -l <err) -eq 1 &&
	config "provider = echo" "model = tiny" "price.tiny = 1 2" "stagger = 0"
'

# A schedule alone costs the model's mean call: 4 in, 5 out, $0.000014; a
# day at 09:00 is 30 runs: $0.00042 and 270 tokens.
test_expect_success 'task-when --cost SCHEDULE: the model'\''s mean call' '
	task-when --cost "0 9 * * *" >out &&
	cat >expect <<-\EOF &&
	schedule: Daily at 09:00 (UTC)
	runs:     30 in 30 days from 2026-11-30 00:00 UTC
	a run:    4 tokens in, 5 out, from the mean of 2 calls of tiny
	model:    tiny at $1 in, $2 out a million tokens
	expected: $0.00042 and 270 tokens in 30 days ($0.000014 a run)
	EOF
	test_cmp expect out &&
	task-when --cost --json --model big --daily 9am >out &&
	echo "{\"days\":30,\"from\":\"2026-11-30T00:00:00Z\",\"runs\":30,\"basis\":\"model\",\"basis_count\":1,\"model\":\"big\",\"input_tokens_per_run\":16,\"output_tokens_per_run\":17,\"tokens\":990,\"budgets\":[],\"description\":\"Daily at 09:00\",\"tz\":\"UTC\"}" >expect &&
	test_cmp expect out &&
	task-when --cost --model nobody "every 6 hours" >out &&
	sed -n 2,3p out >actual &&
	printf "runs:     119 in 30 days from 2026-11-30 00:00 UTC\na run:    unknown; no call of nobody on record to count a run by\n" >expect &&
	test_cmp expect actual
'

# Two runs of "abcdefghijkl": 1 token in, 2 out ("tiny: abcdefghijkl"),
# $0.000005 a run; daily is 30 runs: $0.00015 and 90 tokens.  Every two
# hours is 11 runs on the first day (not 00:00, which is now) and 12 on
# the next, 359 in all: $0.000060 on the busiest day.
test_expect_success 'task-edit: forecast from the task'\''s recent runs' '
	id=$(task-add --cron "0 9 * * 1-5" --name edited --force abcdefghijkl) &&
	task-run "$id" >/dev/null && task-run "$id" >/dev/null &&
	task-edit --json --cron "0 9 * * *" "$id" >out 2>err && test ! -s err &&
	forecast <out >actual &&
	echo "{\"days\":30,\"from\":\"2026-11-30T00:00:00Z\",\"runs\":30,\"basis\":\"runs\",\"basis_count\":2,\"model\":\"tiny\",\"input_tokens_per_run\":1,\"output_tokens_per_run\":2,\"tokens\":90,\"price\":{\"input\":1,\"output\":2},\"dollars_per_run\":5e-06,\"dollars\":0.00015,\"budgets\":[]}" >expect &&
	test_cmp expect actual &&
	script -qec "task-edit --cron \"0 */6 * * *\" $id" /dev/null | tr -d "\r" >out &&
	echo "forecast: 119 runs in 30 days: \$0.00060, 357 tokens (a run: 1 token in, 2 out, from the mean of its last 2 runs)" >expect &&
	tail -n 1 out >actual && test_cmp expect actual &&
	task-edit --budget "\$0.00003/day" "$id" >out 2>err &&
	test_cmp /dev/null err &&
	task-edit --budget "\$0.00002/day" --cron "0 */2 * * *" "$id" >out 2>err &&
	s=$(echo "$id" | cut -c1-8) &&
	echo "task-edit: warning: task $s \"edited\" is expected to spend \$0.000060 in the day from 2026-12-01 00:00, over its budget of \$0.000020 a day" >expect &&
	test_cmp expect err && ! grep -q forecast out &&
	task-when --cost "$s" >out &&
	cat >expect <<-EOF &&
	schedule: task $s edited: Every 2 hours at :00 (UTC)
	runs:     359 in 30 days from 2026-11-30 00:00 UTC
	a run:    1 token in, 2 out, from the mean of its last 2 runs
	model:    tiny at \$1 in, \$2 out a million tokens
	expected: \$0.0018 and 1077 tokens in 30 days (\$0.0000050 a run)
	budget:   \$0.000020 a day (its own): at most \$0.000060 in the day from 2026-12-01 00:00: OVER
	EOF
	test_cmp expect out &&
	task-when --cost --id "$id" --model big --json >out &&
	grep -q "\"basis\":\"runs\",\"basis_count\":2,\"model\":\"big\",\"input_tokens_per_run\":1,\"output_tokens_per_run\":2,\"tokens\":1077,\"budgets\":\[{\"budget\":\"\$0.00002/day\",\"global\":false,\"over\":false}\]" out
'

test_expect_success 'a command of its own: its spend is not guessed' '
	task-add --json --daily 9am --name cmd --exec true x >out &&
	forecast <out >actual &&
	echo "{\"days\":30,\"from\":\"2026-11-30T00:00:00Z\",\"runs\":30,\"basis\":\"command\",\"basis_count\":0,\"model\":\"tiny\"}" >expect &&
	test_cmp expect actual
'

test_expect_success 'bad input: one line, exit 2, nothing changed' '
	task-ls --json >before &&
	test_expect_code 2 task-when --cost >out 2>err && test_one_line err && test_cmp /dev/null out &&
	test_expect_code 2 task-when --model tiny "0 9 * * *" 2>err && test_one_line err &&
	grep -q "^task-when: --model goes with --cost$" err &&
	test_expect_code 2 task-when --cost --simulate 2>err && test_one_line err &&
	test_expect_code 2 task-when --cost "61 9 * * *" 2>err && test_one_line err &&
	grep -q "^task-when: bad minute field" err &&
	test_expect_code 2 task-when --cost abcd1234 2>err && test_one_line err &&
	grep -q "^task-when: no task '\''abcd1234'\'', and no schedule$" err &&
	test_expect_code 2 task-when --cost "2020-01-01T00:00:00Z" 2>err && test_one_line err &&
	config "provider = echo" "model = tiny" "price.tiny = one two" &&
	test_expect_code 2 task-when --cost "0 9 * * *" 2>err && test_one_line err &&
	grep -q "^task-when: config: bad price.tiny" err &&
	config "provider = echo" "model = tiny" "price.tiny = 1 2" "stagger = 0" &&
	task-ls --json >after && test_cmp before after
'

test_expect_success 'bash completion: task-when --cost offers the tasks, and --model' '
	bash -c ". \"$AC_TOP/completions/agentcron.bash\" && COMP_WORDS=(task-when --cost \"\") &&
		COMP_CWORD=2 && _agentcron_complete && printf \"%s\\n\" \"\${COMPREPLY[@]}\"" |
		sort >actual &&
	task-ls --limit 500 | cut -f1 | sort >expect &&
	test -s expect && test_cmp expect actual &&
	bash -c ". \"$AC_TOP/completions/agentcron.bash\" && COMP_WORDS=(task-when --mo) &&
		COMP_CWORD=1 && _agentcron_complete && printf \"%s\\n\" \"\${COMPREPLY[@]}\"" >actual &&
	echo --model >expect && test_cmp expect actual
'

test_done
