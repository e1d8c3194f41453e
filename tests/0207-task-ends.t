#!/bin/sh
# Recurrences that end, as people meet them: --until and --count in task-add
# and task-edit, the descriptions in task-ls, the end in task-show and
# task-edit's report, refusals (one line, exit 2, nothing changed), the JSON
# import of until as a time expression, and date_order for --until.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T09:30:00Z
mkdir -p config/agentcron

# fields KEY...: those fields of each JSON line on stdin, tab-separated, a
# null as nothing.
fields() {
	node -e 'let s = "";
	process.stdin.on("data", d => s += d).on("end", () => {
		for (const l of s.split("\n").filter(Boolean)) {
			const o = JSON.parse(l);
			console.log(process.argv.slice(1).map(k => o[k] === null ? "" :
			    typeof o[k] === "object" ? JSON.stringify(o[k]) : String(o[k])).join("\t"));
		}
	})' "$@"
}

# show ID: task-show without the lines that differ by run (id, created).
show() {
	task-show "$1" | sed "/^id:/d; /^created:/d"
}

test_expect_success 'task-add --until and --count: the description in task-ls says the end' '
	a=$(task-add --cron "0 * * * *" --until 17:00 --tz Europe/London --exec true --name hourly hourly) &&
	b=$(task-add --daily 09:00 --count 7 --tz Europe/London --exec true --name daily daily) &&
	c=$(task-add --weekly mon 09:00 --until "2026-12-31 12:00" --count 3 --tz Europe/London \
		--exec true --name weekly weekly) &&
	for id in $a $b $c; do task-ls --json | grep "\"id\":\"$id\"" || return 1; done |
		fields name description next_run_at until count ends_at >actual &&
	cat >expect <<-\EOF &&
	hourly	Hourly at :00 until 2026-11-23 17:00	2026-11-23T10:00:00Z	2026-11-23T17:00:00Z	0	2026-11-23T17:00:00Z
	daily	Daily at 09:00, 7 times	2026-11-24T09:00:00Z		7	2026-11-30T09:00:00Z
	weekly	Every Monday at 09:00 until 2026-12-31 12:00, 3 times	2026-11-30T09:00:00Z	2026-12-31T12:00:00Z	3	2026-12-14T09:00:00Z
	EOF
	test_cmp expect actual &&
	task-ls | grep -F -e hourly -e daily -e weekly | cut -f2,5 >actual &&
	cat >expect <<-\EOF &&
	hourly	Hourly at :00 until 2026-11-23 17:00
	daily	Daily at 09:00, 7 times
	weekly	Every Monday at 09:00 until 2026-12-31 12:00, 3 times
	EOF
	test_cmp expect actual
'

test_expect_success 'task-show: one line says when it ends and how many runs are left' '
	id=$(task-add --cron "0 * * * *" --until 17:00 --tz Europe/London --exec true --name show1 show1) &&
	show "$id" >actual &&
	cat >expect <<-EOF &&
	name:         show1
	status:       pending
	schedule:     Hourly at :00 until 2026-11-23 17:00 (cron '"'"'0 * * * *'"'"', Europe/London)
	next run:     2026-11-23 10:00 GMT (2026-11-23T10:00:00Z)
	ends:         2026-11-23 17:00 GMT (until); 8 occurrences left
	last run:     never
	failures:     0
	exec:         true
	missed:       once
	made by:      the user
	prompt:
	  show1
	recent runs:  none
	EOF
	test_cmp expect actual &&
	id=$(task-add --daily 09:00 --count 7 --tz Europe/London --exec true --name show2 show2) &&
	task-show "$id" | grep "^ends:" >actual &&
	echo "ends:         2026-11-30 09:00 GMT (after 7 occurrences); 7 occurrences left" >expect &&
	test_cmp expect actual &&
	id=$(task-add --daily 09:00 --count 7 --until "nov 27 12:00" --tz Europe/London --exec true --name show3 show3) &&
	task-show "$id" | grep "^ends:" >actual &&
	echo "ends:         2026-11-27 12:00 GMT (after 7 occurrences or until 2026-11-27 12:00, whichever is first); 4 occurrences left" >expect &&
	test_cmp expect actual &&
	id=$(task-add --cron "* * * * *" --until "in 1 day" --tz Europe/London --exec true --name show4 show4) &&
	task-show "$id" | grep "^ends:" >actual &&
	echo "ends:         2026-11-24 09:30 GMT (until); over 1000 occurrences left" >expect &&
	test_cmp expect actual &&
	id=$(task-add --daily 09:00 --tz Europe/London --exec true --name show5 show5) &&
	test_expect_code 1 grep "^ends:" <<-EOF
	$(task-show "$id")
	EOF
