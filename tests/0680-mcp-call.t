#!/bin/sh
# task-mcp --call: tool calls as agents write them without MCP, read from
# standard input (one a line, or spread over lines with agent-zero's
# trailing commas), each result printed; --json for one JSON line each.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW

test_expect_success 'the call shapes agents emit' '
	cat >calls <<-\EOF &&
	{"tool_name": "task_create", "tool_args": {"name": "A", "prompt": "Alpha", "daily": "07:00"}}
	{"name": "task_create", "arguments": "{\"name\":\"B\",\"prompt\":\"Beta\",\"daily\":\"08:00\"}"}
	{"action": "task_create", "action_input": {"name": "C", "prompt": "Gamma", "daily": "09:00"}}
	{"tool": "task_list", "input": {"limit": 1}}
	{"name": "task_list"}
	EOF
	task-mcp --call <calls >out 2>err &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	Created task '\''A'\''.
	ID: <uuid>
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 07:00 UTC
	Created task '\''B'\''.
	ID: <uuid>
	Schedule: Daily at 08:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 08:00 UTC
	Created task '\''C'\''.
	ID: <uuid>
	Schedule: Daily at 09:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 09:00 UTC
	Found 1 task:

	1. A
	   ID: <uuid>
	   Schedule: Daily at 07:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 07:00 UTC
	   Last run: never

	More tasks match: raise limit (at most 50) or narrow the filters.
	Found 3 tasks:

	1. A
	   ID: <uuid>
	   Schedule: Daily at 07:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 07:00 UTC
	   Last run: never

	2. B
	   ID: <uuid>
	   Schedule: Daily at 08:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 08:00 UTC
	   Last run: never

	3. C
	   ID: <uuid>
	   Schedule: Daily at 09:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 09:00 UTC
	   Last run: never
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'calls over several lines, in fences, with trailing commas and thoughts' '
	cat >calls <<-\EOF &&
	```json
	{
	    "thoughts": [
	        "I must list the tasks, with a { brace and a \"quote\" in my thoughts",
	    ],
	    "tool_name": "task_list",
	    "tool_args": {
	        "status": ["pending",],
	        "limit": 1,
	    },
	}
	```

	{"tool_name": "task_show", "tool_args": {"id": "none-such",},}
	EOF
	test_expect_code 2 task-mcp --call <calls >out 2>err &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	Found 1 task:

	1. A
	   ID: <uuid>
	   Schedule: Daily at 07:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 07:00 UTC
	   Last run: never

	More tasks match: raise limit (at most 50) or narrow the filters.
	Task not found with ID '\''none-such'\''.
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success '--json: one line per result with the tool, the error flag and the text' '
	printf "%s\n" "{\"name\":\"task_show\",\"arguments\":{\"id\":\"zzzz\"}}" "{\"name\":\"task_list\",\"arguments\":{\"limit\":1}}" |
		test_expect_code 2 task-mcp --call --json >out &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	{"tool":"task_show","is_error":true,"text":"Task not found with ID '\''zzzz'\''."}
	{"tool":"task_list","is_error":false,"text":"Found 1 task:\n\n1. A\n   ID: <uuid>\n   Schedule: Daily at 07:00 (UTC)\n   Status: pending, enabled\n   Next run: 2026-03-02 07:00 UTC\n   Last run: never\n\nMore tasks match: raise limit (at most 50) or narrow the filters.\n"}
	EOF
	test_cmp expect actual
'

test_expect_success 'unreadable calls are reported with their line; the others still run' '
	cat >calls <<-\EOF &&
	{"tool_name": "task_list", "tool_args": {"limit": 1}
	not a call at all
	[1, 2]
	{"tool_args": {}}
	{"tool_name": "rm_rf", "tool_args": {}}
	{"tool_name": "schedule_task", "tool_args": {}}
	{"tool_name": "task_list", "tool_args": {"status": "failed"}}
	EOF
	test_expect_code 2 task-mcp --call <calls >actual 2>err &&
	cat >expect <<-\EOF &&
	Unknown tool '\''rm_rf'\''.
	Unknown tool '\''schedule_task'\''.
	No tasks found.
	EOF
	test_cmp expect actual &&
	cat >expect <<-\EOF &&
	task-mcp: stdin:1: invalid JSON
	task-mcp: stdin:3: not a JSON object
	task-mcp: stdin:4: no tool name ("tool_name" or "name")
	EOF
	test_cmp expect err
'

test_expect_success 'exit 0 when every call worked, nothing for no input' '
	echo "{\"name\":\"task_list\",\"arguments\":{\"status\":\"cancelled\"}}" | task-mcp --call >actual &&
	echo "No tasks found." >expect &&
	test_cmp expect actual &&
	task-mcp --call </dev/null >out 2>err &&
	test ! -s out &&
	test ! -s err
'

test_expect_success 'the profiles given are the tools callable' '
	echo "{\"name\":\"list_tasks\",\"arguments\":{}}" | task-mcp -p kai --call >out &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	3 tasks:
	- id: <uuid>
	  description: A
	  status: PENDING
	  trigger: CRON
	  schedule: Daily at 7:00 (cron: 0 7 * * *)
	  next: 2026-03-02 07:00 (UTC)
	- id: <uuid>
	  description: B
	  status: PENDING
	  trigger: CRON
	  schedule: Daily at 8:00 (cron: 0 8 * * *)
	  next: 2026-03-02 08:00 (UTC)
	- id: <uuid>
	  description: C
	  status: PENDING
	  trigger: CRON
	  schedule: Daily at 9:00 (cron: 0 9 * * *)
	  next: 2026-03-02 09:00 (UTC)
	EOF
	test_cmp expect actual &&
	echo "{\"name\":\"task_list\",\"arguments\":{}}" | test_expect_code 2 task-mcp -p kai --call >actual &&
	echo "Unknown tool '\''task_list'\''." >expect &&
	test_cmp expect actual
'

test_expect_success 'bytes that are not UTF-8 in a tool name print as U+FFFD; in arguments they are refused' '
	task-ls --json >before &&
	printf "{\"name\":\"rm\377\",\"arguments\":{}}\n{\"name\":\"task_create\",\"arguments\":{\"name\":\"N\351\",\"prompt\":\"p\",\"manual\":true}}\n" |
		test_expect_code 2 task-mcp --call --json >out 2>err &&
	R=$(printf "\357\277\275") &&
	cat >expect <<-EOF &&
	{"tool":"rm$R","is_error":true,"text":"Unknown tool '\''rm$R'\''."}
	EOF
	test_cmp expect out &&
	echo "task-mcp: stdin:2: argument '\''name'\'' is not UTF-8 text" >expect &&
	test_cmp expect err &&
	task-ls --json >after && test_cmp before after
'

test_expect_success '--list-tools prints each name and description' '
	task-mcp -p toolpack --list-tools >actual &&
	cat >expect <<-\EOF &&
	scheduler.create	Schedule a new recurring (cron) or one-shot (run_at) agent invocation. Either cron or run_at must be provided, not both. A pending job with the same intent, schedule and channel is returned instead of a duplicate.
	scheduler.list	List scheduled jobs with ID, status, type, next run time and last error.
	scheduler.cancel	Cancel a pending job by ID.
	scheduler.update	Modify an existing pending job. Cannot provide both cron and run_at.
	EOF
	test_cmp expect actual
'

test_done
