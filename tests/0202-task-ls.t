#!/bin/sh
# task-ls: order, filters, the three output forms, the empty store.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

test_expect_success 'an empty store says so, on stdout for people and stderr in a pipe' '
	task-ls >out 2>err && test ! -s out &&
	echo "No scheduled tasks configured." >expect && test_cmp expect err &&
	script -qec "task-ls" /dev/null | tr -d "\r" >tty && test_cmp expect tty &&
	task-ls --json >out 2>err && test ! -s out && test ! -s err
'

test_expect_success 'setup' '
	task-add --at 2026-11-22T10:30:00Z --name soon --channel ops "a" >/dev/null &&
	task-add --cron "0 12 * * *" --name noon --channel ops "b" >/dev/null &&
	task-add --at 2026-11-23T10:00:00Z --name tomorrow --disabled "c" >/dev/null &&
	task-add --manual --name adhoc "d" >/dev/null &&
	task-add --plan 2026-11-22T11:00:00Z --plan 2026-11-24T11:00:00Z --name plan "e" >/dev/null &&
	task-add --heartbeat --name beat "f" >/dev/null
'

test_expect_success 'tasks are ordered by next run, those without one last' '
	task-ls | cut -f2 >actual &&
	printf "%s\n" soon plan noon tomorrow adhoc beat >expect &&
	test_cmp expect actual
'

test_expect_success 'filters: kind, channel, enabled, disabled, limit' '
	task-ls --kind at | cut -f2 >actual && printf "%s\n" soon tomorrow >expect && test_cmp expect actual &&
	task-ls --kind cron,plan | cut -f2 >actual && printf "%s\n" plan noon >expect && test_cmp expect actual &&
	task-ls --channel ops | cut -f2 >actual && printf "%s\n" soon noon >expect && test_cmp expect actual &&
	task-ls --disabled | cut -f2 >actual && echo tomorrow >expect && test_cmp expect actual &&
	task-ls --enabled | wc -l | tr -d " " >actual && echo 5 >expect && test_cmp expect actual &&
	task-ls --limit 2 | cut -f2 >actual && printf "%s\n" soon plan >expect && test_cmp expect actual
'

test_expect_success 'due windows in minutes from now' '
	task-ls --due-within 60 | cut -f2 >actual && printf "%s\n" soon plan >expect && test_cmp expect actual &&
	task-ls --due-within 120 --due-after 45 | cut -f2 >actual && printf "%s\n" plan noon >expect && test_cmp expect actual &&
	task-ls --due-after 1000 | cut -f2 >actual && echo tomorrow >expect && test_cmp expect actual
'

test_expect_success 'status filter, and a filter that matches nothing says so' '
	task-ls --status pending | wc -l | tr -d " " >actual && echo 6 >expect && test_cmp expect actual &&
	task-ls --status failed,cancelled >out 2>err && test ! -s out &&
	echo "No tasks match." >expect && test_cmp expect err
'

