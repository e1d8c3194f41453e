#!/bin/sh
# task-show, task-edit and task-rm: full views, partial updates with their
# old -> new report, the trash and cancelling.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

test_expect_success 'task-show prints every set field and the schedule in its zone' '
	id=$(task-add --cron "0 7 * * 1-5" --tz Europe/London --name Brief --system "Be brief" \
		--context news --intent report --channel ops "Summarise the news") &&
	task-show "$(echo "$id" | cut -c1-6)" >actual &&
	cat >expect <<-EOF &&
	id:           $id
	name:         Brief
	status:       pending
	schedule:     Weekdays at 07:00 (cron '"'"'0 7 * * 1-5'"'"', Europe/London)
	next run:     2026-11-23 07:00 GMT (2026-11-23T07:00:00Z)
	last run:     never
	failures:     0
	context:      news
	missed:       once
	intent:       report
	channel:      ops
	made by:      the user
	created:      2026-11-22 10:00 GMT
	system prompt:
	  Be brief
	prompt:
	  Summarise the news
	recent runs:  none
	EOF
	test_cmp expect actual
'

test_expect_success 'task-show --json carries the task and a runs array' '
	id=$(task-ls | cut -f1) &&
	task-show --json "$id" >json &&
	grep -q "^{\"id\":\"$id\"," json &&
	test_json_norm <json >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"Brief","prompt":"Summarise the news","system_prompt":"Be brief","kind":"cron","cron":"0 7 * * 1-5","at":null,"plan":null,"tz":"Europe/London","description":"Weekdays at 07:00","enabled":true,"status":"pending","next_run_at":"2026-11-23T07:00:00Z","due_at":"2026-11-23T07:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":"news","attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":"report","channel":"ops","payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null,"runs":[]}
	EOF
	test_cmp expect actual
'

test_expect_success 'task-show prints a long schedule description whole' '
	export TASK_DB=$(new_store plan) &&
	id=$(task-add --plan 2026-12-01T09:00:00Z --plan 2026-12-02T09:00:00Z --plan 2026-12-03T09:00:00Z \
		--plan 2026-12-04T09:00:00Z --tz Europe/London --name plan "plan") &&
	task-show "$id" | grep "^schedule:" >actual &&
	echo "schedule:     Planned: 4 runs at 2026-12-01 09:00, 2026-12-02 09:00, 2026-12-03 09:00, ... (Europe/London)" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-show of an unknown id says so, without mentioning the trash' '
	test_expect_code 3 task-show ffffffff 2>err &&
	echo "task-show: no task '"'"'ffffffff'"'"'" >expect && test_cmp expect err
'

test_expect_success 'task-edit prints each changed field as old -> new and the next run' '
	id=$(task-ls | cut -f1) &&
	task-edit "$id" --name Briefing --daily 08:30 --channel "" >actual &&
	cat >expect <<-\EOF &&
	name: Brief -> Briefing
	cron: 0 7 * * 1-5 -> 30 8 * * *
	channel: ops -> none
	next run: 2026-11-23 08:30 GMT
	EOF
	test_cmp expect actual
'

test_expect_success 'task-edit changes the schedule kind and validates like task-add' '
	id=$(task-ls | cut -f1) &&
	task-edit "$id" --at 2026-11-25T09:00:00Z >actual &&
	grep -q "^kind: cron -> at$" actual && grep -q "^cron: 30 8 \* \* \* -> none$" actual &&
	grep -q "^at: none -> 2026-11-25T09:00:00Z$" actual &&
	test_expect_code 2 task-edit "$id" --cron "0 0 31 4 *" 2>err && test_one_line err &&
	test_expect_code 2 task-edit "$id" --at yesterday 2>err && test_one_line err &&
	test_expect_code 2 task-edit "$id" 2>err && test_one_line err &&
	test_expect_code 2 task-edit 2>err && test_one_line err &&
	task-ls | cut -f4 >after && echo 2026-11-25T09:00:00Z >expect && test_cmp expect after
'

test_expect_success 'task-edit with nothing different changes nothing' '
	id=$(task-ls | cut -f1) &&
	task-edit "$id" --name Briefing >out 2>err && test ! -s out &&
	grep -q "nothing changed" err
'