'

test_expect_success 'refused, each in one line with exit 2, and nothing added' '
	task-ls --json >before &&
	while IFS="|" read -r args msg; do
		eval "test_expect_code 2 task-add --tz Europe/London $args p" >out 2>err &&
		test ! -s out && echo "task-add: $msg" >expect && test_cmp expect err || return 1
	done <<-\EOF &&
	--cron "0 * * * *" --until yesterday|--until: '"'"'yesterday'"'"' is 2026-11-22 09:30 GMT in Europe/London, which is in the past
	--cron "0 * * * *" --until 2026-11-23T09:00:00Z|--until: '"'"'2026-11-23T09:00:00Z'"'"' is 2026-11-23 09:00 GMT in Europe/London, which is in the past
	--cron "0 * * * *" --until 2026-11-23T09:29:30Z|--until 2026-11-23 09:29:30 GMT is in the past (read in Europe/London)
	--daily 09:00 --until 08:00|--until 2026-11-24 08:00 GMT comes before the first occurrence, 2026-11-24 09:00 GMT; it would never run
	--at "tomorrow at 10am" --until "friday"|--until and --count end recurring tasks (--cron, --daily, --weekly, --every); a one-shot task (--at) has no recurrence to end
	--plan "tomorrow" --count 2|--until and --count end recurring tasks (--cron, --daily, --weekly, --every); a planned task (--plan) has no recurrence to end
	--manual --count 2|--until and --count end recurring tasks (--cron, --daily, --weekly, --every); a manual task has no recurrence to end
	--daily 09:00 --count 0|--count 0 would never run: give a number of occurrences from 1 to 100000
	--daily 09:00 --count -3|bad --count '"'"'-3'"'"': expected a number of occurrences from 1 to 100000
	--daily 09:00 --count 100001|bad --count '"'"'100001'"'"': expected a number of occurrences from 1 to 100000
	--daily 09:00 --count 99999999999999999999|bad --count '"'"'99999999999999999999'"'"': expected a number of occurrences from 1 to 100000
	--daily 09:00 --count seven|bad --count '"'"'seven'"'"': expected a number of occurrences from 1 to 100000
	--daily 09:00 --until "when pigs fly"|--until: cannot understand time '"'"'when pigs fly'"'"' (read in Europe/London): unknown word '"'"'when'"'"'; try '"'"'tomorrow at 10am'"'"', '"'"'in 2 hours'"'"' or 2026-11-23T07:00:00Z
	EOF
	task-ls --json >after &&
	test_cmp before after
'

