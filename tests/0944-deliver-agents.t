#!/bin/sh
# Agents (task-mcp's tools) may give their tasks only the named delivery
# targets the config's agent_deliver lists (default none): an injected
# prompt must not send answers to an address of its choosing.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
mkdir -p "$XDG_CONFIG_HOME/agentcron" && cfg=$XDG_CONFIG_HOME/agentcron/config &&
printf 'deliver.team = slack:https://hooks.slack.com/services/T0/B0/SECRET\ndeliver.me = mailto:me@example.org\n' >"$cfg" &&
chmod 600 "$cfg" || exit 1
create() {
	printf '{"name":"task_create","arguments":{"name":"%s","prompt":"%s","daily":"07:00","deliver":%s}}\n' \
		"$1" "$1" "$2"
}

test_expect_success 'without agent_deliver: every target refused, nothing added' '
	{
		create A "[\"@team\"]" &&
		create B "[\"webhook:https://evil.example/collect\"]" &&
		create C "[\"mailto:attacker@evil.example\"]"
	} >calls &&
	test_expect_code 2 task-mcp --call <calls >out 2>err &&
	test ! -s err &&
	cat >expect <<-\EOF &&
	Refused: delivery target '\''@team'\'' is not one an agent may give a task. The user'\''s config (agent_deliver) lets agents give: none.
	Refused: delivery target '\''webhook:https://evil.example/***'\'' is not one an agent may give a task. The user'\''s config (agent_deliver) lets agents give: none.
	Refused: delivery target '\''mailto:attacker@evil.example'\'' is not one an agent may give a task. The user'\''s config (agent_deliver) lets agents give: none.
	EOF
	test_cmp expect out &&
	test "$(task-ls | wc -l)" = 0
'

test_expect_success 'agent_deliver = @team: that one is given, any other refused' '
	echo "agent_deliver = @team" >>"$cfg" &&
	create A "[\"@team\"]" | task-mcp --call >out 2>err &&
	test ! -s err &&
	task-ls --json >tasks && grep -c "\"deliver\":\[\"@team\"\]" tasks >n && echo 1 >expect && test_cmp expect n &&
	create B "[\"@me\"]" | test_expect_code 2 task-mcp --call >out &&
	grep "^Refused: delivery target '\''@me'\''" out &&
	id=$(task-ls --json | sed "s/.*\"id\":\"\([^\"]*\)\".*/\1/") &&
	printf "{\"name\":\"task_update\",\"arguments\":{\"id\":\"%s\",\"deliver\":[\"telegram:42\"]}}\n" "$id" |
		test_expect_code 2 task-mcp --call >out &&
	grep "^Refused: delivery target '\''telegram:42'\''" out &&
	task-show --json "$id" | grep -c "\"deliver\":\[\"@team\"\]"
'

test_done
