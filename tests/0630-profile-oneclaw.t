#!/bin/sh
# The OneClaw RFC-027 profile over MCP: list_scheduled_tasks,
# run_scheduled_task, update_scheduled_task, delete_scheduled_task and the
# create tool in their style, with the return formats of the RFC verbatim.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
q() { store_sql "$1"; }

test_expect_success 'no tasks: "No scheduled tasks configured."' '
	printf "%s\n" "init 2025-11-25" "call list_scheduled_tasks" >script &&
	client script task-mcp -p oneclaw >out &&
	sed 1d out >actual &&
	printf "[2] ok\nNo scheduled tasks configured.\nexit 0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'create: daily and weekly tasks' '
	cat >script <<-\EOF &&
	@brief call create_scheduled_task {"name":"Morning Briefing","prompt":"Brief me on the news","schedule_type":"daily","hour":7,"minute":0}
	@weekly call create_scheduled_task {"name":"Weekly Summary","prompt":"Summarise my week","schedule_type":"weekly","day_of_week":"monday","hour":9}
	EOF
	client script task-mcp -p oneclaw >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Morning Briefing'\'' created successfully (ID: ${brief}). Schedule: Daily at 07:00. Next trigger: 2026-03-02 07:00.
	[2] ok
	Task '\''Weekly Summary'\'' created successfully (ID: ${weekly}). Schedule: Every Monday at 09:00. Next trigger: 2026-03-02 09:00.
	exit 0
	EOF
	test_cmp expect actual
'

# The RFC's example list: one task that ran fine, one disabled whose last
# run failed.
test_expect_success 'list: the RFC'\''s return format' '
	brief=$(q "SELECT id FROM tasks WHERE name = '\''Morning Briefing'\''") &&
	weekly=$(q "SELECT id FROM tasks WHERE name = '\''Weekly Summary'\''") &&
	q "UPDATE tasks SET last_run_at = $(date -u -d 2026-03-01T07:00:00Z +%s), last_status = '\''success'\'' WHERE id = '\''$brief'\''" &&
	q "UPDATE tasks SET last_run_at = $(date -u -d 2026-02-24T09:01:00Z +%s), last_status = '\''failed'\'', enabled = 0 WHERE id = '\''$weekly'\''" &&
	echo "call list_scheduled_tasks {}" >script &&
	client script task-mcp -p oneclaw >out &&
	sed "s/\[id: <uuid>\] Morning/[id: abc123] Morning/; s/\[id: <uuid>\] Weekly/[id: def456] Weekly/" out >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Found 2 scheduled tasks:

	1. [id: abc123] Morning Briefing
	   Schedule: Daily at 07:00
	   Enabled: true
	   Last execution: 2026-03-01 07:00 - SUCCESS
	   Next trigger: 2026-03-02 07:00

	2. [id: def456] Weekly Summary
	   Schedule: Every Monday at 09:00
	   Enabled: false
	   Last execution: 2026-02-24 09:01 - FAILED
	   Next trigger: None
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'run: queued, also when disabled; not found' '
	weekly=$(q "SELECT id FROM tasks WHERE name = '\''Weekly Summary'\''") &&
	cat >script <<-EOF &&
	call run_scheduled_task {"task_id":"$weekly"}
	call run_scheduled_task {"task_id":"xyz"}
	call run_scheduled_task {}
	EOF
	client script task-mcp -p oneclaw >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Weekly Summary'\'' has been queued for execution. You will receive a notification when it completes.
	[2] error
	Task not found with ID '\''xyz'\''.
	[3] error
	Task ID is required.
	exit 0
	EOF
	test_cmp expect actual &&
	q "SELECT queued, enabled FROM tasks WHERE id = '\''$weekly'\''" >actual &&
	echo "1|0" >expect &&
	test_cmp expect actual
'

