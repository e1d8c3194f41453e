#!/bin/sh
# task-add: every schedule kind, every field, the three output modes,
# prompts from arguments and stdin, deduplication and idempotency keys.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

test_expect_success 'in a pipe task-add prints the new id alone' '
	id=$(task-add --cron "0 7 * * *" --name "Morning briefing" "Summarise the news") &&
	echo "$id" | grep -Eq "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$" &&
	task-ls >actual &&
	printf "%s\tMorning briefing\tpending\t2026-11-23T07:00:00Z\tDaily at 07:00\t-\n" "$id" >expect &&
	test_cmp expect actual
'

test_expect_success 'each schedule kind is stored with its next run and description' '
	reset_store &&
	task-add --cron "30 8 * * 1-5" --tz Europe/London "weekdays" >/dev/null &&
	task-add --at 2026-11-23T09:00:00Z "once" >/dev/null &&
	task-add --plan 2026-11-25T12:00:00Z --plan 2026-11-24T12:00:00Z "plan" >/dev/null &&
	task-add --daily 06:15 "daily" >/dev/null &&
	task-add --weekly "fri 17:00" "weekly" >/dev/null &&
	task-add --weekly mon,wed 09:00 "weekly two words" >/dev/null &&
	task-add --manual "manual" >/dev/null &&
	task-add --heartbeat "heartbeat" >/dev/null &&
	task-ls | cut -f2-5 >actual &&
	cat >expect <<-\EOF &&
	daily	pending	2026-11-23T06:15:00Z	Daily at 06:15
	weekdays	pending	2026-11-23T08:30:00Z	Weekdays at 08:30
	once	pending	2026-11-23T09:00:00Z	Once on 2026-11-23 at 09:00
	weekly two words	pending	2026-11-23T09:00:00Z	Every Mon, Wed at 09:00
	plan	pending	2026-11-24T12:00:00Z	Planned: 2 runs at 2026-11-24 12:00, 2026-11-25 12:00
	weekly	pending	2026-11-27T17:00:00Z	Every Friday at 17:00
	manual	pending	-	Manual
	heartbeat	pending	-	On every heartbeat
	EOF
	test_cmp expect actual
'

test_expect_success 'the prompt can come from standard input' '
	reset_store &&
	printf "Line one\nline two\n" | task-add --manual --name stdin >id &&
	task-show --json "$(cat id)" | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"stdin","prompt":"Line one\nline two","system_prompt":null,"kind":"manual","cron":null,"at":null,"plan":null,"tz":"UTC","description":"Manual","enabled":true,"status":"pending","next_run_at":null,"due_at":null,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null,"runs":[]}
	EOF
	test_cmp expect actual
'

test_expect_success 'without --name the prompt names the task' '
	reset_store &&
	id=$(task-add --manual "Check the latest news headlines and summarize them for me") &&
	task-ls | cut -f2 >actual &&
	echo "Check the latest news headlines and" >expect &&
	test_cmp expect actual
'

