#!/bin/sh
# llm-call's side of outcomes, through task-tick and the stand-in
# provider: a scheduled run offers the model report_outcome, whose status
# and summary (untrusted) become the run's; an empty answer is a failure
# that says so; an MCP server that asks for a person (elicitation) is
# declined at once and the run ends blocked, saying what it wanted; so
# does a call of a tool that needs a person's confirmation, never made.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-23T06:30:00Z
export TASK_NOW
openai_stand_in || exit 1
unset TASK_MCP TASK_MCP_ALLOW
mkdir -p "$XDG_CONFIG_HOME/agentcron"
cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<EOF
{ "mcpServers": { "ask": { "command": "$AC_TOP/tests/fixtures/mcp/scripted.sh", "args": ["elicit"] } } }
EOF
chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json"
reason() {
	task-log "$(task-log --task "$1" --limit 1 | cut -f1)" | sed -n "/^error:/,/^model calls:/p" |
		grep -v "^model calls:"
}
status() { task-log --task "$1" --limit 1 | cut -f7; }

test_expect_success 'report_outcome nothing_to_do: a skip with the model'\''s summary, no mail' '
	task-add --at 07:00 --name Mail \
		"[[call report_outcome {\"status\":\"nothing_to_do\",\"summary\":\"no new mail\"}]] Check the mail." >/dev/null &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >out 2>err && test ! -s err &&
	grep -q "^body.tools\[0\].function.name = \"report_outcome\"" fp/last.req &&
	echo skipped >expect && status Mail >actual && test_cmp expect actual &&
	printf "error:\n  reported nothing to do: no new mail\n" >expect && reason Mail >actual &&
	test_cmp expect actual &&
	task-log --calls >calls && grep -q "	tool results: Recorded: nothing_to_do\.$" calls
'

test_expect_success 'report_outcome blocked: the run is blocked, its summary cleaned and the reason' '
	task-add --at 07:05 --name Bank \
		"[[call report_outcome {\"status\":\"blocked\",\"summary\":\"needs\\u001b[1m a login\\nto the bank\"}]] Pay the bills." >/dev/null &&
	TASK_NOW=2026-11-23T07:05:10Z task-tick >out 2>err &&
	grep -q "\"status\":\"blocked\"" out &&
	echo blocked >expect && status Bank >actual && test_cmp expect actual &&
	printf "error:\n  reported blocked: needs [1m a login to the bank\n" >expect && reason Bank >actual &&
	test_cmp expect actual &&
	task-show Bank >show && grep -q "^status: *failed" show
'

test_expect_success 'report_outcome with a bad status is refused to the model; the run goes on' '
	task-add --at 07:10 --name Odd \
		"[[call report_outcome {\"status\":\"great\",\"summary\":\"x\"}]] Do it." >/dev/null &&
	TASK_NOW=2026-11-23T07:10:10Z task-tick >out 2>err && test ! -s err &&
	echo success >expect && status Odd >actual && test_cmp expect actual &&
	task-log "$(task-log --task Odd --limit 1 | cut -f1)" | grep -q "tool results: Not recorded: status must be one of"
'

test_expect_success 'an empty answer is a failure that says so, retried as any' '
	task-add --at 07:15 --name Quiet "[[silent]] Say nothing." >/dev/null &&
	TASK_NOW=2026-11-23T07:15:10Z task-tick >out 2>err &&
	echo failed >expect && status Quiet >actual && test_cmp expect actual &&
	reason Quiet | grep -q "^  llm-call: the model gave an empty answer (finish reason: stop)$" &&
	task-show Quiet >show && grep -q "^status: *pending" show &&
	test_expect_code 1 llm-call "[[silent]] again" >out 2>err &&
	echo "llm-call: the model gave an empty answer (finish reason: stop)" >expect && test_cmp expect err &&
	test ! -s out
'

