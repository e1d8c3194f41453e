#!/bin/sh
# Bad input the earlier files do not try: task-when --id beside a schedule
# (a task found as everywhere else, not text hashed as typed), JSON tasks
# naming a field twice or holding a NUL byte, a prompt too long or cut by
# a NUL, numbers with blanks, signs or exponents, the year 0000, values
# printed back or written into a unit or a crontab line that are not one
# line of UTF-8 text, llm-call's text options, an address task-web cannot
# serve on.  Each refusal: its exit status, one line on standard error,
# nothing on standard output, the store as it was.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-25T08:00:00Z
mkdir -p config/agentcron && echo "stagger = 30m" >config/agentcron/config

keep=5eed0000-0000-4000-8000-00000000c0de
echo "{\"id\":\"$keep\",\"name\":\"keep\",\"prompt\":\"A task that must survive\",\"cron\":\"0 9 * * *\",\"exec\":\"true\"}" |
	task-add --json - >/dev/null
task-ls --json >before


test_expect_success 'task-when --id with a schedule: a prefix, a name or capitals are the task' '
	task-when --utc --id "$keep" --daily 09:00 >expect &&
	task-ls --json | python3 -c "import json, sys; print(json.loads(sys.stdin.readline())[\"due_at\"])" >due &&
	test_cmp expect due && test "$(cat due)" != 2026-11-25T09:00:00Z &&
	task-when --utc --id "$(echo "$keep" | cut -c1-8)" --daily 09:00 >actual &&
	test_cmp expect actual &&
	task-when --utc --id keep "0 9 * * *" >actual &&
	test_cmp expect actual &&
	task-when --utc --id "$(echo "$keep" | tr a-f A-F)" --daily 09:00 >actual &&
	test_cmp expect actual
'

test_expect_success 'task-when --id with a schedule: a UUID no task has yet is taken as given' '
	task-when --utc --id 0123abcd-0000-4000-8000-000000000000 --daily 09:00 >actual &&
	task-when --utc --id "$keep" --daily 09:00 >keep &&
	test "$(wc -l <actual)" -eq 1 && test "$(cat actual)" != "$(cat keep)"
'

test_expect_success 'task-when --id with a schedule: no such task, or several, is said' '
	test_refused 3 task-when --id "$(printf "\377\001x")" --daily 09:00 &&
	echo "task-when: no task '\''$(printf "\357\277\275")?x'\'' (an id, a prefix of 4+ of its characters, or its name)" >expect &&
	test_cmp expect err &&
	test_refused 3 task-when --id "" "0 9 * * *" &&
	task-add --manual --name twin p >/dev/null && task-add --manual --name twin q >/dev/null &&
	task-ls --json >before &&
	test_refused 4 task-when --id twin --daily 09:00 &&
	grep -q "name .twin. is ambiguous" err
'

test_expect_success 'a JSON task naming a field twice is refused, not read as one of them' '
	cat >in <<-\EOF &&
	{"name":"first","prompt":"p","kind":"manual"}
	{"name":"first","prompt":"p","kind":"manual","name":"second"}
	EOF
	test_refused 2 sh -c "task-add --json - <in" &&
	echo "task-add: stdin:2: field '\''name'\'' is given twice" >expect &&
	test_cmp expect err &&
	echo "{\"name\":\"n\",\"prompt\":\"p\",\"at\":\"2026-11-26T09:00:00Z\",\"at\":null}" >in &&
	test_refused 2 sh -c "task-add --json - <in" &&
	echo "task-add: stdin:1: field '\''at'\'' is given twice" >expect &&
	test_cmp expect err
'

