#!/bin/sh
# Output is data: a program whose standard output cannot be written (here
# /dev/full, a full disk) fails with exit 1 and one line saying so,
# whatever it printed, its --help too.  A program that failed for another
# reason keeps its own status and its own line.  The reason is named when
# the last write met it; programs that send each line on at once (task-run,
# task-tick, task-mcp's replies) met it earlier.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY

# lost LINE CMD...: CMD with its stdout on /dev/full exits 1 and says LINE
# alone on stderr.
lost() {
	lost_line_=$1
	shift
	test_expect_code 1 "$@" >/dev/full 2>err &&
	printf "%s\n" "$lost_line_" >expect &&
	test_cmp expect err
}
full=": cannot write standard output: No space left on device"

id=$(task-add --manual --name first --exec "echo out" "The first") && task-run "$id" >/dev/null ||
	exit 1

test_expect_success 'task-ls, task-show, task-log, task-when: exit 1, one line' '
	lost "task-ls$full" task-ls &&
	lost "task-ls$full" task-ls --json &&
	lost "task-show$full" task-show "$id" &&
	lost "task-log$full" task-log --json &&
	lost "task-log$full" task-log "$(task-log --json | sed "s/.*\"id\":\"\([^\"]*\)\".*/\1/")" &&
	lost "task-when$full" task-when -n 3 @daily
'

test_expect_success 'task-add: exit 1, and the line says the task was added' '
	lost "task-add: added, but cannot print the result: No space left on device" \
		task-add --manual --name second "The second" &&
	task-ls | cut -f2 | sort >actual &&
	printf "first\nsecond\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'task-edit and task-rm: exit 1 after the change, one line' '
	lost "task-edit$full" task-edit "$id" --name renamed &&
	task-show --json "$id" | grep -q "\"name\":\"renamed\"" &&
	second=$(task-ls --json | grep "\"second\"" | sed "s/.*\"id\":\"\([^\"]*\)\".*/\1/") &&
	lost "task-rm$full" task-rm "$second" &&
	task-ls --trash | cut -f2 >actual && echo second >expect && test_cmp expect actual
'

test_expect_success 'task-run and task-tick: the run is recorded, its output lost: exit 1' '
	lost "task-run: cannot write standard output" task-run "$id" &&
	task-add --at 2026-11-23T06:00:00Z --name due --exec "echo due" d >/dev/null &&
	lost "task-tick: cannot write standard output" task-tick &&
	task-log | cut -f4,7 | sort | uniq -c | sed "s/^ *//" >actual &&
	printf "1 due\tsuccess\n2 renamed\tsuccess\n" >expect &&
	test_cmp expect actual &&
	lost "task-tick$full" task-tick --print-cron
'

test_expect_success 'task-mcp: a reply that cannot be written ends the server; its tool list' '
	echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}" >ping &&
	lost "task-mcp: cannot write the reply: No space left on device" sh -c "task-mcp <ping" &&
	lost "task-mcp$full" task-mcp --list-tools
'

test_expect_success 'llm-call: the answer that cannot be written is a failure' '
	lost "llm-call$full" llm-call hi &&
	lost "llm-call$full" llm-call --json hi
'

test_expect_success 'every program: --help and --version to a full disk fail' '
	for p in task-add task-edit task-log task-ls task-mcp task-rm task-run task-show \
		task-tick task-when llm-call; do
		lost "$p$full" "$p" --help && lost "$p$full" "$p" --version || return 1
	done
'

test_expect_success 'a program that failed otherwise keeps its status and its line' '
	test_expect_code 3 task-show abcd >/dev/full 2>err &&
	echo "task-show: no task '\''abcd'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-ls --limit 0 >/dev/full 2>err &&
	echo "task-ls: bad --limit '\''0'\'': expected a number, 1 or more" >expect &&
	test_cmp expect err
'

test_done
