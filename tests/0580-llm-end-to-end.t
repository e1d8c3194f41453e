#!/bin/sh
# The whole path: task-add, task-tick, llm-call, a provider on 127.0.0.1,
# and the answer in task-show and the store.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-e2e-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
# As under cron: no provider variables, everything from the config file.
mkdir -p "$XDG_CONFIG_HOME/agentcron"
cat >"$XDG_CONFIG_HOME/agentcron/config" <<EOT
openai_api_key = $KEY
openai_base_url = http://127.0.0.1:$port/v1
EOT
chmod 600 "$XDG_CONFIG_HOME/agentcron/config"
printf 'milk\neggs\n' >list.txt

test_expect_success 'a one-shot task fires through llm-call and its answer shows' '
	id=$(TASK_NOW=2026-11-22T08:00:00Z task-add --at 2026-11-22T09:00:00Z --name Brief \
		-s "Be brief." "Summarise the news") &&
	env -i PATH="$PATH" HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" TASK_DB="$TASK_DB" \
		TZ=UTC TASK_NOW=2026-11-22T09:00:30Z task-tick >tick 2>err &&
	test_json_norm <tick >actual &&
	cat >expect <<-\EOT &&
	{"run_id":"<id1>","task_id":"<id2>","name":"Brief","trigger":"schedule","slot":"2026-11-22T09:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-22T09:00:30Z","ended_at":"2026-11-22T09:00:30Z","duration_ms":<ms>,"error":null}
	EOT
	test_cmp expect actual &&
	task-show $id >show &&
	sed -n "/^last result:/,/^recent runs:/p" show >actual &&
	cat >expect <<-\EOT &&
	last result:
	  echo: Summarise the news
	recent runs:
	EOT
	test_cmp expect actual &&
	grep "^body.messages" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[0].role = "system"
	body.messages[0].content = "Be brief."
	body.messages[1].role = "user"
	body.messages[1].content = "Summarise the news"
	EOT
	test_cmp expect actual
'

test_expect_success 'the call is recorded against its run and task' '
	id=$(task-ls --json | sed -n "s/.*\"id\":\"\([0-9a-f-]*\)\".*\"name\":\"Brief\".*/\1/p") &&
	store_sql "SELECT CASE WHEN c.task_id = r.task_id THEN 1 ELSE 0 END, c.prompt, c.answer,
		CASE WHEN c.error IS NULL THEN 1 ELSE 0 END
		FROM llm_calls c JOIN runs r ON r.id = c.run_id WHERE r.task_id = '\''$id'\''" >actual &&
	echo "1|Summarise the news|echo: Summarise the news|1" >expect &&
	test_cmp expect actual
'

test_expect_success 'model and attachments travel from the task to the request' '
	id=$(TASK_NOW=2026-11-22T08:00:00Z task-add --at 2026-11-22T10:00:00Z -m gpt-4.1 \
		-A "$TEST_TMP/list.txt" "What is on the list?") &&
	TASK_NOW=2026-11-22T10:00:30Z task-tick >tick &&
	grep "^body" fp/last.req | grep -v "^body.tools\[0\]\.function\.[dp]" >actual &&
	cat >expect <<-EOT &&
	body.model = "gpt-4.1"
	body.messages[0].role = "user"
	body.messages[0].content = "<attachment name=\"$TEST_TMP/list.txt\">\nmilk\neggs\n</attachment>\n\nWhat is on the list?"
	body.tools[0].type = "function"
	body.tools[0].function.name = "report_outcome"
	EOT
	test_cmp expect actual
'

test_expect_success 'a shared context carries over between two scheduled runs' '
	id=$(TASK_NOW=2026-11-22T08:00:00Z task-add --cron "0 11 * * *" --context standup \
		--name Standup "What did we do?") &&
	TASK_NOW=2026-11-22T11:00:30Z task-tick >tick1 &&
	TASK_NOW=2026-11-23T11:00:30Z task-tick >tick2 &&
	test_json_norm <tick2 >actual &&
	cat >expect <<-\EOT &&
	{"run_id":"<id1>","task_id":"<id2>","name":"Standup","trigger":"schedule","slot":"2026-11-23T11:00:00Z","status":"success","exit_code":0,"started_at":"2026-11-23T11:00:30Z","ended_at":"2026-11-23T11:00:30Z","duration_ms":<ms>,"error":null}
	EOT
	test_cmp expect actual &&
	grep "^body.messages" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[0].role = "user"
	body.messages[0].content = "What did we do?"
	body.messages[1].role = "assistant"
	body.messages[1].content = "echo: What did we do?"
	body.messages[2].role = "user"
	body.messages[2].content = "What did we do?"
	EOT
	test_cmp expect actual &&
	store_sql "SELECT count(DISTINCT run_id) FROM messages WHERE context = '\''standup'\''" >actual &&
	echo 2 >expect &&
	test_cmp expect actual
'

test_expect_success 'a provider error fails the run with its message' '
	id=$(TASK_NOW=2026-11-22T08:00:00Z task-add --at 2026-11-22T12:00:00Z -r 0 "[[400]] broken") &&
	TASK_NOW=2026-11-22T12:00:30Z task-tick >tick 2>err &&
	test_json_norm <tick >actual &&
	cat >expect <<-\EOT &&
	{"run_id":"<id1>","task_id":"<id2>","name":"[[400]] broken","trigger":"schedule","slot":"2026-11-22T12:00:00Z","status":"failed","exit_code":78,"started_at":"2026-11-22T12:00:30Z","ended_at":"2026-11-22T12:00:30Z","duration_ms":<ms>,"error":"exited with status 78: llm-call: openai: 400 Invalid request"}
	EOT
	test_cmp expect actual &&
	task-show --json $id >show &&
	grep -q "\"last_error\":\"[^\"]*llm-call: openai: 400 Invalid request\"" show
'

test_expect_success 'the key is nowhere in the store' '
	test "$(cat "$TASK_DB"* | grep -a -c -F "$KEY")" = 0
'

test_expect_success 'no request was malformed' '
	test ! -e fp/errors.log
'

test_done