test_expect_success 'task-web --print-systemd: an address serving would refuse is refused now' '
	for l in "" 12abc -1 "127.0.0.1:" ":8642" "127.0.0.1:65536" "127.0.0.1:+80" host.example:80; do
		test_refused 2 task-web --print-systemd --listen "$l" &&
		echo "task-web: bad --listen '\''$l'\'': give ADDRESS:PORT, a numeric address and a port 0-65535, as 127.0.0.1:8642 (try '\''task-web --help'\'')" >expect &&
		test_cmp expect err || return 1
	done &&
	for l in 127.0.0.1:0 "[::1]:8642" localhost:8642; do
		task-web --print-systemd --listen "$l" >unit &&
		echo "--listen $l" >expect &&
		sed -n "s/^ExecStart=.*\/task-web //p" unit >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'task-web --print-systemd: what ExecStart= would split or read otherwise is refused' '
	for v in "127.0.0.1:80 --read-only" "[fe80::1%lo]:80" "$(printf "127.0.0.1:80\001")"; do
		test_refused 2 task-web --print-systemd --listen "$v" || return 1
	done &&
	for v in "run/a b.sock" "$(printf "run/\377.sock")" "$(printf "run/\033[2J.sock")"; do
		test_refused 2 task-web --print-systemd --socket "$v" &&
		echo "task-web: --print-systemd: the address or path has characters a unit would read otherwise (white space, quotes, \\, %, \$, controls) (try '\''task-web --help'\'')" >expect &&
		test_cmp expect err || return 1
	done
'

test_expect_success 'task-status --print-cron: a path or URL that is not one line of text is refused' '
	for v in "$(printf "run/\377.prom")" "$(printf "run/\033[2J.prom")" "$(printf "a\nb")"; do
		test_refused 2 task-status --print-cron --textfile "$v" &&
		echo "task-status: --textfile: a path on one line, UTF-8 text without controls (try '\''task-status --help'\'')" >expect &&
		test_cmp expect err || return 1
	done &&
	test_refused 2 task-status --print-cron --ping "$(printf "https://hc.example/\377")" &&
	echo "task-status: --ping: a URL on one line, UTF-8 text without controls (try '\''task-status --help'\'')" >expect &&
	test_cmp expect err &&
	task-status --print-cron --textfile "$(printf "run/m\303\251trics.prom")" >cron &&
	grep -qF "$(printf "run/m\303\251trics.prom")" cron
'

test_expect_success 'a NUL byte in a prompt or a JSON stream is refused, not read as the end' '
	printf "a\000b" >in &&
	test_refused 2 sh -c "task-add --manual --name n <in" &&
	echo "task-add: the prompt holds a NUL byte; it must be text" >expect &&
	test_cmp expect err &&
	printf "{\"name\":\"n\",\"prompt\":\"p\",\"kind\":\"manual\"}\n\n{\"name\":\"n\",\"prompt\":\"p\000x\",\"kind\":\"manual\"}\n" >in &&
	test_refused 2 sh -c "task-add --json - <in" &&
	echo "task-add: stdin:3: holds a NUL byte; it must be text" >expect &&
	test_cmp expect err &&
	printf "{\"name\":\"n\",\"prompt\":\"p\",\"kind\":\"manual\"}\000{\"name\":\"m\"}" >in &&
	test_refused 2 sh -c "task-add --json - <in" &&
	echo "task-add: stdin:1: holds a NUL byte; it must be text" >expect &&
	test_cmp expect err
'

test_expect_success 'a prompt past 16 MiB on standard input is bad input, not a failure to read' '
	head -c 16777217 /dev/zero | tr "\000" a >in &&
	test_refused 2 sh -c "task-add --manual --name n <in" &&
	echo "task-add: the prompt on standard input is longer than 16 MiB" >expect &&
	test_cmp expect err
'

test_expect_success 'a number is digits: blanks, a plus sign, hex and exponents are refused' '
	while IFS="|" read -r line cmd; do
		# $cmd is a command line, split on purpose; a value with a blank is quoted apart.
		test_refused 2 $cmd &&
		printf "%s\n" "$line" >expect && test_cmp expect err || return 1
	done <<-\EOF &&
	task-deliver: bad --max '\''0'\'': expected a number from 1 to 100000|task-deliver --max 0
	task-deliver: bad --jobs '\''x'\'': expected a number from 1 to 64|task-deliver --jobs x
	task-ls: bad --limit '\''+5'\'': expected a number, 1 or more|task-ls --limit +5
	task-log: bad --limit '\''0x10'\'': expected a number, 0 or more (0: all)|task-log --limit 0x10
	llm-call: bad --timeout '\''0x10'\'': expected a number of seconds above 0, at most 86400|llm-call --timeout 0x10 hi
	llm-call: bad --deadline '\''1e3'\'': expected a number of seconds above 0, at most 604800|llm-call --deadline 1e3 hi
	llm-call: bad --connect-timeout '\''inf'\'': expected a number of seconds above 0, at most 86400|llm-call --connect-timeout inf hi
	EOF
	test_refused 2 task-when -n " 5" @daily &&
	echo "task-when: bad -n '\'' 5'\'': expected a number from 1 to 100000" >expect &&
	test_cmp expect err &&
	test_refused 2 task-deliver --jobs " 5" &&
	echo "task-deliver: bad --jobs '\'' 5'\'': expected a number from 1 to 64" >expect &&
	test_cmp expect err &&
	task-when -n 2 @daily >out && test "$(wc -l <out)" -eq 2 &&
	llm-call --provider echo --no-log --timeout 0.5 hi >out &&
	echo "echo: hi" >expect && test_cmp expect out
'

test_expect_success 'task-when --cost --model: a name it would print back is one line of text' '
	for m in "$(printf "a\377b")" "" "$(printf "a\033[2Jb")"; do
		test_refused 2 task-when --cost --model "$m" @daily || return 1
	done &&
	echo "task-when: bad --model '\''a?[2Jb'\'': expected a model name" >expect &&
	test_cmp expect err &&
	task-when --cost --model gpt-4o @daily >out &&
	grep -q "no call of gpt-4o on record" out
'

test_expect_success 'a date in the year 0000 is out of range, not a date without a year' '
	for d in 0000-01-01 "0000-06-15 10:00" 1/2/0000 1.2.0000 "jan 5 0000"; do
		test_refused 2 task-when --utc "$d" &&
		grep -q "year 0000 is out of range 1970-9999" err &&
		test_refused 2 task-add --at "$d" --name n p || return 1
	done &&
	task-when --utc 2027-01-01 >out &&
	echo 2027-01-01T00:00:00Z >expect && test_cmp expect out
'

test_expect_success 'llm-call: a system prompt, model or context that is not UTF-8 is refused, not stored' '
	for f in --system --model --context --fallback-model; do
		test_refused 2 llm-call --provider echo $f "$(printf "a\377b")" hi &&
		echo "llm-call: $f is not UTF-8 text" >expect &&
		test_cmp expect err || return 1
	done &&
	task-log --calls --json >calls &&
	test ! -s calls &&
	llm-call --provider echo --context "$(printf "caf\303\251")" hi >out &&
	echo "echo: hi" >expect && test_cmp expect out
'

test_expect_success 'task-web: an address it cannot serve on is refused before the store is made' '
	TASK_DB=$TEST_TMP/none.db test_expect_code 2 task-web --listen 127.0.0.1:99999 >out 2>err </dev/null &&
	test_one_line err && test ! -s out &&
	test ! -e none.db &&
	echo "task-web: bad --listen '\''127.0.0.1:99999'\'': give ADDRESS:PORT, a numeric address and a port 0-65535, as 127.0.0.1:8642 (try '\''task-web --help'\'')" >expect &&
	test_cmp expect err
'

test_expect_success 'a JSON task with a negative interval is told so, not "no schedule"' '
	echo "{\"name\":\"n\",\"prompt\":\"p\",\"every\":-60}" >in &&
	test_refused 2 sh -c "task-add --json - <in" &&
	echo "task-add: stdin:1: an interval (--every) must be from 1 minute to 366 days" >expect &&
	test_cmp expect err
'

test_done