test_expect_success 'every field of the task table is a flag and is stored' '
	reset_store && echo notes >notes.txt &&
	id=$(task-add --cron "*/5 * * * *" --tz Asia/Kolkata --name full --system "Be brief" \
		--context chat1 --attach notes.txt --attach https://example.invalid/a.txt \
		--model gpt-4o-mini --exec "echo hi" --timeout 2m --retries 5 --intent report \
		--channel ops --payload "{\"user\":\"ana\"}" --key k-1 --missed all --jitter 30s \
		--notify "logger -t x" --disabled "the prompt") &&
	task-show --json "$id" | test_json_norm >json &&
	# The jitter is fixed per task and instant, somewhere in its 30 s.
	sed "s/\"due_at\":\"2026-11-22T10:05:[0-2][0-9]Z\"/\"due_at\":J/; s/\"due_at\":\"2026-11-22T10:05:30Z\"/\"due_at\":J/" json >actual &&
	cat >expect <<-EOF &&
	{"id":"<id1>","name":"full","prompt":"the prompt","system_prompt":"Be brief","kind":"cron","cron":"*/5 * * * *","at":null,"plan":null,"tz":"Asia/Kolkata","description":"Every 5 minutes","enabled":false,"status":"pending","next_run_at":"2026-11-22T10:05:00Z","due_at":J,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":"chat1","attachments":["$PWD/notes.txt","https://example.invalid/a.txt"],"model":"gpt-4o-mini","exec":"echo hi","timeout":120,"retries":5,"intent":"report","channel":"ops","payload":{"user":"ana"},"key":"k-1","missed":"all","jitter":30,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":"logger -t x","notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null,"runs":[]}
	EOF
	test_cmp expect actual
'

test_expect_success 'with --json task-add prints the created task' '
	reset_store &&
	task-add --json --at "2026-11-22T11:00:00Z" --name j "prompt" >out &&
	test_json_norm <out >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"j","prompt":"prompt","system_prompt":null,"kind":"at","cron":null,"at":"2026-11-22T11:00:00Z","plan":null,"tz":"UTC","description":"Once on 2026-11-22 at 11:00","enabled":true,"status":"pending","next_run_at":"2026-11-22T11:00:00Z","due_at":"2026-11-22T11:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null,"forecast":{"days":30,"from":"2026-11-22T10:00:00Z","runs":1,"basis":"prompt","basis_count":0,"model":null,"input_tokens_per_run":2,"output_tokens_per_run":0,"tokens":2,"budgets":[]}}
	EOF
	test_cmp expect actual &&
	# The task as task-ls has it, and as task-add --json - reads it back.
	task-ls --json >listed && sed "s/,\"forecast\":.*}$/}/" out >task && test_cmp task listed &&
	task-add --json - <out 2>err && grep -q "is the same; not added" err
'

test_expect_success 'on a terminal task-add confirms with the id, description and next run' '
	reset_store &&
	script -qec "task-add --daily 07:00 --tz Europe/London --name Brief \"Summarise\"" /dev/null |
		tr -d "\r" >out &&
	id=$(task-ls | cut -f1) &&
	printf "Added task %s \"Brief\"\n  schedule: Daily at 07:00 (Europe/London)\n  next run: 2026-11-23 07:00 GMT\n  forecast: 30 runs in 30 days: 90 tokens, no model named (a run: 3 tokens in, 0 out, from its prompt; no answer of any model on record)\n" "$id" >expect &&
	test_cmp expect out
'

test_expect_success 'a pending twin is returned instead of a duplicate, --force adds it' '
	reset_store &&
	a=$(task-add --intent weekly_report --cron "0 9 * * 1" --channel rep "Generate weekly summary") &&
	b=$(task-add --if-missing --intent weekly_report --cron "0 9 * * 1" --channel rep "Generate weekly summary" 2>err) &&
	test "$a" = "$b" &&
	grep -q "^task-add: task $a \"Generate weekly summary\" is the same; not added" err &&
	c=$(task-add --force --intent weekly_report --cron "0 9 * * 1" --channel rep "Generate weekly summary") &&
	test "$c" != "$a" &&
	d=$(task-add --intent weekly_report --cron "0 9 * * 1" --channel other "Generate weekly summary") &&
	test "$d" != "$a" &&
	test "$(task-ls | wc -l)" -eq 3
'

test_expect_success 'the same --key never adds twice, even with --force' '
	reset_store &&
	a=$(task-add --key retry-7 --at "in 2 hours" "first" 2>/dev/null || task-add --key retry-7 --at 2026-11-22T12:00:00Z "first") &&
	b=$(task-add --force --key retry-7 --at 2026-11-22T13:00:00Z "second" 2>/dev/null) &&
	test "$a" = "$b" &&
	test "$(task-ls | wc -l)" -eq 1
'

test_expect_success 'a one-shot within the last minute is still accepted' '
	reset_store &&
	task-add --at 2026-11-22T09:59:30Z "just now" >/dev/null &&
	task-ls | cut -f4 >actual && echo 2026-11-22T09:59:30Z >expect && test_cmp expect actual
'

test_expect_success 'twins are equal in their ends too: an end asked for is a new task' '
	reset_store &&
	a=$(task-add --weekly mon 09:00 "Plan the week") &&
	b=$(task-add --weekly mon 09:00 --until "jan 1" "Plan the week" 2>err) &&
	test "$b" != "$a" && test ! -s err &&
	c=$(task-add --weekly mon 09:00 --count 4 "Plan the week" 2>err) &&
	test "$c" != "$a" && test "$c" != "$b" && test ! -s err &&
	d=$(task-add --if-missing --weekly mon 09:00 --until "jan 1" "Plan the week" 2>err) &&
	test "$d" = "$b" &&
	grep -q "^task-add: task $b \"Plan the week\" is the same; not added" err &&
	e=$(task-add --if-missing --weekly mon 09:00 --count 4 "Plan the week" 2>err) &&
	test "$e" = "$c" && test_one_line err &&
	task-ls | cut -f5 | sort >actual &&
	cat >expect <<-\EOF &&
	Every Monday at 09:00
	Every Monday at 09:00 until 2027-01-01 00:00
	Every Monday at 09:00, 4 times
	EOF
	test_cmp expect actual
'

test_expect_success '--daily and --weekly take the clock forms of time expressions' '
	reset_store &&
	task-add --daily 9am --name a p1 >/dev/null &&
	task-add --daily "half past 6pm" --name b p2 >/dev/null &&
	task-add --daily noon --name c p3 >/dev/null &&
	task-add --weekly mon,thu 6:30pm --name d p4 >/dev/null &&
	task-add --weekly "fri quarter to 8" --name e p5 >/dev/null &&
	task-ls | cut -f2,5 >actual &&
	printf "%s\t%s\n" c "Daily at 12:00" b "Daily at 18:30" a "Daily at 09:00" \
		d "Every Mon, Thu at 18:30" e "Every Friday at 07:45" >expect &&
	test_cmp expect actual &&
	for bad in "9am UTC" "tomorrow at 9" 9 25:00 ""; do
		test_expect_code 2 task-add --daily "$bad" p 2>err &&
		test_one_line err && grep -q "^task-add: bad time of day" err || return 1
	done &&
	test "$(task-ls | wc -l)" -eq 5
'

test_done
