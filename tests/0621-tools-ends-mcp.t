#!/bin/sh
# The native tools and the fields task-add gained: until and count (a
# recurrence that ends, said in the reply), mcp and mcp_allow, and
# date_order = dmy from the config file reaching the time expressions the
# tools read (task_create, task_update, Wooster's scheduleAgentTask).
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-23T09:30:00Z
export TASK_NOW
mkdir -p config/agentcron
# The MCP servers an agent may give tasks outside a run.
echo "agent_mcp = notes, files" >config/agentcron/config || exit 1

test_expect_success 'task_create with until, count, mcp and mcp_allow: the reply says the end' '
	cat >script <<-\EOF &&
	init 2025-11-25
	@hourly call task_create {"name":"Hourly","prompt":"Check the build","cron":"0 * * * *","tz":"Europe/London","until":"17:00"}
	@week call task_create {"name":"Week","prompt":"Stretch","daily":"09:00","tz":"Europe/London","count":7,"mcp":["notes","files"],"mcp_allow":"mcp__notes__read_*"}
	call task_show {"id":"${week}"}
	EOF
	client script task-mcp >out 2>err &&
	sed 1d out | sed "/^Created: /d" >actual &&
	cat >expect <<-\EOF &&
	[2] ok
	Created task '\''Hourly'\''.
	ID: ${hourly}
	Schedule: Hourly at :00 until 2026-11-23 17:00 (Europe/London)
	Status: pending, enabled
	Next run: 2026-11-23 10:00 GMT
	Ends: 2026-11-23 17:00 GMT (until); 8 occurrences left, then the task is completed.
	[3] ok
	Created task '\''Week'\''.
	ID: ${week}
	Schedule: Daily at 09:00, 7 times (Europe/London)
	Status: pending, enabled
	Next run: 2026-11-24 09:00 GMT
	Ends: 2026-11-30 09:00 GMT (after 7 occurrences); 7 occurrences left, then the task is completed.
	[4] ok
	Task '\''Week'\''
	ID: ${week}
	Schedule: Daily at 09:00, 7 times (Europe/London)
	Status: pending, enabled
	Next run: 2026-11-24 09:00 GMT
	Ends: 2026-11-30 09:00 GMT (after 7 occurrences); 7 occurrences left, then the task is completed.
	Cron: 0 9 * * *
	Last run: never
	Failures in a row: 0
	Prompt: Stretch
	MCP servers: notes, files
	MCP tools allowed: mcp__notes__read_*
	Made by: an agent, in session <uuid>
	Recent runs (UTC):
	  none
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err &&
	task-ls --json | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"Hourly","prompt":"Check the build","system_prompt":null,"kind":"cron","cron":"0 * * * *","at":null,"plan":null,"tz":"Europe/London","description":"Hourly at :00 until 2026-11-23 17:00","enabled":true,"status":"pending","next_run_at":"2026-11-23T10:00:00Z","due_at":"2026-11-23T10:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":"2026-11-23T17:00:00Z","count":0,"ends_at":"2026-11-23T17:00:00Z","mcp":null,"mcp_allow":null,"scope":null,"origin":"agent:session:<id2>","created_at":"2026-11-23T09:30:00Z","updated_at":"2026-11-23T09:30:00Z","deleted_at":null}
	{"id":"<id3>","name":"Week","prompt":"Stretch","system_prompt":null,"kind":"cron","cron":"0 9 * * *","at":null,"plan":null,"tz":"Europe/London","description":"Daily at 09:00, 7 times","enabled":true,"status":"pending","next_run_at":"2026-11-24T09:00:00Z","due_at":"2026-11-24T09:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":7,"ends_at":"2026-11-30T09:00:00Z","mcp":["notes","files"],"mcp_allow":["mcp__notes__read_*"],"scope":null,"origin":"agent:session:<id2>","created_at":"2026-11-23T09:30:00Z","updated_at":"2026-11-23T09:30:00Z","deleted_at":null}
	EOF
	test_cmp expect actual
'