test_expect_success 'update: partial, listing the changed fields and the next trigger' '
	brief=$(q "SELECT id FROM tasks WHERE name = '\''Morning Briefing'\''") &&
	weekly=$(q "SELECT id FROM tasks WHERE name = '\''Weekly Summary'\''") &&
	cat >script <<-EOF &&
	call update_scheduled_task {"task_id":"$brief","hour":8}
	call update_scheduled_task {"task_id":"$brief","hour":8,"name":"Morning Briefing"}
	call update_scheduled_task {"task_id":"$weekly","day_of_week":"friday","minute":30,"enabled":true}
	call update_scheduled_task {"task_id":"$weekly","schedule_type":"one_time","date":"2026-03-05"}
	call update_scheduled_task {"task_id":"$brief","prompt":"Brief me on sport","enabled":false}
	EOF
	client script task-mcp -p oneclaw >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Morning Briefing'\'' updated successfully. Changed fields: hour (7 -> 8). Next trigger: 2026-03-02 08:00.
	[2] ok
	Task '\''Morning Briefing'\'' updated successfully. Changed fields: none. Next trigger: 2026-03-02 08:00.
	[3] ok
	Task '\''Weekly Summary'\'' updated successfully. Changed fields: minute (0 -> 30), day_of_week (monday -> friday), enabled (false -> true). Next trigger: 2026-03-06 09:30.
	[4] ok
	Task '\''Weekly Summary'\'' updated successfully. Changed fields: schedule_type (weekly -> one_time), date (none -> 2026-03-05). Next trigger: 2026-03-05 09:30.
	[5] ok
	Task '\''Morning Briefing'\'' updated successfully. Changed fields: prompt (Brief me on the news -> Brief me on sport), enabled (true -> false). Next trigger: None.
	exit 0
	EOF
	test_cmp expect actual &&
	q "SELECT name, kind, cron, plan, enabled FROM tasks ORDER BY name" >actual &&
	cat >expect <<-EOF &&
	Morning Briefing|cron|0 8 * * *||0
	Weekly Summary|at||$(date -u -d 2026-03-05T09:30:00Z +%s)|1
	EOF
	test_cmp expect actual &&
	echo "call list_scheduled_tasks" >script &&
	client script task-mcp -p oneclaw >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Found 2 scheduled tasks:

	1. [id: <uuid>] Morning Briefing
	   Schedule: Daily at 08:00
	   Enabled: false
	   Last execution: 2026-03-01 07:00 - SUCCESS
	   Next trigger: None

	2. [id: <uuid>] Weekly Summary
	   Schedule: One-time on 2026-03-05 at 09:30
	   Enabled: true
	   Last execution: 2026-02-24 09:01 - FAILED
	   Next trigger: 2026-03-05 09:30
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'update: validation errors, the task unchanged' '
	brief=$(q "SELECT id FROM tasks WHERE name = '\''Morning Briefing'\''") &&
	q "SELECT * FROM tasks ORDER BY id" >store.before &&
	cat >script <<-EOF &&
	call update_scheduled_task {"task_id":"xyz","hour":8}
	call update_scheduled_task {"task_id":"$brief","name":""}
	call update_scheduled_task {"task_id":"$brief","hour":24}
	call update_scheduled_task {"task_id":"$brief","minute":60}
	call update_scheduled_task {"task_id":"$brief","schedule_type":"weekly"}
	call update_scheduled_task {"task_id":"$brief","schedule_type":"one_time"}
	call update_scheduled_task {"task_id":"$brief","schedule_type":"one_time","date":"2026-02-30"}
	call update_scheduled_task {"task_id":"$brief","schedule_type":"one_time","date":"2026-02-28"}
	call update_scheduled_task {"task_id":"$brief","day_of_week":"someday"}
	call update_scheduled_task {"task_id":"$brief","schedule_type":"hourly"}
	EOF
	client script task-mcp -p oneclaw >actual &&
	cat >expect <<-\EOF &&
	[1] error
	Task not found with ID '\''xyz'\''.
	[2] error
	Task name is required.
	[3] error
	Hour must be between 0 and 23.
	[4] error
	Minute must be between 0 and 59.
	[5] error
	Day of week is required for weekly tasks.
	[6] error
	Date is required for one-time tasks.
	[7] error
	Date must be in YYYY-MM-DD format.
	[8] error
	2026-02-28 08:00 UTC is in the past (read in UTC).
	[9] error
	Day of week must be a day name such as '\''monday'\''.
	[10] error
	Argument '\''schedule_type'\'' must be one_time, daily or weekly, not '\''hourly'\''.
	exit 0
	EOF
	test_cmp expect actual &&
	q "SELECT * FROM tasks ORDER BY id" >store.after &&
	test_cmp store.before store.after
