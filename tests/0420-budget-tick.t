#!/bin/sh
# Budgets: before an occurrence starts, what its task (or all tasks, the
# config's `budget`) spent in the window of the budget's period is read
# from the spend ledger.  Over it, the occurrence is skipped with the
# reason on record, the hook hears of it once per window, and the task
# fires again by itself in the next window; task-run refuses it unless
# --force.  Windows are crossed by moving TASK_NOW.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY
CONF=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# $1 a token in, $2 a token out: "hello" (1 in, 2 out) costs $5 a run.
printf "price.gpt-4o-mini = 1000000 2000000\n" >"$CONF" && chmod 600 "$CONF" || exit 1
printf "#!/bin/sh\ncat >>\"\$0.log\"\n" >hook && chmod +x hook || exit 1
TASK_NOTIFY=$PWD/hook
export TASK_NOTIFY

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null
}
# runs: slot, status and error of every run, oldest first.
runs() {
	task-log --limit 0 | cut -f6,7 >runs.tmp &&
	task-log --limit 0 --json | sed 's/.*"error":\("[^"]*"\).*/\1/; /^{/s/.*/-/' |
		paste runs.tmp - | tac
}

test_expect_success 'a budget is AMOUNT/PERIOD in dollars or tokens, shown as given' '
	TASK_NOW=2026-11-23T06:00:00Z &&
	export TASK_NOW &&
	task-add --cron "0 * * * *" --tz UTC --budget \$12/day --name hourly hello >/dev/null &&
	b=$(task-add --manual --budget 2USD/week --name b b) &&
	c=$(task-add --manual --budget 1.5M/month --name c c) &&
	d=$(task-add --manual --budget 200k/day --name d d) &&
	task-ls --json | sed "s/.*\"name\":\"\([a-z]*\)\".*\"budget\":\([^,]*\),.*/\1 \2/" | sort >actual &&
	cat >expect <<-\EOT &&
	b "$2/week"
	c "1500000/month"
	d "200000/day"
	hourly "$12/day"
	EOT
	test_cmp expect actual &&
	task-edit --budget none "$b" >/dev/null && task-edit --budget 10tok/week "$c" >/dev/null &&
	task-show "$c" | grep "^budget:" >actual &&
	echo "budget:       10/week, 0 tokens spent this week" >expect &&
	test_cmp expect actual &&
	test "$(task-show --json "$b" | sed "s/.*\"budget\":\([^,]*\),.*/\1/")" = null &&
	task-rm "$b" "$c" "$d" >/dev/null 2>&1
'

test_expect_success 'bad budgets are refused: exit 2, nothing changed' '
	for bad in 2 \$2 \$2/year 2xyz/day \$-1/day 0/day 0.5/day; do
		test_expect_code 2 task-add --manual --budget "$bad" x >out 2>err &&
		echo "task-add: bad --budget '\''$bad'\'': expected AMOUNT/PERIOD (like \$2/day, 2usd/week, 200k/month, 1.5M/day) or none" >expect &&
		test_cmp expect err || return 1
	done &&
	test "$(task-ls | wc -l)" -eq 1
'

test_expect_success 'within budget the run gets what is left; over it, occurrences are skipped with the reason' '
	printf "#!/bin/sh\necho \"\$TASK_BUDGET_LEFT\" >>left\nexec llm-call\n" >spend && chmod +x spend &&
	task-edit --exec "$PWD/spend" hourly >/dev/null &&
	tick 2026-11-23T07:00:00Z && tick 2026-11-23T08:00:00Z && tick 2026-11-23T09:00:00Z &&
	tick 2026-11-23T10:00:00Z && tick 2026-11-23T11:00:00Z &&
	runs >actual &&
	cat >expect <<-\EOT &&
	2026-11-23T07:00:00Z	success	-
	2026-11-23T08:00:00Z	success	-
	2026-11-23T09:00:00Z	success	-
	2026-11-23T10:00:00Z	skipped	"budget: $15.00 of $12.00 this day"
	2026-11-23T11:00:00Z	skipped	"budget: $15.00 of $12.00 this day"
	EOT
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T12:00:00Z task-tick --dry-run | sed "s/.*\"trigger\":\"\([a-z]*\)\".*/\1/" >actual &&
	echo budget >expect && test_cmp expect actual &&
	printf "\$12.000000\n\$7.000000\n\$2.000000\n" >expect && test_cmp expect left &&
	task-ls | cut -f3,4,6 >actual &&
	printf "pending\t2026-11-23T12:00:00Z\tskipped\n" >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-23T11:00:00Z task-show hourly | grep "^budget:" >actual &&
	echo "budget:       \$12/day, \$15.00 spent this day (over: its runs are skipped until the next)" >expect &&
	test_cmp expect actual
'

