#!/bin/sh
# The agent-zero profile: every example call of its scheduler document,
# replayed as written (its own {"thoughts", "tool_name", "tool_args"} JSON,
# trailing commas included) through task-mcp --call and over MCP; its
# states, types, filters and dedicated_context on our store.
. "$AC_TOP/tests/lib.sh"
# "Today is 2025-04-29 according to system prompt", as the document says.
TASK_NOW=2025-04-29T12:00:00Z
export TASK_NOW
q() { store_sql "$1"; }

test_expect_success 'the three create examples, as the document writes them' '
	cat >calls <<-\EOF &&
	~~~json
	{
	    "thoughts": [
	        "I must create new scheduled task with name XXX running every 20 minutes in a separate chat"
	    ],
	    "tool_name": "scheduler:create_scheduled_task",
	    "tool_args": {
	        "name": "XXX",
	        "system_prompt": "You are a software developer",
	        "prompt": "Send the user an email with a greeting using python and smtp. The user'\''s address is: xxx@yyy.zzz",
	        "attachments": [],
	        "schedule": {
	            "minute": "*/20",
	            "hour": "*",
	            "day": "*",
	            "month": "*",
	            "weekday": "*",
	        },
	        "dedicated_context": true
	    }
	}
	~~~
	~~~json
	{
	    "thoughts": [
	        "I must create new scheduled task with name XXX running every 20 minutes"
	    ],
	    "tool_name": "scheduler:create_adhoc_task",
	    "tool_args": {
	        "name": "XXX",
	        "system_prompt": "You are a software developer",
	        "prompt": "Send the user an email with a greeting using python and smtp. The user'\''s address is: xxx@yyy.zzz",
	        "attachments": [],
	        "dedicated_context": false
	    }
	}
	~~~
	~~~json
	{
	    "thoughts": [
	        "I must create new planned task to run tomorow at 6:25 PM",
	        "Today is 2025-04-29 according to system prompt"
	    ],
	    "tool_name": "scheduler:create_planned_task",
	    "tool_args": {
	        "name": "XXX",
	        "system_prompt": "You are a software developer",
	        "prompt": "Send the user an email with a greeting using python and smtp. The user'\''s address is: xxx@yyy.zzz",
	        "attachments": [],
	        "plan": ["2025-04-29T18:25:00"],
	        "dedicated_context": false
	    }
	}
	~~~
	EOF
	task-mcp -p agent-zero --call <calls >out 2>err &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	Scheduled task '\''XXX'\'' created: <uuid>
	Adhoc task '\''XXX'\'' created: <uuid>
	Planned task '\''XXX'\'' created: <uuid>
	EOF
	test_cmp expect actual &&
	test ! -s err &&
	q "SELECT kind, cron, plan, system_prompt, context, attachments FROM tasks ORDER BY kind" >actual &&
	cat >expect <<-EOF &&
	cron|*/20 * * * *||You are a software developer||
	manual|||You are a software developer|agent-zero|
	plan||$(date -u -d 2025-04-29T18:25:00Z +%s)|You are a software developer|agent-zero|
	EOF
	test_cmp expect actual
'

test_expect_success 'the list example and its filters' '
	cat >calls <<-\EOF &&
	{
	    "thoughts": [
	        "I must look for planned runnable tasks with name ... and state idle or error",
	        "The tasks should run within next 20 minutes"
	    ],
	    "tool_name": "scheduler:list_tasks",
	    "tool_args": {
	        "state": ["idle", "error"],
	        "type": ["planned"],
	        "next_run_within": 20
	    }
	}
	{"tool_name": "scheduler:list_tasks", "tool_args": {"state": ["idle", "error"], "type": ["planned"], "next_run_within": 400}}
	{"tool_name": "scheduler:list_tasks", "tool_args": {"type": ["scheduled", "adhoc"], "next_run_after": 10}}
	EOF
	task-mcp -p agent-zero --call <calls >out &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	[]
	[
	    {
	        "uuid": "<uuid>",
	        "name": "XXX",
	        "type": "planned",
	        "state": "idle",
	        "plan": [
	            "2025-04-29T18:25:00+00:00"
	        ],
	        "next_run": "2025-04-29T18:25:00+00:00"
	    }
	]
	[
	    {
	        "uuid": "<uuid>",
	        "name": "XXX",
	        "type": "scheduled",
	        "state": "idle",
	        "schedule": {
	            "minute": "*/20",
	            "hour": "*",
	            "day": "*",
	            "month": "*",
	            "weekday": "*",
	            "timezone": "UTC"
	        },
	        "next_run": "2025-04-29T12:20:00+00:00"
	    }
	]
	EOF
	test_cmp expect actual