test_expect_success 'task-edit --count re-arms from now; the report says the new end' '
	id=$(task-add --daily 09:00 --count 7 --tz Europe/London --exec true --name edit1 edit1) &&
	TASK_NOW=2026-11-25T12:00:00Z task-edit "$id" --count 2 >actual &&
	cat >expect <<-\EOF &&
	count: 7 -> 2
	next run: 2026-11-26 09:00 GMT
	ends: 2026-11-27 09:00 GMT (after 2 occurrences)
	EOF
	test_cmp expect actual &&
	TASK_NOW=2026-11-25T12:00:00Z task-edit "$id" --until "nov 26 18:00" >actual &&
	cat >expect <<-\EOF &&
	until: none -> 2026-11-26T18:00:00Z
	next run: 2026-11-26 09:00 GMT
	ends: 2026-11-26 18:00 GMT (after 2 occurrences or until 2026-11-26 18:00, whichever is first)
	EOF
	test_cmp expect actual &&
	TASK_NOW=2026-11-25T12:00:00Z task-edit "$id" --until none --count 0 >actual &&
	cat >expect <<-\EOF &&
	until: 2026-11-26T18:00:00Z -> none
	count: 2 -> 0
	next run: 2026-11-26 09:00 GMT
	ends: none
	EOF
	test_cmp expect actual &&
	task-ls --json | grep "\"id\":\"$id\"" | fields description until count ends_at >actual &&
	printf "Daily at 09:00\t\t0\t\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-edit: a new schedule re-arms the end; a one-shot schedule drops it' '
	id=$(task-add --daily 09:00 --count 3 --tz Europe/London --exec true --name edit2 edit2) &&
	task-edit "$id" --daily 18:00 >actual &&
	cat >expect <<-\EOF &&
	cron: 0 9 * * * -> 0 18 * * *
	next run: 2026-11-23 18:00 GMT
	ends: 2026-11-25 18:00 GMT (after 3 occurrences)
	EOF
	test_cmp expect actual &&
	task-edit "$id" --at "friday at noon" >actual &&
	cat >expect <<-\EOF &&
	kind: cron -> at
	cron: 0 18 * * * -> none
	at: none -> 2026-11-27T12:00:00Z
	count: 3 -> 0
	next run: 2026-11-27 12:00 GMT
	ends: none
	EOF
	test_cmp expect actual &&
	task-ls --json >before &&
	test_expect_code 2 task-edit "$id" --count 2 2>err &&
	echo "task-edit: --until and --count end recurring tasks (--cron, --daily, --weekly, --every); a one-shot task (--at) has no recurrence to end" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-edit "$id" --daily 09:00 --until yesterday 2>err &&
	test_one_line err &&
	task-ls --json >after &&
	test_cmp before after
'

test_expect_success 'task-edit --count on a finished recurrence makes it pending again' '
	id=$(task-add --daily 09:00 --count 1 --tz Europe/London --exec true --name edit3 edit3) &&
	TASK_NOW=2026-11-24T09:00:05Z task-tick >/dev/null &&
	task-ls --json | grep "\"id\":\"$id\"" | fields status next_run_at >actual &&
	printf "completed\t\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-24T10:00:00Z task-edit "$id" --count 2 >actual &&
	cat >expect <<-\EOF &&
	status: completed -> pending
	count: 1 -> 2
	next run: 2026-11-25 09:00 GMT
	ends: 2026-11-26 09:00 GMT (after 2 occurrences)
	EOF
	test_cmp expect actual
'

test_expect_success 'enabling a recurrence whose end went by while disabled says why it cannot' '
	id=$(task-add --cron "0 * * * *" --until 12:00 --tz Europe/London --disabled --exec true --name edit4 edit4) &&
	task-ls --json >before &&
	TASK_NOW=2026-11-23T13:00:00Z test_expect_code 2 task-edit "$id" --enable 2>err &&
	echo "task-edit: the recurrence ended at 2026-11-23 12:00 GMT (--until/--count); give a later --until or a new --count" >expect &&
	test_cmp expect err &&
	task-ls --json >after &&
	test_cmp before after &&
	TASK_NOW=2026-11-23T13:00:00Z task-edit "$id" --enable --until 15:00 >actual &&
	cat >expect <<-\EOF &&
	enabled: false -> true
	until: 2026-11-23T12:00:00Z -> 2026-11-23T15:00:00Z
	next run: 2026-11-23 14:00 GMT
	ends: 2026-11-23 15:00 GMT (until)
	EOF
	test_cmp expect actual
'