test_expect_success 'the hook heard of it once in the window, as a budget event' '
	test_json_norm <hook.log >actual &&
	cat >expect <<-\EOT &&
	{"event":"budget","task_id":"<id1>","name":"hourly","reason":"budget: $15.00 of $12.00 this day","run_id":"<id2>","trigger":"schedule","status":"skipped","exit_code":null,"slot":"2026-11-23T10:00:00Z","started_at":"2026-11-23T10:00:00Z","ended_at":"2026-11-23T10:00:00Z","duration_ms":<ms>,"output":"","output_truncated":false,"error":"budget: $15.00 of $12.00 this day"}
	EOT
	test_cmp expect actual
'

test_expect_success 'task-run refuses a task over budget (exit 4) unless --force' '
	TASK_NOW=2026-11-23T11:30:00Z test_expect_code 4 task-run hourly >out 2>err &&
	a=$(task-show --json hourly | sed "s/^{\"id\":\"\(........\).*/\1/") &&
	echo "task-run: task '\''hourly'\'' ($a) is over budget: budget: \$15.00 of \$12.00 this day; --force runs it anyway" >expect &&
	test_cmp expect err && test ! -s out &&
	TASK_NOW=2026-11-23T11:30:00Z test_expect_code 4 task-run --queue hourly 2>err &&
	test_cmp expect err &&
	test_expect_code 2 task-run --queue --force hourly 2>err && test_one_line err &&
	TASK_NOW=2026-11-23T11:30:00Z task-run --force hourly >out &&
	echo "echo: hello" >expect && test_cmp expect out
'

test_expect_success 'the next day is a new window: the task fires again by itself, and may be told again' '
	rm -f hook.log &&
	tick 2026-11-24T00:00:00Z && tick 2026-11-24T01:00:00Z && tick 2026-11-24T02:00:00Z &&
	tick 2026-11-24T03:00:00Z &&
	runs | tail -n 4 >actual &&
	cat >expect <<-\EOT &&
	2026-11-24T00:00:00Z	success	-
	2026-11-24T01:00:00Z	success	-
	2026-11-24T02:00:00Z	success	-
	2026-11-24T03:00:00Z	skipped	"budget: $15.00 of $12.00 this day"
	EOT
	test_cmp expect actual &&
	grep -c "\"event\":\"budget\"" hook.log >actual && echo 1 >expect && test_cmp expect actual
'

test_expect_success 'a week in the task'\''s zone starts on Monday; tokens count in and out' '
	reset_store && rm -f hook.log &&
	TASK_NOW=2026-11-22T12:00:00Z task-add --daily 09:00 --tz Europe/Paris --budget 6tok/week \
		--name weekly hello >/dev/null &&
	for d in 23 24 25 26 27 28 29 30; do
		day=2026-11-$d && test $d -le 30 || return 1
		tick ${day}T08:00:00Z || return 1
	done &&
	tick 2026-12-01T08:00:00Z &&
	runs >actual &&
	cat >expect <<-\EOT &&
	2026-11-23T08:00:00Z	success	-
	2026-11-24T08:00:00Z	success	-
	2026-11-25T08:00:00Z	skipped	"budget: 6 of 6 tokens this week"
	2026-11-26T08:00:00Z	skipped	"budget: 6 of 6 tokens this week"
	2026-11-27T08:00:00Z	skipped	"budget: 6 of 6 tokens this week"
	2026-11-28T08:00:00Z	skipped	"budget: 6 of 6 tokens this week"
	2026-11-29T08:00:00Z	skipped	"budget: 6 of 6 tokens this week"
	2026-11-30T08:00:00Z	success	-
	2026-12-01T08:00:00Z	success	-
	EOT
	test_cmp expect actual &&
	grep -c "\"event\":\"budget\"" hook.log >actual && echo 1 >expect && test_cmp expect actual
'

test_expect_success 'the config'\''s budget holds all tasks together, in the config'\''s zone' '
	reset_store && rm -f hook.log &&
	printf "price.gpt-4o-mini = 1000000 2000000\nbudget = \$8/day\ntz = Asia/Tokyo\n" >"$CONF" &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 * * * *" --name one one >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 * * * *" --name two two >/dev/null &&
	tick 2026-11-23T07:00:00Z && tick 2026-11-23T08:00:00Z && tick 2026-11-23T14:00:00Z &&
	tick 2026-11-23T15:00:00Z &&
	runs >actual &&
	cat >expect <<-\EOT &&
	2026-11-23T07:00:00Z	success	-
	2026-11-23T07:00:00Z	success	-
	2026-11-23T08:00:00Z	skipped	"budget: $10.00 of $8.00 this day (all tasks)"
	2026-11-23T08:00:00Z	skipped	"budget: $10.00 of $8.00 this day (all tasks)"
	2026-11-23T14:00:00Z	skipped	"budget: $10.00 of $8.00 this day (all tasks)"
	2026-11-23T14:00:00Z	skipped	"budget: $10.00 of $8.00 this day (all tasks)"
	2026-11-23T15:00:00Z	success	-
	2026-11-23T15:00:00Z	success	-
	EOT
	test_cmp expect actual &&
	grep -c "\"event\":\"budget\"" hook.log >actual && echo 2 >expect && test_cmp expect actual &&
	printf "price.gpt-4o-mini = 1000000 2000000\n" >"$CONF"