'

test_expect_success 'states: idle, running, disabled, error from our status and enabled flag' '
	q "UPDATE tasks SET status = '\''running'\'' WHERE kind = '\''manual'\''" &&
	q "UPDATE tasks SET last_status = '\''failed'\'', last_run_at = 0 WHERE kind = '\''plan'\''" &&
	q "UPDATE tasks SET enabled = 0 WHERE kind = '\''cron'\''" &&
	printf "%s\n" "{\"tool_name\":\"scheduler:list_tasks\",\"tool_args\":{}}" \
		"{\"tool_name\":\"scheduler:list_tasks\",\"tool_args\":{\"state\":[\"error\"]}}" \
		"{\"tool_name\":\"scheduler:list_tasks\",\"tool_args\":{\"state\":\"running\"}}" >calls &&
	task-mcp -p agent-zero --call <calls >out &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	[
	    {
	        "uuid": "<uuid>",
	        "name": "XXX",
	        "type": "scheduled",
	        "state": "disabled",
	        "schedule": {
	            "minute": "*/20",
	            "hour": "*",
	            "day": "*",
	            "month": "*",
	            "weekday": "*",
	            "timezone": "UTC"
	        },
	        "next_run": null
	    },
	    {
	        "uuid": "<uuid>",
	        "name": "XXX",
	        "type": "planned",
	        "state": "error",
	        "plan": [
	            "2025-04-29T18:25:00+00:00"
	        ],
	        "next_run": "2025-04-29T18:25:00+00:00"
	    },
	    {
	        "uuid": "<uuid>",
	        "name": "XXX",
	        "type": "adhoc",
	        "state": "running",
	        "schedule": null,
	        "next_run": null
	    }
	]
	[
	    {
	        "uuid": "<uuid>",
	        "name": "XXX",
	        "type": "planned",
	        "state": "error",
	        "plan": [
	            "2025-04-29T18:25:00+00:00"
	        ],
	        "next_run": "2025-04-29T18:25:00+00:00"
	    }
	]
	[
	    {
	        "uuid": "<uuid>",
	        "name": "XXX",
	        "type": "adhoc",
	        "state": "running",
	        "schedule": null,
	        "next_run": null
	    }
	]
	EOF
	test_cmp expect actual &&
	q "UPDATE tasks SET status = '\''pending'\'', enabled = 1, last_status = NULL, last_run_at = NULL"
'

