#!/bin/sh
# A task's settings (task_inputs in common/task_fields.c) through every
# surface that takes or shows them: the flag of task-add and task-edit, the
# argument of the MCP tools task_create and task_update, and task-show.
# The same value given either way makes the same task.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T09:30:00Z

# settings ID: task-show's lines of the settings, in its order.
settings() {
	task-show "$1" | grep -E "^(timeout|retries|pause after|missed|deadline|overlap|notify on|deliver on|budget|scope|keeps):"
}

test_expect_success 'flags of task-add (long and short) set every setting; task-show shows each' '
	id=$(task-add --force --manual --name flags -t 90s -r 1 --pause-after 3 --missed skip \
		--deadline 10m --overlap skip --notify-on failure,change --deliver-on failure \
		--budget "\$2/day" --scope ops --keep 30d --gate-timeout 5s "Check the disks") &&
	settings "$id" >actual &&
	cat >expect <<-\EOF &&
	timeout:      90s
	retries:      1
	pause after:  3 failed occurrences in a row
	missed:       skip
	deadline:     start within 10m00s of each instant, else missed
	overlap:      skip
	notify on:    failure,change
	deliver on:   failure
	budget:       $2/day, $0.00 spent this day
	scope:        ops
	keeps:        30 days, and the last 20 runs
	EOF
	test_cmp expect actual
'

# agent_task NAME ARGS: the id of a task an agent made with task_create ARGS.
agent_task() {
	printf '{"name":"task_create","arguments":{"name":"%s","prompt":"Check the disks","manual":true,"force":true%s}}\n' "$1" "$2" |
		task-mcp --call >created &&
	sed -n "s/^ID: //p" created
}

test_expect_success 'the same values as MCP arguments of task_create and task_update make the same settings' '
	a=$(task-add --force --manual --name a --retries 1 --pause-after 3 --deadline 2h --overlap replace \
		--notify-on always --budget 200k/month --keep 40 "Check the disks") &&
	b=$(agent_task b ",\"retries\":\"1\",\"pause_after\":3,\"deadline\":\"2h\",\"overlap\":\"replace\",\"notify_on\":\"always\",\"budget\":\"200k/month\",\"keep\":\"40\"") &&
	c=$(agent_task c "") && test -n "$b" && test -n "$c" &&
	printf "%s\n" "{\"name\":\"task_update\",\"arguments\":{\"id\":\"$c\",\"retries\":1,\"pause_after\":\"3\",\"deadline\":\"2h\",\"overlap\":\"replace\",\"notify_on\":\"always\",\"budget\":\"200k/month\",\"keep\":\"40\"}}" >calls &&
	task-mcp --call <calls >out 2>err &&
	settings "$a" >expect &&
	grep -q "^overlap: *replace$" expect &&
	settings "$b" >actual &&
	test_cmp expect actual &&
	settings "$c" >actual &&
	test_cmp expect actual
'

test_expect_success 'empty values restore the defaults, by flag and by MCP argument alike' '
	a=$(task-add --force --manual --name a2 -r 2 --pause-after 1 --deadline 5m --notify-on never "Check the disks") &&
	b=$(agent_task b2 ",\"retries\":2,\"pause_after\":1,\"deadline\":\"5m\",\"notify_on\":\"never\"") &&
	task-edit --deadline none --notify-on "" "$a" &&
	printf "%s\n" "{\"name\":\"task_update\",\"arguments\":{\"id\":\"$b\",\"deadline\":\"none\",\"notify_on\":\"\"}}" >calls &&
	task-mcp --call <calls >out 2>err &&
	settings "$a" >actual &&
	printf "%s\n" "retries:      2" "pause after:  1 failed occurrences in a row" "missed:       once" >expect &&
	test_cmp expect actual &&
	settings "$b" >actual &&
	test_cmp expect actual &&
	task-edit --retries "" --pause-after "" "$a" &&
	settings "$a" >actual &&
	echo "missed:       once" >expect &&
	test_cmp expect actual
'

test_expect_success 'a bad value is refused with its flag or argument named, nothing changed' '
	id=$(agent_task bad ",\"deadline\":\"5m\"") &&
	settings "$id" >before &&
	test_expect_code 2 task-edit --deadline soon "$id" 2>err &&
	grep -q "deadline" err && test $(wc -l <err) -eq 1 &&
	test_expect_code 2 task-edit --overlap maybe "$id" 2>err &&
	echo "task-edit: bad --overlap '"'"'maybe'"'"': use queue, skip or replace" >expect &&
	test_cmp expect err &&
	printf "%s\n" "{\"name\":\"task_update\",\"arguments\":{\"id\":\"$id\",\"overlap\":\"maybe\"}}" \
		"{\"name\":\"task_update\",\"arguments\":{\"id\":\"$id\",\"deadline\":\"soon\"}}" >calls &&
	test_expect_code 2 task-mcp --call <calls >out 2>err &&
	grep -q "overlap" out && grep -q "deadline" out &&
	settings "$id" >after &&
	test_cmp before after
'

test_expect_success 'tools/list: the settings close task_create and task_update, typed' '
	printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}" \
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}" | task-mcp >out &&
	node -e "
		const l = require(\"fs\").readFileSync(0, \"utf8\").split(\"\n\").filter(Boolean).map(JSON.parse);
		for (const t of l[1].result.tools.filter(t => /^task_(create|update)$/.test(t.name))) {
			const p = t.inputSchema.properties, k = Object.keys(p);
			const at = k.indexOf(\"scope\");
			console.log(t.name, k.slice(at, at + 8).map(n => n + \":\" + p[n].type +
			    (p[n].enum ? \"(\" + p[n].enum.join(\"|\") + \")\" : \"\")).join(\" \"));
		}" <out >actual &&
	cat >expect <<-\EOF &&
	task_create scope:string overlap:string(queue|skip|replace) budget:string notify_on:string deadline:string retries:integer pause_after:integer keep:string
	task_update scope:string overlap:string(queue|skip|replace) budget:string notify_on:string deadline:string retries:integer pause_after:integer keep:string
	EOF
	test_cmp expect actual
'

test_done
