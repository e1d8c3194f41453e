#!/bin/sh
# The native tools over MCP, a whole conversation: task_create with every
# schedule kind and field, deduplication and idempotency keys, task_list and
# its filters and limits, task_show, task_run, task_update, task_cancel and
# task_delete, checked in the replies and in the store.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
q() { store_sql "$1"; }
# Agents attach files only from where the user says.
mkdir -p config/agentcron && echo "agent_attach_dirs = $TEST_TMP" >config/agentcron/config || exit 1

test_expect_success 'task_create: every schedule kind, with every field' '
	echo "notes" >notes.txt &&
	cat >script <<-\EOF &&
	init 2025-11-25
	@cron call task_create {"name":"Standup","prompt":"Summarise yesterday'\''s commits","cron":"30 9 * * 1-5","tz":"Europe/London","system_prompt":"You are terse.","context":"team","attachments":["notes.txt","https://example.com/a.pdf"],"intent":"report","channel":"eng","payload":{"team":"core"},"model":"gpt-4o-mini"}
	@at call task_create {"prompt":"Call the dentist","at":"2026-03-02T15:00:00Z"}
	@casual call task_create {"name":"Friday","prompt":"Plan the weekend","at":"next Friday at noon"}
	@plan call task_create {"name":"Twice","prompt":"Check the oven","plan":["2026-03-01T18:00:00Z","in 3 hours"]}
	@daily call task_create {"name":"Brief","prompt":"Morning briefing","daily":"07:00"}
	@weekly call task_create {"name":"Weekly","prompt":"Weekly review","weekly":"mon,thu 18:30","enabled":false}
	@manual call task_create {"name":"On demand","prompt":"Tidy the inbox","manual":true}
	EOF
	client script task-mcp >out 2>err &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[2] ok
	Created task '\''Standup'\''.
	ID: ${cron}
	Schedule: Weekdays at 09:30 (Europe/London)
	Status: pending, enabled
	Next run: 2026-03-02 09:30 GMT
	[3] ok
	Created task '\''Call the dentist'\''.
	ID: ${at}
	Schedule: Once on 2026-03-02 at 15:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 15:00 UTC
	[4] ok
	Created task '\''Friday'\''.
	ID: ${casual}
	Schedule: Once on 2026-03-06 at 12:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-06 12:00 UTC
	[5] ok
	Created task '\''Twice'\''.
	ID: ${plan}
	Schedule: Planned: 2 runs at 2026-03-01 15:00, 2026-03-01 18:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-01 15:00 UTC
	[6] ok
	Created task '\''Brief'\''.
	ID: ${daily}
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 07:00 UTC
	[7] ok
	Created task '\''Weekly'\''.
	ID: ${weekly}
	Schedule: Every Mon, Thu at 18:30 (UTC)
	Status: pending, disabled
	Next run: none (disabled)
	[8] ok
	Created task '\''On demand'\''.
	ID: ${manual}
	Schedule: Manual
	Status: pending, enabled
	Next run: none (runs only when asked: task_run)
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err &&
	q "SELECT name, kind, cron, plan, tz, enabled, status, next_run_at FROM tasks ORDER BY created_at, name" >actual &&
	cat >expect <<-EOF &&
	Brief|cron|0 7 * * *||UTC|1|pending|$(date -u -d 2026-03-02T07:00:00Z +%s)
	Call the dentist|at||$(date -u -d 2026-03-02T15:00:00Z +%s)|UTC|1|pending|$(date -u -d 2026-03-02T15:00:00Z +%s)
	Friday|at||$(date -u -d 2026-03-06T12:00:00Z +%s)|UTC|1|pending|$(date -u -d 2026-03-06T12:00:00Z +%s)
	On demand|manual|||UTC|1|pending|
	Standup|cron|30 9 * * 1-5||Europe/London|1|pending|$(date -u -d 2026-03-02T09:30:00Z +%s)
	Twice|plan||$(date -u -d 2026-03-01T15:00:00Z +%s),$(date -u -d 2026-03-01T18:00:00Z +%s)|UTC|1|pending|$(date -u -d 2026-03-01T15:00:00Z +%s)
	Weekly|cron|30 18 * * 1,4||UTC|0|pending|$(date -u -d 2026-03-02T18:30:00Z +%s)
	EOF
	test_cmp expect actual &&
	q "SELECT system_prompt, context, attachments, intent, channel, payload, model FROM tasks WHERE name = '\''Standup'\''" >actual &&
	echo "You are terse.|team|[\"$TEST_TMP/notes.txt\",\"https://example.com/a.pdf\"]|report|eng|{\"team\":\"core\"}|gpt-4o-mini" >expect &&
	test_cmp expect actual