test_expect_success 'date_order = dmy reads --until day first, as --at' '
	echo "date_order = dmy" >config/agentcron/config &&
	id=$(task-add --daily 09:00 --until "4/12/2027 18:00" --tz Europe/London --exec true --name dmy dmy) &&
	rm config/agentcron/config &&
	id2=$(task-add --daily 09:00 --until "4/12/2027 18:00" --tz Europe/London --exec true --name mdy mdy) &&
	for i in $id $id2; do task-ls --json | grep "\"id\":\"$i\"" || return 1; done |
		fields name until >actual &&
	printf "dmy\t2027-12-04T18:00:00Z\nmdy\t2027-04-12T17:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'JSON import: until as a time expression, with the past rules of at' '
	printf "%s\n" "{\"name\":\"j1\",\"prompt\":\"j1\",\"exec\":\"true\",\"cron\":\"0 * * * *\",\"tz\":\"Europe/London\",\"until\":\"5pm\"}" \
		"{\"name\":\"j2\",\"prompt\":\"j2\",\"exec\":\"true\",\"cron\":\"0 9 * * *\",\"tz\":\"Europe/London\",\"count\":3}" |
		task-add --json - >ids &&
	for i in $(cat ids); do task-ls --json | grep "\"id\":\"$i\"" || return 1; done |
		fields name description until count ends_at >actual &&
	cat >expect <<-\EOF &&
	j1	Hourly at :00 until 2026-11-23 17:00	2026-11-23T17:00:00Z	0	2026-11-23T17:00:00Z
	j2	Daily at 09:00, 3 times		3	2026-11-26T09:00:00Z
	EOF
	test_cmp expect actual &&
	task-ls --json >before &&
	echo "{\"name\":\"j3\",\"prompt\":\"p\",\"cron\":\"0 * * * *\",\"until\":\"yesterday\"}" |
		test_expect_code 2 task-add --json - 2>err &&
	echo "task-add: stdin:1: field '"'"'until'"'"': '"'"'yesterday'"'"' is 2026-11-22 09:30 UTC in UTC, which is in the past" >expect &&
	test_cmp expect err &&
	echo "{\"name\":\"j4\",\"prompt\":\"p\",\"at\":\"tomorrow\",\"until\":\"friday\"}" |
		test_expect_code 2 task-add --json - 2>err &&
	test_one_line err &&
	echo "{\"name\":\"j5\",\"prompt\":\"p\",\"cron\":\"0 * * * *\",\"count\":-1}" |
		test_expect_code 2 task-add --json - 2>err &&
	echo "task-add: stdin:1: count must be from 1 to 100000 runs, or 0 for no end" >expect &&
	test_cmp expect err &&
	task-ls --json >after &&
	test_cmp before after
'

test_expect_success 'JSON import keeps an exported ends_at: a copy keeps its progress' '
	id=$(task-add --daily 09:00 --count 5 --tz Europe/London --exec true --name copy copy) &&
	for d in 24 25; do TASK_NOW=2026-11-${d}T09:00:05Z task-tick >/dev/null || return 1; done &&
	task-ls --json | grep "\"id\":\"$id\"" >orig.json &&
	sed "s/\"id\":\"[^\"]*\",//; s/\"name\":\"copy\"/\"name\":\"copy2\"/" orig.json |
		TASK_DB=$TEST_TMP/copy.db TASK_NOW=2026-11-25T12:00:00Z task-add --json - >/dev/null &&
	TASK_DB=$TEST_TMP/copy.db task-ls --json |
		fields next_run_at until count ends_at status >actual &&
	printf "2026-11-26T09:00:00Z\t\t5\t2026-11-28T09:00:00Z\tpending\n" >expect &&
	test_cmp expect actual &&
	sed "s/\"id\":\"[^\"]*\",//; s/\"next_run_at\":\"[^\"]*\",//; s/\"copy\"/\"copy3\"/g" orig.json |
		TASK_DB=$TEST_TMP/copy.db TASK_NOW=2026-11-25T12:00:00Z task-add --json - >/dev/null &&
	TASK_DB=$TEST_TMP/copy.db task-ls --json | grep copy3 |
		fields next_run_at ends_at >actual &&
	printf "2026-11-26T09:00:00Z\t2026-11-28T09:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_done