test_expect_success 'show, run and delete examples: unknown uuids, as written' '
	cat >calls <<-\EOF &&
	{
	    "thoughts": [
	        "I need details of task xxx-yyy-zzz",
	    ],
	    "tool_name": "scheduler:show_task",
	    "tool_args": {
	        "uuid": "xxx-yyy-zzz",
	    }
	}
	{
	    "thoughts": [
	        "I must run task xyz-123",
	    ],
	    "tool_name": "scheduler:run_task",
	    "tool_args": {
	        "uuid": "xyz-123",
	    }
	}
	{
	    "thoughts": [
	        "I must delete task xyz-123",
	    ],
	    "tool_name": "scheduler:delete_task",
	    "tool_args": {
	        "uuid": "xyz-123",
	    }
	}
	EOF
	test_expect_code 2 task-mcp -p agent-zero --call <calls >actual 2>err &&
	cat >expect <<-\EOF &&
	Task not found: xxx-yyy-zzz
	Task not found: xyz-123
	Task not found: xyz-123
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'show, run and delete over MCP on real tasks' '
	adhoc=$(q "SELECT id FROM tasks WHERE kind = '\''manual'\''") &&
	plan=$(q "SELECT id FROM tasks WHERE kind = '\''plan'\''") &&
	cat >script <<-EOF &&
	init 2025-11-25
	call scheduler:show_task {"uuid":"$adhoc"}
	call scheduler:run_task {"uuid":"$adhoc"}
	call scheduler:delete_task {"uuid":"$plan"}
	call scheduler:show_task {"uuid":"$plan"}
	call scheduler:run_task {}
	EOF
	client script task-mcp -p agent-zero >out &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[2] ok
	{
	    "uuid": "<uuid>",
	    "name": "XXX",
	    "type": "adhoc",
	    "state": "idle",
	    "schedule": null,
	    "next_run": null,
	    "system_prompt": "You are a software developer",
	    "prompt": "Send the user an email with a greeting using python and smtp. The user'\''s address is: xxx@yyy.zzz",
	    "attachments": [],
	    "context_id": "agent-zero",
	    "dedicated_context": false,
	    "last_run": null,
	    "last_result": null,
	    "created_at": "2025-04-29T12:00:00+00:00",
	    "updated_at": "2025-04-29T12:00:00+00:00"
	}
	[3] ok
	Task queued: <uuid> (it starts at the scheduler'\''s next pass)
	[4] ok
	Task deleted: <uuid>
	[5] error
	Task not found: <uuid>
	[6] error
	Task UUID is required
	exit 0
	EOF
	test_cmp expect actual &&
	test "$(q "SELECT queued FROM tasks WHERE id = '\''$adhoc'\''")" = 1 &&
	q "UPDATE tasks SET status = '\''running'\'' WHERE id = '\''$adhoc'\''" &&
	echo "{\"tool_name\":\"scheduler:run_task\",\"tool_args\":{\"uuid\":\"$adhoc\"}}" |
		test_expect_code 2 task-mcp -p agent-zero --call >actual &&
	echo "Task is already running: $adhoc" >expect &&
	test_cmp expect actual
'

test_expect_success 'not dedicated: the chat it was created in (TASK_CONTEXT), else one shared chat' '
	echo "{\"tool_name\":\"scheduler:create_adhoc_task\",\"tool_args\":{\"name\":\"In chat\",\"prompt\":\"p\"}}" |
		TASK_CONTEXT=chat-42 task-mcp -p agent-zero --call >/dev/null &&
	echo "{\"tool_name\":\"scheduler:create_adhoc_task\",\"tool_args\":{\"name\":\"Own chat\",\"prompt\":\"p\",\"dedicated_context\":true}}" |
		TASK_CONTEXT=chat-42 task-mcp -p agent-zero --call >/dev/null &&
	q "SELECT name, coalesce(context, '\''-'\'') FROM tasks WHERE name LIKE '\''%chat'\'' ORDER BY name" >actual &&
	cat >expect <<-\EOF &&
	In chat|chat-42
	Own chat|-
	EOF
	test_cmp expect actual
'

test_expect_success 'bad schedules and plans are refused with its messages' '
	cat >calls <<-\EOF &&
	{"tool_name":"scheduler:create_scheduled_task","tool_args":{"name":"Bad","prompt":"x","schedule":{"minute":"*/61"}}}
	{"tool_name":"scheduler:create_scheduled_task","tool_args":{"name":"Bad","prompt":"x","schedule":{"minutes":"5"}}}
	{"tool_name":"scheduler:create_planned_task","tool_args":{"name":"Bad","prompt":"x","plan":["tomorrow"]}}
	{"tool_name":"scheduler:create_planned_task","tool_args":{"name":"Bad","prompt":"x","plan":["2025-04-28T10:00:00"]}}
	{"tool_name":"scheduler:create_scheduled_task","tool_args":{"name":"Bad","prompt":"x"}}
	{"tool_name":"scheduler:list_tasks","tool_args":{"state":["sleeping"]}}
	EOF
	n=$(q "SELECT count(*) FROM tasks") &&
	test_expect_code 2 task-mcp -p agent-zero --call <calls >actual &&
	cat >expect <<-\EOF &&
	Invalid cron expression: */61 * * * * (bad minute field '\''*/61'\'': step '\''61'\'' is not a number from 1 to 60).
	Invalid schedule key '\''minutes'\'': the schedule takes minute, hour, day, month, weekday (cron field strings) and timezone.
	Invalid datetime: tomorrow
	2025-04-28 10:00 UTC is in the past (read in UTC).
	Missing required argument '\''schedule'\''.
	Argument '\''state'\'' must be idle, running, disabled or error, not '\''sleeping'\''.
	EOF
	test_cmp expect actual &&
	test "$(q "SELECT count(*) FROM tasks")" = "$n"