'

test_expect_success 'task_list: soonest first, with filters' '
	cat >script <<-\EOF &&
	call task_list
	call task_list {"status":"pending","kind":["cron"],"limit":2}
	call task_list {"channel":"eng"}
	call task_list {"due_within":180}
	call task_list {"due_after":2880,"enabled":true}
	call task_list {"enabled":false,"kind":"cron"}
	call task_list {"status":["completed","failed"]}
	EOF
	client script task-mcp >actual 2>err &&
	cat >expect <<-\EOF &&
	[1] ok
	Found 7 tasks:

	1. Twice
	   ID: <uuid>
	   Schedule: Planned: 2 runs at 2026-03-01 15:00, 2026-03-01 18:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-01 15:00 UTC
	   Last run: never

	2. Brief
	   ID: <uuid>
	   Schedule: Daily at 07:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 07:00 UTC
	   Last run: never

	3. Standup
	   ID: <uuid>
	   Schedule: Weekdays at 09:30 (Europe/London)
	   Status: pending, enabled
	   Next run: 2026-03-02 09:30 GMT
	   Last run: never

	4. Call the dentist
	   ID: <uuid>
	   Schedule: Once on 2026-03-02 at 15:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 15:00 UTC
	   Last run: never

	5. Weekly
	   ID: <uuid>
	   Schedule: Every Mon, Thu at 18:30 (UTC)
	   Status: pending, disabled
	   Next run: none (disabled)
	   Last run: never

	6. Friday
	   ID: <uuid>
	   Schedule: Once on 2026-03-06 at 12:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-06 12:00 UTC
	   Last run: never

	7. On demand
	   ID: <uuid>
	   Schedule: Manual
	   Status: pending, enabled
	   Next run: none (runs only when asked: task_run)
	   Last run: never
	[2] ok
	Found 2 tasks:

	1. Brief
	   ID: <uuid>
	   Schedule: Daily at 07:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-02 07:00 UTC
	   Last run: never

	2. Standup
	   ID: <uuid>
	   Schedule: Weekdays at 09:30 (Europe/London)
	   Status: pending, enabled
	   Next run: 2026-03-02 09:30 GMT
	   Last run: never

	More tasks match: raise limit (at most 50) or narrow the filters.
	[3] ok
	Found 1 task:

	1. Standup
	   ID: <uuid>
	   Schedule: Weekdays at 09:30 (Europe/London)
	   Status: pending, enabled
	   Next run: 2026-03-02 09:30 GMT
	   Last run: never
	[4] ok
	Found 1 task:

	1. Twice
	   ID: <uuid>
	   Schedule: Planned: 2 runs at 2026-03-01 15:00, 2026-03-01 18:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-01 15:00 UTC
	   Last run: never
	[5] ok
	Found 1 task:

	1. Friday
	   ID: <uuid>
	   Schedule: Once on 2026-03-06 at 12:00 (UTC)
	   Status: pending, enabled
	   Next run: 2026-03-06 12:00 UTC
	   Last run: never
	[6] ok
	Found 1 task:

	1. Weekly
	   ID: <uuid>
	   Schedule: Every Mon, Thu at 18:30 (UTC)
	   Status: pending, disabled
	   Next run: none (disabled)
	   Last run: never
	[7] ok
	No tasks found.
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'task_show: everything about one task, by id or a prefix of it' '
	id=$(q "SELECT id FROM tasks WHERE name = '\''Standup'\''") &&
	prefix=$(echo "$id" | cut -c1-8) &&
	printf "%s\n" "call task_show {\"id\":\"$id\"}" "call task_show {\"id\":\"$prefix\"}" >script &&
	client script task-mcp >out &&
	sed "s|$TEST_TMP|TMP|" out >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Standup'\''
	ID: <uuid>
	Schedule: Weekdays at 09:30 (Europe/London)
	Status: pending, enabled
	Next run: 2026-03-02 09:30 GMT
	Cron: 30 9 * * 1-5
	Last run: never
	Failures in a row: 0
	Prompt: Summarise yesterday'\''s commits
	System prompt: You are terse.
	Context: team
	Attachments: ["TMP/notes.txt","https://example.com/a.pdf"]
	Intent: report
	Channel: eng
	Payload: {"team":"core"}
	Model: gpt-4o-mini
	Made by: an agent, in session <uuid>
	Created: 2026-03-01 12:00 GMT
	Recent runs (UTC):
	  none
	EOF
	sed -n "1,/^  none$/p" actual >first &&
	test_cmp expect first &&
	sed -n "/^\[2\] ok$/,/^  none$/p" actual | sed "s/^\[2\]/[1]/" >second &&
	test_cmp expect second