test_expect_success 'task_update: a new count counts from now; none and 0 remove the end; [] the servers' '
	id=$(task-ls --json | sed -n "s/^{\"id\":\"\([^\"]*\)\",\"name\":\"Week\".*/\1/p") &&
	cat >script <<-EOF &&
	call task_update {"id":"$id","count":2}
	call task_update {"id":"$id","until":"2026-11-24 18:00"}
	call task_update {"id":"$id","until":"nov 26 12:00"}
	call task_update {"id":"$id","until":"none","count":0,"mcp":[]}
	EOF
	TASK_NOW=2026-11-25T12:00:00Z client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Week'\'' updated. Changed fields:
	  count: 7 -> 2
	Next run: 2026-11-26 09:00 GMT
	Ends: 2026-11-27 09:00 GMT (after 2 occurrences); 2 occurrences left, then the task is completed.
	[2] error
	until: '\''2026-11-24 18:00'\'' is 2026-11-24 18:00 GMT in Europe/London, which is in the past.
	[3] ok
	Task '\''Week'\'' updated. Changed fields:
	  until: none -> 2026-11-26T12:00:00Z
	Next run: 2026-11-26 09:00 GMT
	Ends: 2026-11-26 12:00 GMT (after 2 occurrences or until 2026-11-26 12:00, whichever is first); 1 occurrence left, then the task is completed.
	[4] ok
	Task '\''Week'\'' updated. Changed fields:
	  until: 2026-11-26T12:00:00Z -> none
	  count: 2 -> 0
	  mcp: ["notes","files"] -> none
	Next run: 2026-11-26 09:00 GMT
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'the tools refuse what task-add refuses, in sentences' '
	task-ls --json >before &&
	cat >script <<-\EOF &&
	call task_create {"prompt":"a","at":"tomorrow at 10am","until":"friday"}
	call task_create {"prompt":"b","daily":"09:00","count":0}
	call task_create {"prompt":"c","daily":"09:00","count":-2}
	call task_create {"prompt":"d","daily":"09:00","count":1000000}
	call task_create {"prompt":"e","daily":"09:00","until":"08:00"}
	call task_create {"prompt":"f","daily":"09:00","mcp":["a\u0007b"]}
	EOF
	client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	[1] error
	Until and count end recurring tasks (cron, daily, weekly, every); a one-shot task (at) has no recurrence to end.
	[2] error
	Count 0 would never run: give a number of occurrences from 1 to 100000.
	[3] error
	Bad count '\''-2'\'': expected a number of occurrences from 1 to 100000.
	[4] error
	Bad count '\''1000000'\'': expected a number of occurrences from 1 to 100000.
	[5] error
	Until 2026-11-24 08:00 UTC comes before the first occurrence, 2026-11-24 09:00 UTC; it would never run.
	[6] error
	mcp: server name '\''a?b'\'' holds a control character.
	exit 0
	EOF
	test_cmp expect actual &&
	task-ls --json >after &&
	test_cmp before after
'