test_expect_success 'task-edit re-arms a finished one-shot given a new --at' '
	id=$(task-ls | cut -f1) &&
	task-show --json "$id" | sed "s/\"status\":\"pending\"/\"status\":\"completed\"/; s/\"next_run_at\":\"[^\"]*\"/\"next_run_at\":null/; s/,\"runs\":\\[\\]//" >done.json &&
	task-rm "$id" >/dev/null && task-rm --purge 2>/dev/null &&
	task-add --json - <done.json >/dev/null &&
	task-ls | cut -f3,4 >st && printf "completed\t-\n" >expect && test_cmp expect st &&
	task-edit "$id" --at "2026-11-30 09:00" >out &&
	grep -q "^status: completed -> pending$" out &&
	task-ls | cut -f3,4 >st && printf "pending\t2026-11-30T09:00:00Z\n" >expect && test_cmp expect st
'

test_expect_success 'task-rm moves a task to the trash; --undo restores it' '
	reset_store &&
	a=$(task-add --daily 07:00 --name a "a") && b=$(task-add --daily 08:00 --name b "b") &&
	task-rm "$a" >out && echo "$a" >expect && test_cmp expect out &&
	task-ls | cut -f2 >actual && echo b >expect && test_cmp expect actual &&
	task-ls --trash | cut -f2 >actual && echo a >expect && test_cmp expect actual &&
	task-show "$a" | grep -q "^deleted: .*in the trash" &&
	task-rm --undo >out && echo "$a" >expect && test_cmp expect out &&
	task-ls | cut -f2 >actual && printf "a\nb\n" >expect && test_cmp expect actual
'

test_expect_success 'task-rm --undo ID restores that one; the latest deletion first without one' '
	a=$(task-ls | sed -n 1p | cut -f1) && b=$(task-ls | sed -n 2p | cut -f1) &&
	task-rm "$a" "$b" >/dev/null &&
	task-rm --undo "$(echo "$a" | cut -c1-5)" >out && echo "$a" >expect && test_cmp expect out &&
	task-rm --undo >out && echo "$b" >expect && test_cmp expect out &&
	test_expect_code 3 task-rm --undo 2>err && test_one_line err && grep -q "trash is empty" err
'

test_expect_success 'task-rm --purge empties the trash for good' '
	a=$(task-ls | sed -n 1p | cut -f1) &&
	task-rm "$a" >/dev/null && task-rm --purge 2>err &&
	grep -q "purged 1 task" err &&
	test_expect_code 3 task-rm --undo "$a" 2>err && test_one_line err
'

test_expect_success 'task-rm --cancel keeps the record, and only cancels pending tasks' '
	b=$(task-ls | cut -f1) &&
	task-rm --cancel "$b" >out && echo "$b" >expect && test_cmp expect out &&
	task-ls | cut -f3,4 >actual && printf "cancelled\t-\n" >expect && test_cmp expect actual &&
	test_expect_code 4 task-rm --cancel "$b" 2>err && test_one_line err &&
	grep -q "only a pending task can be cancelled" err
'