'

test_expect_success 'task_run queues a task (a manual or disabled one too), refuses a running one' '
	manual=$(q "SELECT id FROM tasks WHERE name = '\''On demand'\''") &&
	weekly=$(q "SELECT id FROM tasks WHERE name = '\''Weekly'\''") &&
	brief=$(q "SELECT id FROM tasks WHERE name = '\''Brief'\''") &&
	q "UPDATE tasks SET status = '\''running'\'' WHERE id = '\''$brief'\''" &&
	printf "%s\n" "call task_run {\"id\":\"$manual\"}" "call task_run {\"id\":\"$weekly\"}" \
		"call task_run {\"id\":\"$brief\"}" "call task_run {\"id\":\"nope\"}" >script &&
	client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''On demand'\'' has been queued for execution; it runs at the next scheduler pass.
	ID: <uuid>
	[2] ok
	Task '\''Weekly'\'' has been queued for execution; it runs at the next scheduler pass.
	ID: <uuid>
	[3] error
	Task '\''Brief'\'' is running now; run it again when it has finished.
	[4] error
	Task not found with ID '\''nope'\''.
	exit 0
	EOF
	test_cmp expect actual &&
	q "SELECT name, queued, enabled, CASE WHEN next_run_at IS NULL THEN 1 ELSE 0 END FROM tasks WHERE queued = 1 OR name = '\''Brief'\'' ORDER BY name" >actual &&
	cat >expect <<-\EOF &&
	Brief|0|1|0
	On demand|1|1|1
	Weekly|1|0|0
	EOF
	test_cmp expect actual &&
	q "UPDATE tasks SET status = '\''pending'\'' WHERE id = '\''$brief'\''"
'

