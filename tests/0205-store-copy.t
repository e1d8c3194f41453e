#!/bin/sh
# Any store: export/import round trips of every field (into a file store,
# so on PostgreSQL across backends too), and concurrent writers.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

test_expect_success 'task-ls --json | task-add --json - round-trips every field into another store' '
	reset_store && echo a >att.txt &&
	task-add --cron "*/15 9-17 * * 1-5" --tz America/New_York --name c --system s --context ctx \
		--attach att.txt --model m --exec "my exec" --timeout 90 --retries 2 --intent i \
		--channel ch --payload "{\"k\":[1,2]}" --key key1 --missed skip --jitter 5m \
		--notify "n --x" --disabled "cron prompt" >/dev/null &&
	task-add --at "2026-12-01 09:00" --tz Asia/Kolkata "at prompt" >/dev/null &&
	task-add --plan 2026-12-01T09:00:00Z --plan 2026-12-02T09:00:00Z "plan prompt" >/dev/null &&
	task-add --manual "manual prompt" >/dev/null &&
	task-add --heartbeat "heartbeat prompt" >/dev/null &&
	task-rm --cancel "$(task-ls --kind manual | cut -f1)" >/dev/null &&
	task-ls --json >export.jsonl &&
	test_json_norm <export.jsonl >json &&
	# The jitter is fixed per task and instant, somewhere in its 5 minutes.
	sed "s/\"due_at\":\"2026-11-23T14:[0-9][0-9]:[0-9][0-9]Z\"/\"due_at\":J/" json >actual &&
	cat >expect <<-EOF &&
	{"id":"<id1>","name":"c","prompt":"cron prompt","system_prompt":"s","kind":"cron","cron":"*/15 9-17 * * 1-5","at":null,"plan":null,"tz":"America/New_York","description":"Every 15 minutes from 09:00 to 17:45, Monday to Friday","enabled":false,"status":"pending","next_run_at":"2026-11-23T14:00:00Z","due_at":J,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":"ctx","attachments":["$PWD/att.txt"],"model":"m","exec":"my exec","timeout":90,"retries":2,"intent":"i","channel":"ch","payload":{"k":[1,2]},"key":"key1","missed":"skip","jitter":300,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":"n --x","notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id2>","name":"at prompt","prompt":"at prompt","system_prompt":null,"kind":"at","cron":null,"at":"2026-12-01T03:30:00Z","plan":null,"tz":"Asia/Kolkata","description":"Once on 2026-12-01 at 09:00","enabled":true,"status":"pending","next_run_at":"2026-12-01T03:30:00Z","due_at":"2026-12-01T03:30:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id3>","name":"plan prompt","prompt":"plan prompt","system_prompt":null,"kind":"plan","cron":null,"at":null,"plan":["2026-12-01T09:00:00Z","2026-12-02T09:00:00Z"],"tz":"UTC","description":"Planned: 2 runs at 2026-12-01 09:00, 2026-12-02 09:00","enabled":true,"status":"pending","next_run_at":"2026-12-01T09:00:00Z","due_at":"2026-12-01T09:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id4>","name":"manual prompt","prompt":"manual prompt","system_prompt":null,"kind":"manual","cron":null,"at":null,"plan":null,"tz":"UTC","description":"Manual","enabled":true,"status":"cancelled","next_run_at":null,"due_at":null,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id5>","name":"heartbeat prompt","prompt":"heartbeat prompt","system_prompt":null,"kind":"heartbeat","cron":null,"at":null,"plan":null,"tz":"UTC","description":"On every heartbeat","enabled":true,"status":"pending","next_run_at":null,"due_at":null,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	EOF
	test_cmp expect actual &&
	TASK_DB=$PWD/other.db task-add --json - <export.jsonl >ids &&
	test "$(wc -l <ids)" -eq 5 &&
	TASK_DB=$PWD/other.db task-ls --json >import.jsonl &&
	test_cmp export.jsonl import.jsonl
'

test_expect_success 'the round trip keeps odd text, long prompts, many instants and the trash' '
	reset_store &&
	task-add --manual --name "$(printf "tab\there\nnewline ☃ 日本")" \
		--payload "{\"a\":{\"b\":[1,{\"c\":null}],\"d\":\"é\\u0000\"}}" "$(printf "p\tq\r\nr 😀")" >/dev/null &&
	head -c 300000 /dev/zero | tr "\0" x | task-add --manual --name long >/dev/null &&
	i=10 && set -- && while [ $i -lt 60 ]; do set -- "$@" --plan "2026-12-01T00:$i:00Z"; i=$((i + 1)); done &&
	task-add "$@" --name many "plan" >/dev/null &&
	a=$(task-add --key k1 --daily 07:00 --name trashed "daily") && task-rm "$a" >/dev/null &&
	task-add --key k1 --daily 07:00 --name live "daily" >/dev/null &&
	{ task-ls --json && task-ls --trash --json; } >odd-export.jsonl &&
	TASK_DB=$PWD/odd2.db task-add --json - <odd-export.jsonl >odd-ids &&
	test "$(wc -l <odd-ids)" -eq 5 &&
	{ TASK_DB=$PWD/odd2.db task-ls --json && TASK_DB=$PWD/odd2.db task-ls --trash --json; } >odd-import.jsonl &&
	test_cmp odd-export.jsonl odd-import.jsonl &&
	TASK_DB=$PWD/odd2.db task-ls | cut -f2 | sort >odd-names &&
	printf "%s\n" live long many "tab here newline ☃ 日本" >expect && test_cmp expect odd-names
'

test_expect_success 'importing the same export again adds nothing' '
	TASK_DB=$PWD/other.db task-add --json - <export.jsonl >ids 2>err &&
	test "$(wc -l <err)" -eq 5 &&
	TASK_DB=$PWD/other.db task-ls --json >again.jsonl && test_cmp export.jsonl again.jsonl
'

test_expect_success 'a task exported while running comes back pending, not stuck' '
	reset_store &&
	id=$(task-add --daily 07:00 --name "two\nlines" "p") &&
	task-ls --json | sed "s/\"status\":\"pending\"/\"status\":\"running\"/" >running.jsonl &&
	TASK_DB=$PWD/run.db task-add --json - <running.jsonl >/dev/null &&
	TASK_DB=$PWD/run.db task-ls | cut -f3,4 >actual &&
	printf "pending\t2026-11-23T07:00:00Z\n" >expect && test_cmp expect actual &&
	TASK_DB=$PWD/run.db task-add --json - <running.jsonl >/dev/null 2>err &&
	test_one_line err
'

# 20 tasks a writer keep the eight in each other's way throughout, on
# either store (every command a new process, and on PostgreSQL a new
# connection and server process): all eight start at once and each add
# takes the store's write lock, so 160 adds queue on it.  More only make
# the queue longer (on SQLite a minute of lock waits for 480).
per_writer=20

test_expect_success "8 concurrent writers of $per_writer tasks each lose nothing" '
	reset_store &&
	for w in 1 2 3 4 5 6 7 8; do
		(i=0; while [ $i -lt $per_writer ]; do
			task-add --manual --name "w$w-$i" "writer $w task $i" >>ids.$w || exit 1
			i=$((i + 1))
		done) &
	done &&
	wait &&
	cat ids.* | sort -u | wc -l | tr -d " " >count && echo $((8 * per_writer)) >expect &&
	test_cmp expect count &&
	task-ls | wc -l | tr -d " " >count && test_cmp expect count
'

test_done