'

test_expect_success 'a tool loop is stopped by what its budget leaves, one request past it at most' '
	reset_store && rm -f hook.log fp/requests.log &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 * * * *" --budget \$39/day --exec "llm-call --tools" \
		--name loop "[[loop]] go" >/dev/null &&
	tick 2026-11-23T07:00:00Z && tick 2026-11-23T08:00:00Z &&
	runs >actual &&
	cat >expect <<-\EOT &&
	2026-11-23T07:00:00Z	failed	"exited with status 1\nllm-call: stopped before model request 5: the run'\''s budget is spent ($40.00 used, $39.00 was left)\n"
	2026-11-23T08:00:00Z	skipped	"budget: $40.00 of $39.00 this day"
	EOT
	test_cmp expect actual &&
	test "$(wc -l <fp/requests.log)" -eq 4
'

test_expect_success 'a one-shot over budget waits for the next window, then fires' '
	reset_store &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --budget 3tok/day --name first hello >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T08:00:00Z --budget 3tok/day --name once hello >/dev/null &&
	store_sql "UPDATE llm_calls SET task_id = (SELECT id FROM tasks WHERE name = '\''once'\'')" &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "UPDATE llm_calls SET task_id = (SELECT id FROM tasks WHERE name = '\''once'\'')" &&
	store_sql "UPDATE spend SET task_id = (SELECT id FROM tasks WHERE name = '\''once'\'')
		WHERE task_id <> '\'''\''" &&
	tick 2026-11-23T08:00:00Z &&
	task-ls | cut -f2,3,4 | sort >actual &&
	printf "first\tpending\t2026-11-24T07:00:00Z\nonce\tpending\t2026-11-24T00:00:00Z\n" >expect &&
	test_cmp expect actual &&
	tick 2026-11-24T00:00:00Z &&
	task-log --task once --limit 0 | cut -f5-7 >actual &&
	printf "retry\t2026-11-24T00:00:00Z\tsuccess\nschedule\t2026-11-23T08:00:00Z\tskipped\n" >expect &&
	test_cmp expect actual && test "$(task-ls | grep once | cut -f3)" = completed
'

test_expect_success 'a run an agent queued is held to the budget when a pass would start it' '
	reset_store && rm -f hook.log &&
	echo "{\"name\":\"task_create\",\"arguments\":{\"name\":\"agentic\",\"prompt\":\"hello\",\"manual\":true,\"budget\":\"3tok/day\"}}" |
		TASK_NOW=2026-11-23T06:00:00Z task-mcp --call >out &&
	TASK_NOW=2026-11-23T07:00:00Z task-run agentic >out &&
	echo "{\"name\":\"task_run\",\"arguments\":{\"id\":\"agentic\"}}" |
		TASK_NOW=2026-11-23T07:10:00Z task-mcp --call >out &&
	tick 2026-11-23T07:20:00Z &&
	task-log --limit 0 | cut -f5,7 >actual &&
	printf "manual\tskipped\nmanual\tsuccess\n" >expect && test_cmp expect actual &&
	task-log --limit 1 --json | grep -q "\"error\":\"budget: 3 of 3 tokens this day\"" &&
	grep -q "^{\"event\":\"budget\",.*\"trigger\":\"manual\",\"status\":\"skipped\"" hook.log &&
	task-ls --json | grep -q "\"queued\":false"
'

test_expect_success 'an agent may give its task a budget, not lift or change one' '
	echo "{\"name\":\"task_update\",\"arguments\":{\"id\":\"agentic\",\"budget\":\"none\"}}" |
		test_expect_code 2 task-mcp --call >out 2>err &&
	echo "Refused: task '\''agentic'\'' has a budget (3/day); only the user may change or remove it." >expect &&
	test_cmp expect out &&
	echo "{\"name\":\"task_create\",\"arguments\":{\"name\":\"free\",\"prompt\":\"x\",\"manual\":true}}" |
		task-mcp --call >out &&
	echo "{\"name\":\"task_update\",\"arguments\":{\"id\":\"free\",\"budget\":\"\$1/day\"}}" |
		task-mcp --call >out &&
	task-ls --json | grep -c "\"budget\":\"\$1/day\"" >actual && echo 1 >expect && test_cmp expect actual &&
	task-edit --budget none agentic >/dev/null
'

test_expect_success 'a bad budget in the config is said, and nothing fires' '
	printf "budget = lots\n" >"$CONF" &&
	TASK_NOW=2026-11-23T16:00:00Z test_expect_code 2 task-tick >out 2>err &&
	echo "task-tick: config: bad budget '\''lots'\'': expected AMOUNT/PERIOD, AMOUNT dollars (\$2, 2usd) or tokens (200000, 200k, 1.5M), PERIOD day, week or month; or none" >expect &&
	test_cmp expect err && test ! -s out &&
	printf "price.gpt-4o-mini = 1000000 2000000\n" >"$CONF"
'

test_done