test_expect_success 'task_update: changed fields old -> new and the next run' '
	brief=$(q "SELECT id FROM tasks WHERE name = '\''Brief'\''") &&
	weekly=$(q "SELECT id FROM tasks WHERE name = '\''Weekly'\''") &&
	cron=$(q "SELECT id FROM tasks WHERE name = '\''Standup'\''") &&
	cat >script <<-EOF &&
	call task_update {"id":"$brief","daily":"08:15","name":"Briefing","payload":{"k":1}}
	call task_update {"id":"$weekly","enabled":true}
	call task_update {"id":"$cron","context":"","channel":"ops","tz":"America/New_York"}
	call task_update {"id":"$brief","name":"Briefing"}
	EOF
	client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Briefing'\'' updated. Changed fields:
	  name: Brief -> Briefing
	  cron: 0 7 * * * -> 15 8 * * *
	  payload: none -> {"k":1}
	Next run: 2026-03-02 08:15 UTC
	[2] ok
	Task '\''Weekly'\'' updated. Changed fields:
	  enabled: false -> true
	Next run: 2026-03-02 18:30 UTC; a manual run is queued
	[3] ok
	Task '\''Standup'\'' updated. Changed fields:
	  tz: Europe/London -> America/New_York
	  context: team -> none
	  channel: eng -> ops
	Next run: 2026-03-02 09:30 EST
	[4] ok
	Task '\''Briefing'\'' unchanged: the values given are the current ones.
	Next run: 2026-03-02 08:15 UTC
	exit 0
	EOF
	test_cmp expect actual &&
	q "SELECT name, cron, payload, next_run_at FROM tasks WHERE id = '\''$brief'\''" >actual &&
	echo "Briefing|15 8 * * *|{\"k\":1}|$(date -u -d 2026-03-02T08:15:00Z +%s)" >expect &&
	test_cmp expect actual &&
	q "SELECT tz, CASE WHEN context IS NULL THEN 1 ELSE 0 END, channel, next_run_at FROM tasks WHERE id = '\''$cron'\''" >actual &&
	echo "America/New_York|1|ops|$(date -u -d 2026-03-02T14:30:00Z +%s)" >expect &&
	test_cmp expect actual
'

test_expect_success 'task_update refuses a running task and re-arms a finished one' '
	at=$(q "SELECT id FROM tasks WHERE name = '\''Call the dentist'\''") &&
	q "UPDATE tasks SET status = '\''running'\'' WHERE id = '\''$at'\''" &&
	echo "call task_update {\"id\":\"$at\",\"name\":\"Dentist\"}" >script &&
	client script task-mcp >actual &&
	printf "[1] error\nTask '\''Call the dentist'\'' is running now; update it when the run has finished.\nexit 0\n" >expect &&
	test_cmp expect actual &&
	q "UPDATE tasks SET status = '\''completed'\'', next_run_at = NULL, due_at = NULL WHERE id = '\''$at'\''" &&
	echo "call task_update {\"id\":\"$at\",\"at\":\"tomorrow at 16:00\"}" >script &&
	client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Call the dentist'\'' updated. Changed fields:
	  at: 2026-03-02T15:00:00Z -> 2026-03-02T16:00:00Z
	  status: completed -> pending
	Next run: 2026-03-02 16:00 UTC
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'task_cancel cancels a pending task only' '
	at=$(q "SELECT id FROM tasks WHERE name = '\''Call the dentist'\''") &&
	printf "%s\n" "call task_cancel {\"id\":\"$at\"}" "call task_cancel {\"id\":\"$at\"}" >script &&
	client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Task '\''Call the dentist'\'' has been cancelled; it will not run again.
	ID: <uuid>
	[2] error
	Task '\''Call the dentist'\'' is cancelled; only pending tasks can be cancelled.
	exit 0
	EOF
	test_cmp expect actual &&
	q "SELECT status, CASE WHEN next_run_at IS NULL THEN 1 ELSE 0 END FROM tasks WHERE id = '\''$at'\''" >actual &&
	echo "cancelled|1" >expect &&
	test_cmp expect actual
'

test_expect_success 'task_delete moves a task to the trash; it is gone for the tools' '
	id=$(q "SELECT id FROM tasks WHERE name = '\''Friday'\''") &&
	printf "%s\n" "call task_delete {\"id\":\"$id\"}" "call task_show {\"id\":\"$id\"}" \
		"call task_delete {\"id\":\"$id\"}" >script &&
	client script task-mcp >actual &&
	cat >expect <<-EOF &&
	[1] ok
	Task '\''Friday'\'' has been deleted; it will not run again (task-rm --undo restores it).
	ID: <uuid>
	[2] error
	Task not found with ID '\''<uuid>'\''.
	[3] error
	Task not found with ID '\''<uuid>'\''.
	exit 0
	EOF
	test_cmp expect actual &&
	q "SELECT deleted_at FROM tasks WHERE id = '\''$id'\''" >actual &&
	date -u -d 2026-03-01T12:00:00Z +%s >expect &&
	test_cmp expect actual
