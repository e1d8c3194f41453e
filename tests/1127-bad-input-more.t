#!/bin/sh
# More bad input: every --daily and --weekly given counts (they combine as
# --cron does, in task-add, task-edit and task-when); a JSON task's empty
# attachment path; task-mcp arguments that are not UTF-8 or hold a NUL;
# llm-call -o with bytes that are not UTF-8; the config file's numbers
# read as older versions read them, where an option's must be digits; a
# duration with a blank or a sign before it; task-edit's values checked
# before the task is looked for; a long number quoted whole in a cron
# error; task-add naming where a bad zone came from.
. "$AC_TOP/tests/lib.sh"
SQ="'"
export TASK_NOW=2026-11-25T08:00:00Z

test_expect_success 'task-when: each --daily and --weekly given fires' '
	task-when --utc --tz UTC -n 5 --daily 07:00 --daily 08:00 --weekly fri 09:00 --weekly "sat 10:00" >actual &&
	cat >expect <<-\EOT &&
	2026-11-26T07:00:00Z
	2026-11-26T08:00:00Z
	2026-11-27T07:00:00Z
	2026-11-27T08:00:00Z
	2026-11-27T09:00:00Z
	EOT
	test_cmp expect actual &&
	task-when --tz UTC --describe --daily 07:00 --daily 08:00 --weekly fri 09:00 >actual &&
	head -n 1 actual >desc &&
	echo "Daily at 07:00, daily at 08:00 and every Friday at 09:00" >expect &&
	test_cmp expect desc
'

crons() {
	task-show --json "$1" | python3 -c "import json, sys; print(\"|\".join(json.load(sys.stdin)[\"crons\"]))"
}

test_expect_success 'task-add and task-edit: each --daily and --weekly given is kept' '
	id=$(task-add --tz UTC --daily 07:00 --daily 08:00 --weekly mon 09:00 --weekly "fri 10:00" --name t p) &&
	crons "$id" >actual &&
	echo "0 7 * * *|0 8 * * *|0 9 * * 1|0 10 * * 5" >expect &&
	test_cmp expect actual &&
	task-edit "$id" --daily 06:00 --daily 18:00 >/dev/null &&
	crons "$id" >actual &&
	echo "0 6 * * *|0 18 * * *" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 task-edit "$id" --daily 06:00 --daily 25:00 >out 2>err &&
	test_one_line err && test ! -s out &&
	crons "$id" >actual && test_cmp expect actual
'

test_expect_success 'task-add --json -: an empty attachment path is refused, nothing stored' '
	task-ls --json >before &&
	echo "{\"name\":\"a\",\"prompt\":\"p\",\"cron\":\"0 9 * * *\",\"attachments\":[\"\"]}" >in &&
	test_expect_code 2 task-add --json - <in >out 2>err &&
	test ! -s out &&
	printf "task-add: stdin:1: field \047attachments\047 holds an empty path\n" >expect &&
	test_cmp expect err &&
	task-ls --json >after && test_cmp before after
'