test_expect_success 'a run that never reaches a model is a failure' '
	task-add --manual --name Nowhere "Hello" >/dev/null &&
	test_expect_code 1 env OPENAI_BASE_URL=http://127.0.0.1:1/v1 task-run Nowhere >out 2>err &&
	echo failed >expect && status Nowhere >actual && test_cmp expect actual &&
	reason Nowhere | grep -q "127.0.0.1:1"
'

test_expect_success 'an MCP server that asks for a person: declined at once, the run ends blocked' '
	rm -f elicit.answer &&
	n=$(ls fp | grep -c "\.req$") &&
	task-add --at 07:20 --name Charge --mcp ask "[[call mcp__ask__probe {}]] Charge the client." >/dev/null &&
	TASK_NOW=2026-11-23T07:20:10Z task-tick >out 2>err &&
	echo blocked >expect && status Charge >actual && test_cmp expect actual &&
	printf "error:\n  reported blocked: MCP server %sask%s asked for input that no one is there to give: Which account should be charged? [2J\n" "'\''" "'\''" >expect &&
	reason Charge >actual && test_cmp expect actual &&
	echo "{\"jsonrpc\":\"2.0\",\"id\":\"ask-1\",\"result\":{\"action\":\"decline\"}}" >expect &&
	test_cmp expect elicit.answer &&
	test_expect_code 1 llm-call --mcp ask "[[call mcp__ask__probe {}]] Charge the client." >out 2>err &&
	echo "llm-call: blocked: MCP server '\''ask'\'' asked for input that no one is there to give: Which account should be charged? [2J" >expect &&
	test_cmp expect err &&
	test ! -s out
'

test_expect_success 'a tool that needs confirmation is never called: the run ends blocked, saying which' '
	cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<-EOF &&
	{ "mcpServers": { "sched": { "command": "task-mcp", "confirm": ["task_delete"] },
	  "all": { "command": "task-mcp", "confirm": true } } }
	EOF
	task-add --manual --name Keep "kept" >/dev/null &&
	keep=$(task-ls | awk "\$NF == \"Keep\" { print \$1 }") &&
	task-add --at 07:25 --name Tidy --mcp sched \
		"[[call mcp__sched__task_delete {\"id\":\"$keep\"}]] Tidy up." >/dev/null &&
	TASK_NOW=2026-11-23T07:25:10Z task-tick >out 2>err &&
	echo blocked >expect && status Tidy >actual && test_cmp expect actual &&
	printf "error:\n  reported blocked: tool %smcp__sched__task_delete%s needs a person%ss confirmation (\"confirm\" in mcp.json), which no one is there to give\n" "'\''" "'\''" "'\''" >expect &&
	reason Tidy >actual && test_cmp expect actual &&
	task-show Keep >/dev/null &&
	test_expect_code 1 llm-call --mcp all "[[call mcp__all__task_list {}]] List." >out 2>err &&
	echo "llm-call: blocked: tool '\''mcp__all__task_list'\'' needs a person'\''s confirmation (\"confirm\" in mcp.json), which no one is there to give" >expect &&
	test_cmp expect err && test ! -s out &&
	llm-call --mcp sched "[[call mcp__sched__task_show {\"id\":\"$keep\"}]] Show." >out 2>err &&
	test ! -s err
'

test_expect_success 'confirm of the wrong shape: one line, exit 2, nothing called' '
	cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<-EOF &&
	{ "mcpServers": { "sched": { "command": "task-mcp", "confirm": "task_delete" } } }
	EOF
	n=$(ls fp | grep -c "\.req$") &&
	test_expect_code 2 llm-call --mcp sched "Hello." >out 2>err &&
	echo "llm-call: $XDG_CONFIG_HOME/agentcron/mcp.json: server '\''sched'\'': \"confirm\" is true, false or an array of its tool names" >expect &&
	test_cmp expect err && test ! -s out &&
	test "$(ls fp | grep -c "\.req$")" = "$n"
'

test_done
