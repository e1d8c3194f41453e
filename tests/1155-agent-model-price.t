#!/bin/sh
# A dollar budget counts only the calls of models with a price, so an agent
# that names a model the config has no price for would lift the cap it is
# held to.  Under a dollar budget (the task's or the config's) a model or
# fallback model an agent gives must have a price; a token budget counts
# every model, and the user's own tasks are as before.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
cfg=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# call TOOL ARGS: one tool call as a line.
call() {
	printf '{"name":"%s","arguments":%s}\n' "$1" "$2"
}
id_of() {
	store_sql "SELECT id FROM tasks WHERE name = '$1'"
}

test_expect_success 'a budget the user gave an agent'\''s task: no unpriced model or fallback' '
	printf "model = cheap\nprice.cheap = 1 2\nprice.dear = 10 20\n" >"$cfg" &&
	call task_create "{\"name\":\"poll\",\"prompt\":\"poll\",\"manual\":true}" | task-mcp --call >out &&
	id=$(id_of poll) &&
	task-edit "$id" --budget "\$0.01/day" >/dev/null &&
	{
		call task_update "{\"id\":\"$id\",\"model\":\"free-for-all\"}" &&
		call task_update "{\"id\":\"$id\",\"fallback_models\":[\"dear\",\"free-for-all\"]}"
	} >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	cat >expect <<-\EOF &&
	Refused: model '\''free-for-all'\'' has no price in the user'\''s config (price.free-for-all), so the budget of $0.01 a day could not count what its runs spend; name a model that has one.
	Refused: model '\''free-for-all'\'' has no price in the user'\''s config (price.free-for-all), so the budget of $0.01 a day could not count what its runs spend; name a model that has one.
	EOF
	test_cmp expect out &&
	test "$(store_sql "SELECT coalesce(model, '\''-'\''), coalesce(fallback_models, '\''-'\'') FROM tasks")" = "-|-" &&
	call task_update "{\"id\":\"$id\",\"model\":\"dear\",\"fallback_models\":[\"cheap\"]}" |
		task-mcp --call >out &&
	cat >expect <<-\EOF &&
	Task '\''poll'\'' updated. Changed fields:
	  model: none -> dear
	  fallback_models: none -> ["cheap"]
	Next run: none (runs only when asked: task_run)
	EOF
	test_cmp expect out
'

test_expect_success 'a dollar budget an agent gives holds its models too' '
	reset_store &&
	{
		call task_create "{\"name\":\"a\",\"prompt\":\"a\",\"manual\":true,\"budget\":\"\$1/day\",\"model\":\"free-for-all\"}" &&
		call task_create "{\"name\":\"b\",\"prompt\":\"b\",\"manual\":true,\"budget\":\"\$1/week\",\"fallback_models\":[\"free-for-all\"]}"
	} >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	cat >expect <<-\EOF &&
	Refused: model '\''free-for-all'\'' has no price in the user'\''s config (price.free-for-all), so the budget of $1.00 a day could not count what its runs spend; name a model that has one.
	Refused: model '\''free-for-all'\'' has no price in the user'\''s config (price.free-for-all), so the budget of $1.00 a week could not count what its runs spend; name a model that has one.
	EOF
	test_cmp expect out &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0 &&
	call task_create "{\"name\":\"c\",\"prompt\":\"c\",\"manual\":true,\"budget\":\"200k/day\",\"model\":\"free-for-all\"}" |
		task-mcp --call >out &&
	grep -q "^Created task '\''c'\''" out
'

test_expect_success 'the config'\''s dollar budget holds every model an agent names' '
	reset_store &&
	printf "model = cheap\nprice.cheap = 1 2\nbudget = \$5/day\n" >"$cfg" &&
	call task_create "{\"name\":\"a\",\"prompt\":\"a\",\"manual\":true,\"model\":\"free-for-all\"}" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	cat >expect <<-\EOF &&
	Refused: model '\''free-for-all'\'' has no price in the user'\''s config (price.free-for-all), so the budget of $5.00 a day (all tasks) could not count what its runs spend; name a model that has one.
	EOF
	test_cmp expect out &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 0 &&
	{
		call task_create "{\"name\":\"b\",\"prompt\":\"b\",\"manual\":true}" &&
		call task_create "{\"name\":\"c\",\"prompt\":\"c\",\"manual\":true,\"model\":\"cheap\"}"
	} | task-mcp --call >out &&
	test "$(grep -c "^Created task" out)" = 2 &&
	printf "model = cheap\nbudget = 1M/day\n" >"$cfg" &&
	call task_create "{\"name\":\"d\",\"prompt\":\"d\",\"manual\":true,\"model\":\"free-for-all\"}" |
		task-mcp --call >out &&
	grep -q "^Created task '\''d'\''" out
'

test_expect_success 'the user'\''s own task-edit names any model, as before' '
	printf "model = cheap\nprice.cheap = 1 2\nbudget = \$5/day\n" >"$cfg" &&
	id=$(task-add --manual --name mine --budget "\$1/day" hello) &&
	task-edit "$id" --model free-for-all >out &&
	test "$(store_sql "SELECT model FROM tasks WHERE id = '\''$id'\''")" = free-for-all
'

test_expect_success 'runs of the task keep to the budget: no switch to a free model lifts it' '
	reset_store &&
	printf "model = cheap\nprice.cheap = 10000 10000\n" >"$cfg" &&
	port=$(provider_start fp "") &&
	OPENAI_BASE_URL=http://127.0.0.1:$port/v1 &&
	export OPENAI_BASE_URL &&
	call task_create "{\"name\":\"poll\",\"prompt\":\"poll\",\"manual\":true}" | task-mcp --call >out &&
	id=$(id_of poll) &&
	task-edit "$id" --budget "\$0.01/day" >/dev/null &&
	call task_update "{\"id\":\"$id\",\"model\":\"free-for-all\"}" >calls &&
	test_expect_code 2 task-mcp --call <calls >out &&
	task-run "$id" >out &&
	test_expect_code 4 task-run "$id" >out 2>err &&
	test ! -s out &&
	grep -q "is over budget" err
'

test_done
