#!/bin/sh
# The Kai profile over MCP: schedule_task with exactly one of execute_at,
# cron and on_heartbeat (refused: agents make no heartbeat additions); ISO 8601 times with an offset or naive in local
# time; past times rejected with a pointer at the Local time line;
# list_tasks with PENDING and COMPLETED; cancel_task; and Kai's failure rule:
# a one-time task backs off until it succeeds.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-04-22T12:00:00Z TZ=Europe/Berlin
export TASK_NOW TZ
q() { store_sql "$1"; }

test_expect_success 'a whole conversation: triggers, validation, listing, cancelling' '
	cat >script <<-\EOF &&
	init 2025-11-25
	@offset call schedule_task {"description":"Call mom","prompt":"Remind me to call mom","execute_at":"2026-04-22T22:32:39+02:00"}
	@zulu call schedule_task {"description":"Zulu","prompt":"Z","execute_at":"2026-04-23T06:00:00Z"}
	@naive call schedule_task {"description":"Naive","prompt":"N","execute_at":"2026-04-22T23:15:00"}
	@daily call schedule_task {"description":"Morning summary","prompt":"Summarise my inbox","cron":"0 9 * * *"}
	@mtw call schedule_task {"description":"Standup","prompt":"Standup notes","cron":"0 14 * * 1,2,3"}
	@monthly call schedule_task {"description":"Rent","prompt":"Pay the rent","cron":"0 8 15 * *"}
	@hb call schedule_task {"description":"Greet","prompt":"Greet me","cron":"30 9 1 6 *"}
	call schedule_task {"description":"x","prompt":"x"}
	call schedule_task {"description":"x","prompt":"x","cron":"0 9 * * *","execute_at":"2026-04-23T06:00:00Z"}
	call schedule_task {"description":"x","prompt":"x","on_heartbeat":false}
	call schedule_task {"description":"x","prompt":"x","on_heartbeat":true,"cron":"0 9 * * *"}
	call schedule_task {"description":"x","prompt":"x","execute_at":"2026-04-22T10:00:00"}
	call schedule_task {"description":"x","prompt":"x","execute_at":"2026-04-22T13:58:30"}
	@grace call schedule_task {"description":"Grace","prompt":"x","execute_at":"2026-04-22T13:59:30"}
	call schedule_task {"description":"x","prompt":"x","execute_at":"tomorrow at 10"}
	call schedule_task {"description":"x","prompt":"x","cron":"0 9 * *"}
	call schedule_task {"prompt":"x","cron":"0 9 * * *"}
	call list_tasks
	call list_tasks {"status":"COMPLETED"}
	call cancel_task {"id":"${hb}"}
	call cancel_task {"id":"${hb}"}
	call schedule_task {"description":"Greet","prompt":"Greet me on every heartbeat","on_heartbeat":true}
	EOF
	client script task-mcp -p kai >out 2>err &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[2] ok
	Task scheduled.
	id: ${offset}
	description: Call mom
	trigger: TIME
	scheduled_at: 2026-04-22T22:32:39+02:00 (2026-04-22 22:32:39 local time, Europe/Berlin)
	cron: none
	[3] ok
	Task scheduled.
	id: ${zulu}
	description: Zulu
	trigger: TIME
	scheduled_at: 2026-04-23T08:00:00+02:00 (2026-04-23 08:00 local time, Europe/Berlin)
	cron: none
	[4] ok
	Task scheduled.
	id: ${naive}
	description: Naive
	trigger: TIME
	scheduled_at: 2026-04-22T23:15:00+02:00 (2026-04-22 23:15 local time, Europe/Berlin)
	cron: none
	[5] ok
	Task scheduled.
	id: ${daily}
	description: Morning summary
	trigger: CRON
	scheduled_at: 2026-04-23T09:00:00+02:00 (2026-04-23 09:00 local time, Europe/Berlin)
	cron: 0 9 * * *
	[6] ok
	Task scheduled.
	id: ${mtw}
	description: Standup
	trigger: CRON
	scheduled_at: 2026-04-27T14:00:00+02:00 (2026-04-27 14:00 local time, Europe/Berlin)
	cron: 0 14 * * 1,2,3
	[7] ok
	Task scheduled.
	id: ${monthly}
	description: Rent
	trigger: CRON
	scheduled_at: 2026-05-15T08:00:00+02:00 (2026-05-15 08:00 local time, Europe/Berlin)
	cron: 0 8 15 * *
	[8] ok
	Task scheduled.
	id: ${hb}
	description: Greet
	trigger: CRON
	scheduled_at: 2026-06-01T09:30:00+02:00 (2026-06-01 09:30 local time, Europe/Berlin)
	cron: 30 9 1 6 *
	[9] error
	Exactly one of execute_at (ISO 8601), cron, or on_heartbeat: true must be provided; they are mutually exclusive.
	[10] error
	Exactly one of execute_at (ISO 8601), cron, or on_heartbeat: true must be provided; they are mutually exclusive.
	[11] error
	Exactly one of execute_at (ISO 8601), cron, or on_heartbeat: true must be provided; they are mutually exclusive.
	[12] error
	Exactly one of execute_at (ISO 8601), cron, or on_heartbeat: true must be provided; they are mutually exclusive.
	[13] error
	execute_at '\''2026-04-22T10:00:00'\'' is in the past: it is 2026-04-22 10:00 in Europe/Berlin, and the local time is now 2026-04-22 14:00 (see the Local time line of the ## Context block). Naive values are read in local time; check for a UTC/local mix-up and retry, preferably with an offset such as +02:00.
	[14] error
	execute_at '\''2026-04-22T13:58:30'\'' is in the past: it is 2026-04-22 13:58:30 in Europe/Berlin, and the local time is now 2026-04-22 14:00 (see the Local time line of the ## Context block). Naive values are read in local time; check for a UTC/local mix-up and retry, preferably with an offset such as +02:00.
	[15] ok
	Task scheduled.
	id: ${grace}
	description: Grace
	trigger: TIME
	scheduled_at: 2026-04-22T13:59:30+02:00 (2026-04-22 13:59:30 local time, Europe/Berlin)
	cron: none
	[16] error
	execute_at must be an ISO 8601 date-time such as 2026-04-22T22:32:39+02:00 (preferred) or 2026-04-22T22:32:39 in local time, not '\''tomorrow at 10'\''.
	[17] error
	Invalid cron expression '\''0 9 * *'\'': expected 5 fields (minute hour day-of-month month day-of-week), got 4.
	[18] error
	description is required.
	[19] ok
	8 tasks:
	- id: ${grace}
	  description: Grace
	  status: PENDING
	  trigger: TIME
	  scheduled_at: 2026-04-22 13:59:30 (Europe/Berlin)
	- id: ${offset}
	  description: Call mom
	  status: PENDING
	  trigger: TIME
	  scheduled_at: 2026-04-22 22:32:39 (Europe/Berlin)
	- id: ${naive}
	  description: Naive
	  status: PENDING
	  trigger: TIME
	  scheduled_at: 2026-04-22 23:15 (Europe/Berlin)
	- id: ${zulu}
	  description: Zulu
	  status: PENDING
	  trigger: TIME
	  scheduled_at: 2026-04-23 08:00 (Europe/Berlin)
	- id: ${daily}
	  description: Morning summary
	  status: PENDING
	  trigger: CRON
	  schedule: Daily at 9:00 (cron: 0 9 * * *)
	  next: 2026-04-23 09:00 (Europe/Berlin)
	- id: ${mtw}
	  description: Standup
	  status: PENDING
	  trigger: CRON
	  schedule: Every Mon, Tue, Wed at 14:00 (cron: 0 14 * * 1,2,3)
	  next: 2026-04-27 14:00 (Europe/Berlin)
	- id: ${monthly}
	  description: Rent
	  status: PENDING
	  trigger: CRON
	  schedule: Monthly on day 15 at 8:00 (cron: 0 8 15 * *)
	  next: 2026-05-15 08:00 (Europe/Berlin)
	- id: ${hb}
	  description: Greet
	  status: PENDING
	  trigger: CRON
	  schedule: Yearly on Jun 1 at 9:30 (cron: 30 9 1 6 *)
	  next: 2026-06-01 09:30 (Europe/Berlin)
	[20] ok
	No COMPLETED tasks.
	[21] ok
	Task cancelled and removed: ${hb} (Greet).
	[22] error
	No task found with id '\''${hb}'\''.
	[23] error
	Refused: agents may not make heartbeat additions (they would run with the heartbeat'\''s authority, not this session'\''s); give the task a schedule instead.
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'the store holds the triggers as our kinds, naive times read in local time' '
	q "SELECT name, kind, coalesce(cron, '\''-'\''), coalesce(plan, '\''-'\''), tz FROM tasks WHERE deleted_at IS NULL ORDER BY name" >actual &&
	cat >expect <<-EOF &&
	Call mom|at|-|$(date -u -d 2026-04-22T20:32:39Z +%s)|Europe/Berlin
	Grace|at|-|$(date -u -d 2026-04-22T11:59:30Z +%s)|Europe/Berlin
	Morning summary|cron|0 9 * * *|-|Europe/Berlin
	Naive|at|-|$(date -u -d 2026-04-22T21:15:00Z +%s)|Europe/Berlin
	Rent|cron|0 8 15 * *|-|Europe/Berlin
	Standup|cron|0 14 * * 1,2,3|-|Europe/Berlin
	Zulu|at|-|$(date -u -d 2026-04-23T06:00:00Z +%s)|Europe/Berlin
	EOF
	test_cmp expect actual &&
	test "$(q "SELECT kind FROM tasks WHERE deleted_at IS NOT NULL")" = cron
'

test_expect_success 'list_tasks: COMPLETED and PENDING' '
	q "UPDATE tasks SET status = '\''completed'\'', next_run_at = NULL, last_result = '\''Called.'\'' WHERE name = '\''Call mom'\''" &&
	q "UPDATE tasks SET consecutive_failures = 2, last_error = '\''model timed out'\'' WHERE name = '\''Rent'\''" &&
	printf "%s\n" "call list_tasks {\"status\":\"COMPLETED\"}" "call list_tasks {\"status\":\"pending\"}" >script &&
	client script task-mcp -p kai >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	1 task:
	- id: <uuid>
	  description: Call mom
	  status: COMPLETED
	  trigger: TIME
	  scheduled_at: 2026-04-22 22:32:39 (Europe/Berlin)
	  last_result: Called.
	[2] ok
	6 tasks:
	- id: <uuid>
	  description: Grace
	  status: PENDING
	  trigger: TIME
	  scheduled_at: 2026-04-22 13:59:30 (Europe/Berlin)
	- id: <uuid>
	  description: Naive
	  status: PENDING
	  trigger: TIME
	  scheduled_at: 2026-04-22 23:15 (Europe/Berlin)
	- id: <uuid>
	  description: Zulu
	  status: PENDING
	  trigger: TIME
	  scheduled_at: 2026-04-23 08:00 (Europe/Berlin)
	- id: <uuid>
	  description: Morning summary
	  status: PENDING
	  trigger: CRON
	  schedule: Daily at 9:00 (cron: 0 9 * * *)
	  next: 2026-04-23 09:00 (Europe/Berlin)
	- id: <uuid>
	  description: Standup
	  status: PENDING
	  trigger: CRON
	  schedule: Every Mon, Tue, Wed at 14:00 (cron: 0 14 * * 1,2,3)
	  next: 2026-04-27 14:00 (Europe/Berlin)
	- id: <uuid>
	  description: Rent
	  status: PENDING
	  trigger: CRON
	  schedule: Monthly on day 15 at 8:00 (cron: 0 8 15 * *)
	  next: 2026-05-15 08:00 (Europe/Berlin)
	  consecutive_failures: 2
	  last_result: model timed out
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'a failing one-time task backs off until it succeeds, never COMPLETED before' '
	TASK_DB=$(new_store backoff) &&
	export TASK_DB &&
	echo "{\"name\":\"schedule_task\",\"arguments\":{\"description\":\"Flaky\",\"prompt\":\"p\",\"execute_at\":\"2026-04-22T16:00:00+02:00\"}}" |
		task-mcp -p kai --call >/dev/null &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		next=$(task-ls | cut -f4) &&
		TASK_NOW=$next TASK_EXEC=false task-tick >/dev/null 2>&1 &&
		echo "$next -> $(task-ls | cut -f3,4 | tr "\t" " ")" || return 1
	done >actual &&
	cat >expect <<-\EOF &&
	2026-04-22T14:00:00Z -> pending 2026-04-22T14:01:00Z
	2026-04-22T14:01:00Z -> pending 2026-04-22T14:03:00Z
	2026-04-22T14:03:00Z -> pending 2026-04-22T14:07:00Z
	2026-04-22T14:07:00Z -> pending 2026-04-22T14:15:00Z
	2026-04-22T14:15:00Z -> pending 2026-04-22T14:31:00Z
	2026-04-22T14:31:00Z -> pending 2026-04-22T15:03:00Z
	2026-04-22T15:03:00Z -> pending 2026-04-22T16:03:00Z
	2026-04-22T16:03:00Z -> pending 2026-04-22T17:03:00Z
	2026-04-22T17:03:00Z -> pending 2026-04-22T18:03:00Z
	2026-04-22T18:03:00Z -> pending 2026-04-22T19:03:00Z
	EOF
	test_cmp expect actual &&
	echo "{\"name\":\"list_tasks\"}" | TASK_NOW=2026-04-22T18:30:00Z task-mcp -p kai --call >out &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	1 task:
	- id: <uuid>
	  description: Flaky
	  status: PENDING
	  trigger: TIME
	  scheduled_at: 2026-04-22 16:00 (Europe/Berlin)
	  next: 2026-04-22 21:03 (Europe/Berlin)
	  consecutive_failures: 10
	  last_result: exited with status 1
	EOF
	test_cmp expect actual &&
	task-show "$(task-ls | cut -f1)" | grep "^retries:" >actual &&
	echo "retries:      until it succeeds" >expect &&
	test_cmp expect actual &&
	printf "#!/bin/sh\necho Done.\n" >succeed && chmod +x succeed &&
	TASK_NOW=2026-04-22T19:03:00Z TASK_EXEC=$PWD/succeed task-tick >/dev/null &&
	printf "%s\n" "{\"name\":\"list_tasks\",\"arguments\":{\"status\":\"PENDING\"}}" \
		"{\"name\":\"list_tasks\",\"arguments\":{\"status\":\"COMPLETED\"}}" |
		TASK_NOW=2026-04-22T19:04:00Z task-mcp -p kai --call >out &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	No PENDING tasks.
	1 task:
	- id: <uuid>
	  description: Flaky
	  status: COMPLETED
	  trigger: TIME
	  scheduled_at: 2026-04-22 16:00 (Europe/Berlin)
	  last_result: Done.
	EOF
	test_cmp expect actual
'

test_done