test_expect_success 'tab-separated lines have six stable fields' '
	task-ls | awk -F "\t" "NF != 6 { bad = 1 } END { exit bad }" &&
	task-ls --kind plan | cut -f3-6 >actual &&
	printf "pending\t2026-11-22T11:00:00Z\tPlanned: 2 runs at 2026-11-22 11:00, 2026-11-24 11:00\t-\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'JSON lines, one object per task in listing order, with the description' '
	task-ls --json | test_json_norm >actual &&
	cat >expect <<-\EOF &&
	{"id":"<id1>","name":"soon","prompt":"a","system_prompt":null,"kind":"at","cron":null,"at":"2026-11-22T10:30:00Z","plan":null,"tz":"UTC","description":"Once on 2026-11-22 at 10:30","enabled":true,"status":"pending","next_run_at":"2026-11-22T10:30:00Z","due_at":"2026-11-22T10:30:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":"ops","payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id2>","name":"plan","prompt":"e","system_prompt":null,"kind":"plan","cron":null,"at":null,"plan":["2026-11-22T11:00:00Z","2026-11-24T11:00:00Z"],"tz":"UTC","description":"Planned: 2 runs at 2026-11-22 11:00, 2026-11-24 11:00","enabled":true,"status":"pending","next_run_at":"2026-11-22T11:00:00Z","due_at":"2026-11-22T11:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id3>","name":"noon","prompt":"b","system_prompt":null,"kind":"cron","cron":"0 12 * * *","at":null,"plan":null,"tz":"UTC","description":"Daily at 12:00","enabled":true,"status":"pending","next_run_at":"2026-11-22T12:00:00Z","due_at":"2026-11-22T12:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":"ops","payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id4>","name":"tomorrow","prompt":"c","system_prompt":null,"kind":"at","cron":null,"at":"2026-11-23T10:00:00Z","plan":null,"tz":"UTC","description":"Once on 2026-11-23 at 10:00","enabled":false,"status":"pending","next_run_at":"2026-11-23T10:00:00Z","due_at":"2026-11-23T10:00:00Z","last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id5>","name":"adhoc","prompt":"d","system_prompt":null,"kind":"manual","cron":null,"at":null,"plan":null,"tz":"UTC","description":"Manual","enabled":true,"status":"pending","next_run_at":null,"due_at":null,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	{"id":"<id6>","name":"beat","prompt":"f","system_prompt":null,"kind":"heartbeat","cron":null,"at":null,"plan":null,"tz":"UTC","description":"On every heartbeat","enabled":true,"status":"pending","next_run_at":null,"due_at":null,"last_run_at":null,"last_status":null,"last_error":null,"last_result":null,"consecutive_failures":0,"context":null,"attachments":null,"model":null,"exec":null,"timeout":0,"retries":-1,"intent":null,"channel":null,"payload":null,"key":null,"missed":"once","jitter":0,"overlap":"queue","deadline":0,"pause_after":-1,"paused":null,"notify":null,"notify_on":null,"budget":null,"queued":false,"until":null,"count":0,"ends_at":null,"mcp":null,"mcp_allow":null,"scope":null,"origin":"user","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z","deleted_at":null}
	EOF
	test_cmp expect actual
'

test_expect_success 'a table on a terminal' '
	NO_COLOR=1 script -qec "task-ls --kind cron,manual" /dev/null | tr -d "\r" >actual &&
	id1=$(task-ls --kind cron | cut -c1-8) && id2=$(task-ls --kind manual | cut -c1-8) &&
	cat >expect <<-EOF &&
	ID        NAME   SCHEDULE        NEXT RUN              STATUS   LAST
	$id1  noon   Daily at 12:00  2026-11-22 12:00 UTC  pending  -
	$id2  adhoc  Manual          none                  pending  -
	EOF
	test_cmp expect actual
'

test_expect_success 'NO_COLOR keeps escape codes out, a terminal without it gets a bold header' '
	NO_COLOR=1 script -qec "task-ls" /dev/null >plain && ! grep -q "$(printf "\033")" plain &&
	script -qec "task-ls" /dev/null >bold && grep -q "$(printf "\033\\[1m")" bold
'

test_expect_success 'the table shows control characters as ? and lines up wide characters' '
	export TASK_DB=$(new_store odd) &&
	task-add --manual --name "$(printf "red\033[31mX\bY")" "a" >/dev/null &&
	task-add --manual --name "日本語の名前" "b" >/dev/null &&
	task-add --manual --name "$(printf "cafe\314\201 cr\303\250me")" "c" >/dev/null &&
	task-add --manual --name "長い名前長い名前長い名前長い名前長い名前長い名前" "d" >/dev/null &&
	NO_COLOR=1 script -qec "task-ls" /dev/null | tr -d "\r" | cut -c11- >actual &&
	{
		echo "NAME                                     SCHEDULE  NEXT RUN  STATUS   LAST" &&
		echo "red?[31mX?Y                              Manual    none      pending  -" &&
		echo "日本語の名前                             Manual    none      pending  -" &&
		printf "cafe\314\201 cr\303\250me%31sManual    none      pending  -\n" "" &&
		echo "長い名前長い名前長い名前長い名前長い...  Manual    none      pending  -"
	} >expect &&
	test_cmp expect actual
'

test_expect_success 'bad filter values' '
	test_expect_code 2 task-ls --status pendng 2>err && test_one_line err &&
	test_expect_code 2 task-ls --kind weekly 2>err && test_one_line err &&
	test_expect_code 2 task-ls --limit 0 2>err && test_one_line err &&
	test_expect_code 2 task-ls --due-within soon 2>err && test_one_line err &&
	test_expect_code 2 task-ls extra 2>err && test_one_line err
'

# One zone per column: the same instant in London and Paris is one time,
# in the local zone (TZ) or with --utc, so a sorted listing reads sorted.
test_expect_success 'NEXT RUN in one zone for every row; --utc; task-show keeps the task zone' '
	reset_store &&
	task-add --at "2026-11-23T10:00:00Z" --tz Europe/Paris --name paris p >/dev/null &&
	task-add --at "2026-11-23T10:00:00Z" --tz America/New_York --name ny p >/dev/null &&
	task-add --at "2026-11-23T11:00:00Z" --tz Asia/Tokyo --name tokyo p >/dev/null &&
	NO_COLOR=1 TZ=Europe/London script -qec "task-ls" /dev/null | tr -d "\r" | cut -c11- >actual &&
	cat >expect <<-\EOF &&
	NAME   SCHEDULE                     NEXT RUN              STATUS   LAST
	paris  Once on 2026-11-23 at 11:00  2026-11-23 10:00 GMT  pending  -
	ny     Once on 2026-11-23 at 05:00  2026-11-23 10:00 GMT  pending  -
	tokyo  Once on 2026-11-23 at 20:00  2026-11-23 11:00 GMT  pending  -
	EOF
	test_cmp expect actual &&
	NO_COLOR=1 TZ=America/Chicago script -qec "task-ls --utc" /dev/null | tr -d "\r" |
		grep -o "2026-11-23 [0-9:]* [A-Z]*" >actual &&
	printf "%s\n" "2026-11-23 10:00 UTC" "2026-11-23 10:00 UTC" "2026-11-23 11:00 UTC" >expect &&
	test_cmp expect actual &&
	task-show "$(task-ls | grep tokyo | cut -f1)" | grep "^next run:" >actual &&
	echo "next run:     2026-11-23 20:00 JST (2026-11-23T11:00:00Z)" >expect &&
	test_cmp expect actual
'

test_expect_success 'a task due past its grace and not fired is marked overdue, with a hint' '
	reset_store &&
	task-add --at "2026-11-22T11:00:00Z" --name later p >/dev/null &&
	task-add --at "2026-11-22T10:30:00Z" --name soon p >/dev/null &&
	NO_COLOR=1 TASK_NOW=2026-11-22T10:31:00Z script -qec "task-ls" /dev/null | tr -d "\r" |
		cut -c11- >actual &&
	cat >expect <<-\EOF &&
	NAME   SCHEDULE                     NEXT RUN              STATUS   LAST
	soon   Once on 2026-11-22 at 10:30  2026-11-22 10:30 UTC  pending  -
	later  Once on 2026-11-22 at 11:00  2026-11-22 11:00 UTC  pending  -
	EOF
	test_cmp expect actual &&
	NO_COLOR=1 TASK_NOW=2026-11-22T10:31:01Z script -qec "task-ls" /dev/null | tr -d "\r" |
		sed "s/^[0-9a-f]\{8\}  //; s/^ID        //" >actual &&
	cat >expect <<-\EOF &&
	NAME   SCHEDULE                     NEXT RUN                        STATUS   LAST
	soon   Once on 2026-11-22 at 10:30  2026-11-22 10:30 UTC (overdue)  pending  -
	later  Once on 2026-11-22 at 11:00  2026-11-22 11:00 UTC            pending  -
	1 overdue: due more than a minute ago and not fired; is task-tick running? (see task-tick(1))
	EOF
	test_cmp expect actual &&
	TASK_NOW=2026-11-22T10:31:01Z task-ls | cut -f2,4 >actual &&
	printf "soon\t2026-11-22T10:30:00Z\nlater\t2026-11-22T11:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-show marks an overdue next run too, and only once past the grace' '
	TASK_NOW=2026-11-22T10:31:00Z task-show soon | grep "^next run:" >actual &&
	echo "next run:     2026-11-22 10:30 UTC (2026-11-22T10:30:00Z)" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-22T10:31:01Z task-show soon | grep "^next run:" >actual &&
	echo "next run:     2026-11-22 10:30 UTC (2026-11-22T10:30:00Z) (overdue: not fired; is task-tick running?)" >expect &&
	test_cmp expect actual
'

# Rerun what failed: a recurring task whose run failed stays pending,
# so --status cannot find it; --last can.
test_expect_success '--last: tasks by how their last run ended; --last failed | task-run -' '
	reset_store &&
	printf "#!/bin/sh\ntest -e fixed || exit 1\necho fixed\n" >flaky && chmod +x flaky &&
	task-add --cron "*/5 * * * *" --name flaky --exec "$PWD/flaky" p1 >/dev/null &&
	task-add --cron "*/5 * * * *" --name fine --exec true p2 >/dev/null &&
	task-add --cron "*/5 * * * *" --name never --exec true p3 >/dev/null &&
	task-edit never --disable >/dev/null &&
	TASK_NOW=2026-11-22T10:05:00Z task-tick >/dev/null 2>&1 &&
	task-ls --status failed >out 2>/dev/null && test ! -s out &&
	task-ls --last failed | cut -f2,3,6 >actual &&
	printf "flaky\tpending\tfailed\n" >expect && test_cmp expect actual &&
	task-ls --last success,failed | cut -f2 | sort >actual &&
	printf "fine\nflaky\n" >expect && test_cmp expect actual &&
	: >fixed &&
	task-ls --last failed | task-run - >out &&
	echo fixed >expect && test_cmp expect out &&
	task-ls --last failed >out 2>/dev/null && test ! -s out &&
	test_expect_code 2 task-ls --last broken 2>err && test_one_line err
'

test_expect_success '--due-within counts a queued run as due now' '
	reset_store &&
	a=$(task-add --manual --name asked p) &&
	task-add --at "2026-11-22T10:30:00Z" --name soon p >/dev/null &&
	task-add --at "2026-11-23T10:30:00Z" --name tomorrow p >/dev/null &&
	task-ls --due-within 60 | cut -f2 >actual &&
	echo soon >expect && test_cmp expect actual &&
	task-run --queue "$a" >/dev/null &&
	task-ls --due-within 60 | cut -f2 | sort >actual &&
	printf "asked\nsoon\n" >expect && test_cmp expect actual
'

test_done