test_expect_success 'date_order = dmy reaches task_create, task_update and scheduleAgentTask' '
	echo "date_order = dmy" >config/agentcron/config &&
	cat >script <<-\EOF &&
	@at call task_create {"name":"DMY","prompt":"dmy at","at":"4/12/2026 10:00"}
	@end call task_create {"name":"DMY end","prompt":"dmy end","daily":"09:00","until":"4/12/2026"}
	call task_update {"id":"${at}","at":"5/12/2026 11:00"}
	call scheduleAgentTask {"taskPayload":"dmy woo","timeExpression":"6/12/2026 at 3pm","humanReadableDescription":"Woo"}
	EOF
	client script task-mcp -p native,wooster >out &&
	rm config/agentcron/config &&
	grep -e "^Schedule:" -e "^  at:" out >actual &&
	cat >expect <<-\EOF &&
	Schedule: Once on 2026-12-04 at 10:00 (UTC)
	Schedule: Daily at 09:00 until 2026-12-04 00:00 (UTC)
	  at: 2026-12-04T10:00:00Z -> 2026-12-05T11:00:00Z
	EOF
	test_cmp expect actual &&
	task-ls --json | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"Hourly","prompt":"Check the build","system_prompt":null,"kind":"cron","cron":"0 * * * *","at":null,"plan":null,"tz":"Europe/London","description":"Hourly at :00 until 2026-11-23 17:00","enabled":true,"status":"pending","next_run_at":"2026-11-23T10:00:00Z","due_at":"2026-11-23T10:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":"2026-11-23T17:00:00Z","count":0,"ends_at":"2026-11-23T17:00:00Z","mcp":null,"mcp_allow":null,"scope":null,"origin":"agent:session:<id2>","created_at":"2026-11-23T09:30:00Z","updated_at":"2026-11-23T09:30:00Z","deleted_at":null}
	{"id":"<id3>","name":"DMY end","prompt":"dmy end","system_prompt":null,"kind":"cron","cron":"0 9 * * *","at":null,"plan":null,"tz":"UTC","description":"Daily at 09:00 until 2026-12-04 00:00","enabled":true,"status":"pending","next_run_at":"2026-11-24T09:00:00Z","due_at":"2026-11-24T09:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":"2026-12-04T00:00:00Z","count":0,"ends_at":"2026-12-04T00:00:00Z","mcp":null,"mcp_allow":null,"scope":null,"origin":"agent:session:<id4>","created_at":"2026-11-23T09:30:00Z","updated_at":"2026-11-23T09:30:00Z","deleted_at":null}
	{"id":"<id5>","name":"Week","prompt":"Stretch","system_prompt":null,"kind":"cron","cron":"0 9 * * *","at":null,"plan":null,"tz":"Europe/London","description":"Daily at 09:00","enabled":true,"status":"pending","next_run_at":"2026-11-26T09:00:00Z","due_at":"2026-11-26T09:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":["mcp__notes__read_*"],"scope":null,"origin":"agent:session:<id2>","created_at":"2026-11-23T09:30:00Z","updated_at":"2026-11-25T12:00:00Z","deleted_at":null}
	{"id":"<id6>","name":"DMY","prompt":"dmy at","system_prompt":null,"kind":"at","cron":null,"at":"2026-12-05T11:00:00Z","plan":null,"tz":"UTC","description":"Once on 2026-12-05 at 11:00","enabled":true,"status":"pending","next_run_at":"2026-12-05T11:00:00Z","due_at":"2026-12-05T11:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"agent:session:<id4>","created_at":"2026-11-23T09:30:00Z","updated_at":"2026-11-23T09:30:00Z","deleted_at":null}
	{"id":"<id7>","name":"Woo","prompt":"dmy woo","system_prompt":null,"kind":"at","cron":null,"at":"2026-12-06T15:00:00Z","plan":null,"tz":"UTC","description":"Once on 2026-12-06 at 15:00","enabled":true,"status":"pending","next_run_at":"2026-12-06T15:00:00Z","due_at":"2026-12-06T15:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"agent:session:<id4>","created_at":"2026-11-23T09:30:00Z","updated_at":"2026-11-23T09:30:00Z","deleted_at":null}
	EOF
	test_cmp expect actual
'

test_expect_success 'without the config the same text is month first' '
	echo "@m call task_create {\"name\":\"MDY\",\"prompt\":\"mdy at\",\"at\":\"4/12/2027 10:00\"}" >script &&
	client script task-mcp >out &&
	grep "^Schedule:" out >actual &&
	echo "Schedule: Once on 2027-04-12 at 10:00 (UTC)" >expect &&
	test_cmp expect actual
'

test_expect_success 'a config file that cannot be used stops task-mcp with one line' '
	echo "date_order = ymd" >config/agentcron/config &&
	echo "init 2025-11-25" >script &&
	test_expect_code 2 task-mcp <script >out 2>err &&
	rm config/agentcron/config &&
	test ! -s out &&
	test_one_line err &&
	grep -q "^task-mcp: $XDG_CONFIG_HOME/agentcron/config: " err
'

test_done