test_expect_success 'task-rm --json prints each task as it is once changed' '
	reset_store &&
	a=$(task-add --manual --name a "a") &&
	task-rm --json "$a" >out && task-rm --json --undo >>out && task-rm --json --cancel "$a" >>out &&
	grep -q "^{\"id\":\"$a\"," out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"a","prompt":"a","system_prompt":null,"kind":"manual","cron":null,"at":null,"plan":null,"tz":"UTC","description":"Manual","enabled":true,"status":"pending","next_run_at":null,"due_at":null,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":"2026-11-22T10:00:00Z"}
	{"id":"<id1>","name":"a","prompt":"a","system_prompt":null,"kind":"manual","cron":null,"at":null,"plan":null,"tz":"UTC","description":"Manual","enabled":true,"status":"pending","next_run_at":null,"due_at":null,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id1>","name":"a","prompt":"a","system_prompt":null,"kind":"manual","cron":null,"at":null,"plan":null,"tz":"UTC","description":"Manual","enabled":true,"status":"cancelled","next_run_at":null,"due_at":null,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	EOF
	test_cmp expect actual
'

test_expect_success 'several ids: a bad one is reported and the rest still go' '
	reset_store &&
	a=$(task-add --manual --name a "a") && b=$(task-add --manual --name b "b") &&
	test_expect_code 3 task-rm "$a" ffffffff "$b" >out 2>err &&
	test_one_line err && printf "%s\n%s\n" "$a" "$b" >expect && test_cmp expect out &&
	test "$(task-ls --trash | wc -l)" -eq 2
'

test_expect_success 'ids from standard input: plain, tab-separated lines and JSON objects' '
	reset_store &&
	for n in 1 2 3 4; do task-add --manual --name "t$n" "p$n" >/dev/null || return 1; done &&
	task-ls --json | sed -n 1p | task-rm - >/dev/null &&
	task-ls | sed -n 1p | task-rm - >/dev/null &&
	task-ls | cut -f1 | sed -n 1p | task-rm >/dev/null &&
	task-ls | cut -f2 >actual && echo t4 >expect && test_cmp expect actual &&
	task-ls --json | task-show - | grep -q "^name: *t4$"
'

test_expect_success 'ids from standard input: a bad line is reported and the ids after it still go' '
	export TASK_DB=$(new_store stdin) &&
	a=$(task-add --manual --name a "a") && b=$(task-add --manual --name b "b") &&
	c=$(task-add --manual --name c "c") &&
	printf "%s\n\n{\"id\": 5}\n{\"id\":\"%s\"}\n{oops\n%s\n" "$a" "$b" "$c" >in &&
	test_expect_code 2 task-rm - <in >out 2>err &&
	echo "task-rm: stdin:3: JSON object without a string \"id\" (and 1 more bad line)" >expect &&
	test_cmp expect err &&
	printf "%s\n%s\n%s\n" "$a" "$b" "$c" >expect && test_cmp expect out &&
	test "$(task-ls --trash | wc -l)" -eq 3
'

test_expect_success 'task-edit: an empty --timeout, --retries or --jitter clears it to the default' '
	export TASK_DB=$(new_store clear) &&
	id=$(task-add --manual --timeout 5m --retries 7 --jitter 30s --name n "p") &&
	task-edit "$id" --timeout "" --retries "" --jitter "" >actual &&
	printf "%s\n" "timeout: 300 -> 0" "retries: 7 -> -1" "jitter: 30 -> 0" "next run: none" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-edit cuts a long old or new value between characters, not inside one' '
	export TASK_DB=$(new_store utf8) &&
	id=$(task-add --manual --name n "$(printf "x%.0s" 1 2 3 4 5 6 7 8 9 10)") &&
	task-edit "$id" --prompt "abéééééééééééééééééééééééééééééééééééééééééééééééééé" >actual &&
	printf "%s\n" "prompt: xxxxxxxxxx -> ab'"$(printf "é%.0s" $(seq 27))"'..." "next run: none" >expect &&
	test_cmp expect actual
'

# A task's exact name stands for its id wherever one is read; an id
# prefix wins, a name two tasks share is ambiguous, and a too short prefix
# says so.
test_expect_success 'names where ids are: show, edit, run, rm; ambiguous and short ones refused' '
	reset_store &&
	a=$(task-add --manual --exec "echo ran" --name "Morning briefing" p1) &&
	b=$(task-add --manual --exec true --name twin p2) &&
	c=$(task-add --manual --exec true --name twin p3) &&
	task-show --json "Morning briefing" | grep -q "^{\"id\":\"$a\"" &&
	task-edit "Morning briefing" --timeout 60 >/dev/null &&
	task-run "Morning briefing" >out && echo ran >expect && test_cmp expect out &&
	test_expect_code 4 task-show twin >out 2>err &&
	test ! -s out && test_one_line err &&
	grep -q "^task-show: name '\''twin'\'' is ambiguous: tasks .*; give an id$" err &&
	grep -q "$(echo "$b" | cut -c1-13)" err && grep -q "$(echo "$c" | cut -c1-13)" err &&
	test_expect_code 3 task-rm 1 2>err &&
	echo "task-rm: no task '\''1'\'': an id prefix needs 4 or more characters, and no task has that name" >expect &&
	test_cmp expect err &&
	test_expect_code 3 task-show "Evening briefing" 2>err &&
	echo "task-show: no task '\''Evening briefing'\'' (an id, a prefix of 4+ of its characters, or its name)" >expect &&
	test_cmp expect err &&
	task-rm "Morning briefing" >/dev/null &&
	task-rm --undo "Morning briefing" >/dev/null &&
	test "$(task-ls | grep -c "Morning briefing")" -eq 1
'

test_done