'

test_expect_success 'a twin of a pending task is not added twice; force and keys' '
	TASK_DB=$(new_store dedup) &&
	cat >script <<-\EOF &&
	@brief call task_create {"name":"Brief","prompt":"Morning briefing","daily":"07:00"}
	call task_create {"name":"Brief again","prompt":"Morning briefing","daily":"07:00"}
	call task_create {"name":"Brief forced","prompt":"Morning briefing","daily":"07:00","force":true}
	call task_create {"name":"Other channel","prompt":"Morning briefing","daily":"07:00","channel":"x"}
	@keyed call task_create {"prompt":"Keyed","manual":true,"key":"k-1"}
	call task_create {"prompt":"Keyed retry","manual":true,"key":"k-1","force":true}
	EOF
	TASK_DB=$TASK_DB client script task-mcp >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Created task '\''Brief'\''.
	ID: ${brief}
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 07:00 UTC
	[2] ok
	A pending task with the same prompt (or intent), schedule and channel already exists; nothing was added (pass force: true to add another).
	Name: Brief
	ID: ${brief}
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 07:00 UTC
	[3] ok
	Created task '\''Brief forced'\''.
	ID: <uuid>
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 07:00 UTC
	[4] ok
	Created task '\''Other channel'\''.
	ID: <uuid>
	Schedule: Daily at 07:00 (UTC)
	Status: pending, enabled
	Next run: 2026-03-02 07:00 UTC
	[5] ok
	Created task '\''Keyed'\''.
	ID: ${keyed}
	Schedule: Manual
	Status: pending, enabled
	Next run: none (runs only when asked: task_run)
	[6] ok
	A task with key '\''k-1'\'' already exists; nothing was added.
	Name: Keyed
	ID: ${keyed}
	Schedule: Manual
	Status: pending, enabled
	Next run: none (runs only when asked: task_run)
	exit 0
	EOF
	test_cmp expect actual &&
	test $(TASK_DB=$TASK_DB q "SELECT count(*) FROM tasks") -eq 4
'

test_expect_success 'task_list shows 20 by default and at most 50' '
	TASK_DB=$(new_store many) &&
	i=0 && while [ $i -lt 55 ]; do
		echo "{\"name\":\"task_create\",\"arguments\":{\"prompt\":\"Job $i\",\"manual\":true}}" &&
		i=$((i + 1)) || return 1
	done >calls &&
	echo "agent_max_create = 55" >>config/agentcron/config &&
	TASK_DB=$TASK_DB task-mcp --call <calls >/dev/null &&
	printf "%s\n" "call task_list" "call task_list {\"limit\":500}" "call task_list {\"limit\":55}" \
		"call task_list {\"limit\":3}" >script &&
	TASK_DB=$TASK_DB client script task-mcp >actual &&
	# The reply listing the first N of the 55 tasks.
	listing() {
		echo "Found $1 tasks:" && i=0 &&
		while [ $i -lt $1 ]; do
			printf "\n%d. Job %d\n   ID: <uuid>\n   Schedule: Manual\n   Status: pending, enabled\n" \
				$((i + 1)) $i &&
			printf "   Next run: none (runs only when asked: task_run)\n   Last run: never\n" &&
			i=$((i + 1)) || return 1
		done &&
		printf "\nMore tasks match: raise limit (at most 50) or narrow the filters.\n"
	} &&
	{ echo "[1] ok" && listing 20 && echo "[2] ok" && listing 50 && echo "[3] ok" && listing 50 &&
	  echo "[4] ok" && listing 3 && echo "exit 0"; } >expect &&
	test_cmp expect actual
'

test_done