test_expect_success 'task-mcp: arguments that are not UTF-8 are a tool error, nothing stored' '
	task-ls --json >before &&
	{ printf "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"task_create\",\"arguments\":{\"name\":\"n\",\"prompt\":\"caf\351\",\"manual\":true}}}\n" &&
	  printf "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"task_create\",\"arguments\":{\"name\":\"n\",\"prompt\":\"p\",\"cron\":\"0 9 * * *\",\"payload\":{\"k\":[\"\377\"]}}}}\n"
	} | task-mcp >out 2>err &&
	cat >expect <<-EOF &&
	{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Argument ${SQ}prompt${SQ} must be UTF-8 text."}],"isError":true}}
	{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Argument ${SQ}payload${SQ} must be UTF-8 text."}],"isError":true}}
	EOF
	test_cmp expect out && test ! -s err &&
	task-ls --json >after && test_cmp before after
'

test_expect_success 'task-mcp --call: a NUL byte or \u0000 and bytes that are not UTF-8 are refused, nothing stored' '
	task-ls --json >before &&
	{ printf "{\"name\":\"task_create\",\"arguments\":{\"name\":\"n\",\"prompt\":\"p\0 more\",\"manual\":true}}\n" &&
	  printf "{\"name\":\"task_create\",\"arguments\":{\"name\":\"n\",\"prompt\":\"p\\\\u0000 more\",\"manual\":true}}\n" &&
	  printf "{\"name\":\"task_create\",\"arguments\":\"{\\\\\"name\\\\\":\\\\\"n\377\\\\\"}\"}\n" &&
	  printf "{\"name\":\"task_show\",\"arguments\":{\"id\":\"zzzz\"}}\n"
	} | test_expect_code 2 task-mcp --call --json >out 2>err &&
	cat >expect <<-EOF &&
	task-mcp: stdin:1: a NUL byte, which no call can hold
	task-mcp: stdin:2: a string holds \\u0000 (a NUL character), which no argument can hold
	task-mcp: stdin:3: the arguments are not UTF-8 text
	EOF
	test_cmp expect err &&
	echo "{\"tool\":\"task_show\",\"is_error\":true,\"text\":\"Task not found with ID ${SQ}zzzz${SQ}.\"}" >expect &&
	test_cmp expect out &&
	task-ls --json >after && test_cmp before after
'

test_expect_success 'llm-call -o: a value or key that is not UTF-8 is refused, nothing sent or stored' '
	for kv in "temperature=$(printf "0\377")" "stop=\"$(printf "\351")\"" "$(printf "k\377")=1" "$(printf "\377")"; do
		test_expect_code 2 llm-call --provider echo -o "$kv" hi >out 2>err &&
		test ! -s out &&
		echo "llm-call: -o is not UTF-8 text" >expect &&
		test_cmp expect err || return 1
	done &&
	task-log --calls --json >calls && test ! -s calls &&
	llm-call --provider echo -o "stop=$(printf "caf\303\251")" hi >out &&
	echo "echo: hi" >expect && test_cmp expect out
'

test_expect_success 'a config file number older versions read still loads; on the command line it is refused' '
	mkdir -p config/agentcron &&
	test_when_finished "rm -f config/agentcron/config" &&
	printf "timeout = 1e3\nconnect_timeout = 0x10\nretries = +2\ncontext_messages = \" 5\"\n" >config/agentcron/config &&
	llm-call --provider echo --no-log hi >out 2>err &&
	echo "echo: hi" >expect && test_cmp expect out && test ! -s err &&
	test_expect_code 2 llm-call --provider echo --no-log --timeout 1e3 hi >out 2>err &&
	echo "llm-call: bad --timeout ${SQ}1e3${SQ}: expected a number of seconds above 0, at most 86400" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call --provider echo --no-log --retries +2 hi >out 2>err &&
	echo "llm-call: bad --retries ${SQ}+2${SQ}: expected a number from 0 to 20" >expect &&
	test_cmp expect err
'

test_expect_success 'a duration typed with a blank or a sign first is refused' '
	task-ls --json >before &&
	while IFS="|" read -r line flag value; do
		test_expect_code 2 task-add --daily 07:00 "$flag" "$value" p >out 2>err &&
		test ! -s out &&
		printf "%s\n" "$line" >expect && test_cmp expect err || return 1
	done <<-EOF &&
	task-add: bad --jitter ${SQ} 5${SQ}: expected seconds or a duration like 90s, 5m, 2h|--jitter| 5
	task-add: bad --jitter ${SQ}+5m${SQ}: expected seconds or a duration like 90s, 5m, 2h|--jitter|+5m
	task-add: bad --timeout ${SQ} 5${SQ}: expected seconds or a duration like 90s, 5m, 2h|--timeout| 5
	task-add: bad --deadline ${SQ} 5m${SQ}: expected a duration like 90s, 10m, 2h (at most 366d), or none|--deadline| 5m
	EOF
	task-ls --json >after && test_cmp before after &&
	test_expect_code 3 task-status --check --max-silence " 5m" >out 2>err &&
	echo "task-status: bad --max-silence ${SQ} 5m${SQ}: expected a duration like 90s, 3m or 1h" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-when --simulate " 1d" >out 2>err &&
	echo "task-when: --simulate: bad duration ${SQ} 1d${SQ}: expected 1m to 366d, like 7d, 12h or 90m" >expect &&
	test_cmp expect err &&
	task-add --daily 07:00 --jitter 5m --timeout 90 --deadline 5m q >/dev/null
'

# edit_refused ARGS...: task-edit of no task with a bad value: exit 2, one
# line not about the task, no store made.
edit_refused() {
	TASK_DB=$TEST_TMP/none.db test_expect_code 2 task-edit nosuchtask "$@" >out 2>err &&
	test_one_line err && test ! -s out && ! grep -q "no task" err &&
	test ! -e none.db
}

test_expect_success 'task-edit: a bad value is said before the task is looked for, and makes no store' '
	edit_refused --jitter -5 &&
	edit_refused --tz Nowhere/Zone &&
	edit_refused --exec "\"a" &&
	edit_refused --model "$(printf "\377")" &&
	edit_refused --deliver "@nowhere" &&
	edit_refused --timeout x &&
	echo "task-edit: bad --timeout ${SQ}x${SQ}: expected seconds or a duration like 90s, 5m, 2h" >expect &&
	test_cmp expect err &&
	test_expect_code 3 task-edit nosuchtask --timeout 5 >out 2>err &&
	echo "task-edit: no task ${SQ}nosuchtask${SQ} (an id, a prefix of 4+ of its characters, or its name)" >expect && test_cmp expect err
'

test_expect_success 'a cron number out of range is quoted whole, or cut with "..." past 24 digits' '
	test_expect_code 2 task-when "1234567890123456789 * * * *" >out 2>err &&
	echo "task-when: bad minute field ${SQ}1234567890123456789${SQ}: 1234567890123456789 is out of range 0-59" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-when "0 1234567890123456789012345 * * *" >out 2>err &&
	echo "task-when: bad hour field ${SQ}1234567890123456789012345${SQ}: 123456789012345678901... is out of range 0-23" >expect &&
	test_cmp expect err
'

test_expect_success 'task-add with a bad TZ says the zone came from TZ, as task-when does' '
	task-ls --json >before &&
	TZ=Nowhere/Zone test_expect_code 2 task-add --daily 07:00 p >out 2>err &&
	echo "task-add: unknown time zone ${SQ}Nowhere/Zone${SQ} (from TZ)" >expect &&
	test_cmp expect err && test ! -s out &&
	echo "{\"name\":\"n\",\"prompt\":\"p\",\"cron\":\"0 9 * * *\"}" >in &&
	TZ=Nowhere/Zone test_expect_code 2 task-add --json - <in >out 2>err &&
	echo "task-add: stdin:1: unknown time zone ${SQ}Nowhere/Zone${SQ} (from TZ)" >expect &&
	test_cmp expect err &&
	TZ=Nowhere/Zone test_expect_code 2 task-add --tz Nowhere/Else --daily 07:00 p >out 2>err &&
	echo "task-add: unknown time zone ${SQ}Nowhere/Else${SQ}" >expect &&
	test_cmp expect err &&
	task-ls --json >after && test_cmp before after
'

test_done
