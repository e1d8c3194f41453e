#!/bin/sh
# Named contexts: earlier messages go along with each call and the
# exchange is added; every call is recorded in the store.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY ANTHROPIC_BASE_URL ANTHROPIC_API_KEY

test_expect_success 'the second call of a context carries the first exchange' '
	llm-call --context work "first question" >out &&
	llm-call --context work -s "Sys." "second question" >out &&
	echo "echo: second question" >expect &&
	test_cmp expect out &&
	grep "^body.messages" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[0].role = "system"
	body.messages[0].content = "Sys."
	body.messages[1].role = "user"
	body.messages[1].content = "first question"
	body.messages[2].role = "assistant"
	body.messages[2].content = "echo: first question"
	body.messages[3].role = "user"
	body.messages[3].content = "second question"
	EOT
	test_cmp expect actual
'

test_expect_success 'the same context in Anthropic form, alternating roles' '
	llm-call -m claude-3-5-haiku-latest --context work "third question" >out &&
	grep "^body.messages" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[0].role = "user"
	body.messages[0].content = "first question"
	body.messages[1].role = "assistant"
	body.messages[1].content = "echo: first question"
	body.messages[2].role = "user"
	body.messages[2].content = "second question"
	body.messages[3].role = "assistant"
	body.messages[3].content = "echo: second question"
	body.messages[4].role = "user"
	body.messages[4].content = "third question"
	EOT
	test_cmp expect actual
'

test_expect_success 'without a context every call is fresh' '
	llm-call "alone" >out &&
	grep -c "^body.messages\[.*\].role" fp/last.req >actual &&
	echo 1 >expect &&
	test_cmp expect actual
'

test_expect_success 'TASK_CONTEXT is the default context; contexts are apart' '
	echo "in other" | TASK_CONTEXT=other llm-call >out &&
	grep -c "^body.messages\[.*\].role" fp/last.req >actual &&
	echo 1 >expect &&
	test_cmp expect actual &&
	store_sql "SELECT context, role, content FROM messages ORDER BY id" >actual &&
	cat >expect <<-\EOT &&
	work|user|first question
	work|assistant|echo: first question
	work|user|second question
	work|assistant|echo: second question
	work|user|third question
	work|assistant|echo: third question
	other|user|in other
	
	other|assistant|echo: in other
	
	EOT
	test_cmp expect actual
'

test_expect_success 'a failed call leaves the context as it was' '
	before=$(store_sql "SELECT count(*) FROM messages") &&
	test_expect_code 78 llm-call --context work "[[400]] bad" 2>err &&
	test "$(store_sql "SELECT count(*) FROM messages")" = "$before"
'

test_expect_success 'each call is recorded: run, task, model, usage, answer' '
	TASK_RUN_ID=run-1 TASK_ID=task-1 llm-call -s "Be brief." -o max_tokens=9 "count these words" >out &&
	store_sql "SELECT run_id, task_id, context, provider, model, system_prompt, prompt,
		answer, input_tokens, output_tokens, finish_reason, error,
		CASE WHEN duration_ms >= 0 THEN 1 ELSE 0 END
		FROM llm_calls ORDER BY id DESC LIMIT 1" >actual &&
	echo "run-1|task-1||openai|gpt-4o-mini|Be brief.|count these words|echo: count these words|5|4|stop||1" >expect &&
	test_cmp expect actual
'

test_expect_success 'a failure is recorded with its error' '
	TASK_RUN_ID=run-2 test_expect_code 78 llm-call --context work "[[400]] bad again" 2>err &&
	store_sql "SELECT run_id, context, prompt, CASE WHEN answer IS NULL THEN 1 ELSE 0 END, error FROM llm_calls ORDER BY id DESC LIMIT 1" >actual &&
	echo "run-2|work|[[400]] bad again|1|openai: 400 Invalid request" >expect &&
	test_cmp expect actual
'

test_expect_success '--no-log records no call, yet keeps the context' '
	calls=$(store_sql "SELECT count(*) FROM llm_calls") &&
	llm-call -n --context nolog "quiet" >out &&
	test "$(store_sql "SELECT count(*) FROM llm_calls")" = "$calls" &&
	test "$(store_sql "SELECT count(*) FROM messages WHERE context = '\''nolog'\''")" = 2
'

test_expect_success 'at most the last 100 messages go along, starting with the user' '
	store_sql "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
		INSERT INTO messages (context, role, content, created_at)
		SELECT '\''long'\'', CASE i % 2 WHEN 1 THEN '\''user'\'' ELSE '\''assistant'\'' END, '\''m'\'' || i, 0 FROM n" &&
	llm-call --context long "last" >out &&
	grep "^body.messages\[0\]" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[0].role = "user"
	body.messages[0].content = "m21"
	EOT
	test_cmp expect actual &&
	grep -c "^body.messages\[.*\].role" fp/last.req >actual &&
	echo 101 >expect &&
	test_cmp expect actual
'

test_expect_success 'an unreadable store is an error when a context needs it' '
	echo "not a database" >bad.db &&
	TASK_DB=$TEST_TMP/bad.db test_expect_code 1 llm-call --context x hi >out 2>err &&
	test_one_line err &&
	test ! -s out
'

test_expect_success 'no request was malformed' '
	test ! -e fp/errors.log
'

test_done