'

test_expect_success 'an update re-arms a one-time task that has run' '
	weekly=$(q "SELECT id FROM tasks WHERE name = '\''Weekly Summary'\''") &&
	q "UPDATE tasks SET status = '\''completed'\'', next_run_at = NULL, due_at = NULL WHERE id = '\''$weekly'\''" &&
	echo "call update_scheduled_task {\"task_id\":\"$weekly\",\"date\":\"2026-03-09\"}" >script &&
	client script task-mcp -p oneclaw >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Weekly Summary'\'' updated successfully. Changed fields: date (2026-03-05 -> 2026-03-09). Next trigger: 2026-03-09 09:30.
	exit 0
	EOF
	test_cmp expect actual &&
	test "$(q "SELECT status FROM tasks WHERE id = '\''$weekly'\''")" = pending
'

test_expect_success 'create: one-time, and its errors' '
	cat >script <<-\EOF &&
	call create_scheduled_task {"name":"Dentist","prompt":"Remind me of the dentist","schedule_type":"one_time","date":"2026-03-02","hour":15,"minute":30}
	call create_scheduled_task {"prompt":"x","schedule_type":"daily","hour":7}
	call create_scheduled_task {"name":"x","schedule_type":"daily","hour":7}
	call create_scheduled_task {"name":"x","prompt":"x","hour":7}
	call create_scheduled_task {"name":"x","prompt":"x","schedule_type":"daily"}
	call create_scheduled_task {"name":"x","prompt":"x","schedule_type":"one_time","hour":7}
	EOF
	client script task-mcp -p oneclaw >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Dentist'\'' created successfully (ID: <uuid>). Schedule: One-time on 2026-03-02 at 15:30. Next trigger: 2026-03-02 15:30.
	[2] error
	Task name is required.
	[3] error
	Task prompt is required.
	[4] error
	Schedule type is required: one_time, daily or weekly.
	[5] error
	Hour is required.
	[6] error
	Date is required for one-time tasks.
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'delete: removed, alarm cancelled; then not found' '
	brief=$(q "SELECT id FROM tasks WHERE name = '\''Morning Briefing'\''") &&
	printf "%s\n" "call delete_scheduled_task {\"task_id\":\"$brief\"}" \
		"call delete_scheduled_task {\"task_id\":\"$brief\"}" "call delete_scheduled_task {}" >script &&
	client script task-mcp -p oneclaw >out &&
	sed "s/$brief/ID/" out >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Morning Briefing'\'' has been deleted. Its alarm has been cancelled.
	[2] error
	Task not found with ID '\''<uuid>'\''.
	[3] error
	Task ID is required.
	exit 0
	EOF
	test_cmp expect actual &&
	test "$(q "SELECT CASE WHEN deleted_at IS NOT NULL THEN 1 ELSE 0 END FROM tasks WHERE id = '\''$brief'\''")" = 1
'

test_expect_success 'the native tools are not in this profile' '
	echo "call task_list" >script &&
	client script task-mcp -p oneclaw >actual &&
	cat >expect <<-\EOF &&
	{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: task_list"}}
	exit 0
	EOF
	test_cmp expect actual
'

test_done
