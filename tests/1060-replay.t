#!/bin/sh
# task-run --replay: a past run's model request sent again, byte for byte
# as the provider got it the first time, though the task, its attachment
# and its context have changed since; a replay is no occurrence of its task.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY ANTHROPIC_BASE_URL ANTHROPIC_API_KEY
mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
echo "retries = 0" >"$XDG_CONFIG_HOME/agentcron/config"

# The id of task NAME's newest run.
last_run() {
	task-log --json --task "$1" | head -n 1 | sed 's/.*"id":"\([^"]*\)".*/\1/'
}

test_expect_success 'set up: a task with a context, an attachment, a system prompt and tools' '
	echo "notes, first version" >notes.txt &&
	task-add --daily 07:00 --tz UTC --name r --context diary --system "Be brief." \
		--attach "$PWD/notes.txt" --exec "llm-call --tools=native" \
		"Summarise {{last_answer}} for {{task}}" >/dev/null &&
	TASK_NOW=2026-11-29T01:01:00Z task-run r >out1 &&
	TASK_NOW=2026-11-29T01:02:00Z task-run r >out2 &&
	test -f fp/2.body
'

test_expect_success 'the replay of a run sends its request again, byte for byte' '
	second=$(last_run r) && echo "$second" >second &&
	echo "notes, second version" >notes.txt &&
	task-edit r --system "Be long." --model gpt-4.1 >/dev/null &&
	TASK_NOW=2026-11-29T01:03:00Z task-run r >out3 &&
	last_run r >third &&
	store_sql "SELECT next_run_at, consecutive_failures, last_run_at, last_status, last_result,
		enabled, status FROM tasks" >task-before &&
	TASK_NOW=2026-11-29T01:04:00Z task-run --replay "$second" >id &&
	test -f fp/4.body &&
	cmp fp/2.body fp/4.body &&
	test $(wc -l <id) = 1 &&
	store_sql "SELECT trigger, status FROM runs WHERE id = '\''$(cat id)'\''" >actual &&
	echo "replay|success" >expect &&
	test_cmp expect actual &&
	store_sql "SELECT next_run_at, consecutive_failures, last_run_at, last_status, last_result,
		enabled, status FROM tasks" >task-after &&
	test_cmp task-before task-after &&
	task-log --diff --json "$(cat id)" >actual &&
	echo "{\"from\":\"$second\",\"to\":\"$(cat id)\",\"changed\":false,\"diff\":\"\"}" >expect &&
	test_cmp expect actual
'

test_expect_success 'the context is not added to by a replay; {{last_answer}} is not its answer' '
	store_sql "SELECT count(*) FROM messages" >actual &&
	echo 6 >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-29T01:05:00Z task-run r >out5 &&
	fifth=$(last_run r) &&
	store_sql "SELECT CASE WHEN c.prompt = '\''Summarise '\'' || r.output || '\'' for r'\''
		THEN 1 ELSE 0 END FROM llm_calls c, runs r WHERE c.run_id = '\''$fifth'\'' AND r.id = '\''$(cat third)'\''" >actual &&
	echo 1 >expect && test_cmp expect actual
'

test_expect_success 'a replay on another provider and model: the same messages in its form' '
	task-run --replay "$(cat second)" --provider anthropic --model claude-3-5-haiku-latest >id &&
	grep -E "^(POST|body.model|body.system)" fp/6.req >actual &&
	cat >expect <<-\EOT &&
	POST /v1/messages
	body.model = "claude-3-5-haiku-latest"
	body.system = "Be brief."
	EOT
	test_cmp expect actual &&
	grep -c "^body.messages\[[0-9]*\].role" fp/6.req >actual &&
	grep -c "^body.messages\[[0-9]*\].role" fp/2.req >expect &&
	echo $(( $(cat expect) - 1 )) >expect &&
	test_cmp expect actual
'

test_expect_success 'a replay that fails counts no failure of its task' '
	store_sql "SELECT next_run_at, consecutive_failures, last_status FROM tasks" >before &&
	test_expect_code 1 env OPENAI_BASE_URL=http://127.0.0.1:1/v1 task-run --replay "$(cat second)" >id 2>err &&
	store_sql "SELECT trigger, status FROM runs WHERE id = '\''$(cat id)'\''" >actual &&
	echo "replay|failed" >expect && test_cmp expect actual &&
	store_sql "SELECT next_run_at, consecutive_failures, last_status FROM tasks" >after &&
	test_cmp before after
'

test_expect_success 'bad input: one line, exit 2 or 3, nothing run' '
	store_sql "SELECT count(*) FROM runs" >before &&
	test_expect_code 3 task-run --replay 0000000000 2>err && test_one_line err &&
	test_expect_code 2 task-run --model x r 2>err && test_one_line err &&
	test_expect_code 2 task-run --replay "$(last_run r)" --provider nope 2>err && test_one_line err &&
	task-add --manual --exec true --name plain x >/dev/null && task-run plain >/dev/null &&
	test_expect_code 2 task-run --replay "$(last_run plain)" 2>err && test_one_line err &&
	grep "^task-run: run .[0-9a-f]\{8\}. cannot be replayed: it made no model call on record (not an llm-call run)$" err &&
	store_sql "SELECT count(*) FROM runs" >after &&
	echo $(( $(cat before) + 1 )) >expect && test_cmp expect after
'

test_done