'

test_expect_success 'a schedule in another zone, numbers for fields' '
	echo "{\"tool_name\":\"scheduler:create_scheduled_task\",\"tool_args\":{\"name\":\"Berlin\",\"prompt\":\"x\",\"schedule\":{\"minute\":0,\"hour\":9,\"weekday\":\"1-5\",\"timezone\":\"Europe/Berlin\"}}}" |
		task-mcp -p agent-zero --call >out &&
	q "SELECT cron, tz, next_run_at FROM tasks WHERE name = '\''Berlin'\''" >actual &&
	echo "0 9 * * 1-5|Europe/Berlin|$(date -u -d 2025-04-30T07:00:00Z +%s)" >expect &&
	test_cmp expect actual
'

test_expect_success 'the document'\''s examples over MCP, a whole conversation' '
	TASK_DB=$(new_store mcp) &&
	cat >script <<-\EOF &&
	init 2025-11-25
	@sched call scheduler:create_scheduled_task {"name":"XXX","system_prompt":"You are a software developer","prompt":"Send the user an email with a greeting using python and smtp. The user'\''s address is: xxx@yyy.zzz","attachments":[],"schedule":{"minute":"*/20","hour":"*","day":"*","month":"*","weekday":"*"},"dedicated_context":true}
	@adhoc call scheduler:create_adhoc_task {"name":"XXX","system_prompt":"You are a software developer","prompt":"Send the user an email with a greeting using python and smtp. The user'\''s address is: xxx@yyy.zzz","attachments":[],"dedicated_context":false}
	@plan call scheduler:create_planned_task {"name":"XXX","system_prompt":"You are a software developer","prompt":"Send the user an email with a greeting using python and smtp. The user'\''s address is: xxx@yyy.zzz","attachments":[],"plan":["2025-04-29T18:25:00"],"dedicated_context":false}
	call scheduler:list_tasks {"state":["idle","error"],"type":["planned"],"next_run_within":20}
	call scheduler:show_task {"uuid":"xxx-yyy-zzz"}
	call scheduler:run_task {"uuid":"xyz-123"}
	call scheduler:delete_task {"uuid":"xyz-123"}
	call scheduler:run_task {"uuid":"${adhoc}"}
	call scheduler:delete_task {"uuid":"${plan}"}
	call scheduler:list_tasks {"type":["planned","adhoc"]}
	EOF
	TASK_DB=$TASK_DB client script task-mcp --profile agent-zero >out &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[2] ok
	Scheduled task '\''XXX'\'' created: ${sched}
	[3] ok
	Adhoc task '\''XXX'\'' created: ${adhoc}
	[4] ok
	Planned task '\''XXX'\'' created: ${plan}
	[5] ok
	[]
	[6] error
	Task not found: xxx-yyy-zzz
	[7] error
	Task not found: xyz-123
	[8] error
	Task not found: xyz-123
	[9] ok
	Task queued: ${adhoc} (it starts at the scheduler'\''s next pass)
	[10] ok
	Task deleted: ${plan}
	[11] ok
	[
	    {
	        "uuid": "${adhoc}",
	        "name": "XXX",
	        "type": "adhoc",
	        "state": "idle",
	        "schedule": null,
	        "next_run": null
	    }
	]
	exit 0
	EOF
	test_cmp expect actual
'

test_done
