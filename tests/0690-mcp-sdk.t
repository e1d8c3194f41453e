#!/bin/sh
# The official MCP TypeScript SDK's client (@modelcontextprotocol/sdk,
# installed once into build/mcp-sdk from tests/mcp-sdk/package.json)
# connects to task-mcp over stdio, lists the tools of every profile and
# calls each one.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
sdk=$AC_TOP/build/mcp-sdk

test_expect_success 'the SDK is installed (once for both runs of the suite)' '
	npm_once mcp-sdk node_modules/@modelcontextprotocol/sdk/package.json &&
	# The other pass may be running it: put in place whole.
	cp "$AC_TOP/tests/mcp-sdk/client.mjs" "$sdk/client.mjs.$$" &&
	mv -f "$sdk/client.mjs.$$" "$sdk/client.mjs" &&
	grep -q "\"version\": \"1.32.2\"" "$sdk/node_modules/@modelcontextprotocol/sdk/package.json"
'

test_expect_success 'the SDK client connects, lists every tool and calls each' '
	node "$sdk/client.mjs" "$(command -v task-mcp)" --profile all >actual 2>err &&
	cat >expect <<-\EOF &&
	client asks for 2025-11-25
	server answers 2025-11-25
	server agentcron 0.1.0, tools capability: {"listChanged":false}
	27 tools: task_create task_list task_show task_run task_update task_cancel task_delete create_scheduled_task list_scheduled_tasks run_scheduled_task update_scheduled_task delete_scheduled_task scheduler:list_tasks scheduler:show_task scheduler:run_task scheduler:delete_task scheduler:create_scheduled_task scheduler:create_adhoc_task scheduler:create_planned_task schedule_task list_tasks cancel_task scheduler.create scheduler.list scheduler.cancel scheduler.update scheduleAgentTask
	task_create -> ok: Created task '\''SDK check'\''.
	task_list -> ok: Found 1 task:
	task_show -> ok: Task '\''SDK check'\''
	task_update -> ok: Task '\''SDK check'\'' updated. Changed fields:
	task_run -> ok: Task '\''SDK check'\'' has been queued for execution; it runs at the next scheduler pass.
	task_cancel -> ok: Task '\''SDK check'\'' has been cancelled; it will not run again.
	task_delete -> ok: Task '\''SDK check'\'' has been deleted; it will not run again (task-rm --undo restores it).
	task_show -> error: Task not found with ID '\''xyz'\''.
	create_scheduled_task -> ok: Task '\''Morning Briefing'\'' created successfully (ID: <b>). Schedule: Daily at 07:00. Next trigger: 2026-03-02 07:00.
	list_scheduled_tasks -> ok: Found 1 scheduled task:
	update_scheduled_task -> ok: Task '\''Morning Briefing'\'' updated successfully. Changed fields: hour (7 -> 8). Next trigger: 2026-03-02 08:00.
	run_scheduled_task -> ok: Task '\''Morning Briefing'\'' has been queued for execution. You will receive a notification when it completes.
	delete_scheduled_task -> ok: Task '\''Morning Briefing'\'' has been deleted. Its alarm has been cancelled.
	scheduler:create_scheduled_task -> ok: Scheduled task '\''XXX'\'' created: <c>
	scheduler:create_adhoc_task -> ok: Adhoc task '\''YYY'\'' created: <d>
	scheduler:create_planned_task -> ok: Planned task '\''ZZZ'\'' created: <e>
	scheduler:list_tasks -> ok: [
	scheduler:show_task -> ok: {
	scheduler:run_task -> ok: Task queued: <d> (it starts at the scheduler'\''s next pass)
	scheduler:delete_task -> ok: Task deleted: <e>
	schedule_task -> ok: Task scheduled.
	list_tasks -> ok: 3 tasks:
	cancel_task -> ok: Task cancelled and removed: <f> (Morning summary).
	scheduler.create -> ok: Created recurring job <g> (cron: 0 9 * * 1). Next run: 2026-03-02T09:00:00+00:00.
	scheduler.list -> ok: 3 jobs:
	scheduler.update -> ok: Job <g> updated. Next run: 2026-03-02T10:00:00+00:00.
	scheduler.cancel -> ok: Job <g> cancelled.
	scheduleAgentTask -> ok: Okay, I'\''ve scheduled "Call Sarah reminder" for Sun Mar 01 2026 13:00:00 GMT+0000 (Coordinated Universal Time). (ID: <uuid>)
	every listed tool was called
	unknown tool -> McpError -32602
	ping ok
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'the SDK sees only the profile asked for' '
	cat >"$sdk/list.mjs" <<-\EOF &&
	import { Client } from "@modelcontextprotocol/sdk/client/index.js";
	import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
	const [command, ...args] = process.argv.slice(2);
	const client = new Client({ name: "list", version: "1" });
	await client.connect(new StdioClientTransport({ command, args, env: { ...process.env } }));
	const { tools } = await client.listTools();
	console.log(tools.map((t) => t.name).join(" "));
	await client.close();
	EOF
	node "$sdk/list.mjs" "$(command -v task-mcp)" -p wooster,kai >actual &&
	echo "schedule_task list_tasks cancel_task scheduleAgentTask" >expect &&
	test_cmp expect actual
'

test_done
