#!/bin/sh
# What can never run or never be shown is refused when it is given, not
# when it runs: a command line that cannot be split (--exec, --notify,
# and the same fields in JSON), text that is not UTF-8, and a JSON string
# holding \u0000, which would be cut there.  Each refusal: exit 2, one
# line naming the field, nothing printed, the store as it was.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z

keep=$(task-add --manual --name keep --exec 'echo kept' 'A task that must survive')
task-ls --json >before

# refused CMD...: exit 2, the one line in err, nothing on stdout, store unchanged.
refused() {
	test_expect_code 2 "$@" >out 2>err &&
	test_one_line err &&
	test ! -s out &&
	task-ls --json >after &&
	test_cmp before after
}

test_expect_success 'task-add --exec with an unterminated quote' '
	refused task-add --manual --exec "'\''unterminated" x </dev/null &&
	echo "task-add: bad --exec: unterminated quote in command line '\'''\''unterminated'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'task-add --notify and a blank --exec' '
	refused task-add --manual --notify "mail \"me" x </dev/null &&
	echo "task-add: bad --notify: unterminated quote in command line '\''mail \"me'\''" >expect &&
	test_cmp expect err &&
	refused task-add --manual --exec "   " x </dev/null &&
	echo "task-add: bad --exec: empty command line" >expect &&
	test_cmp expect err
'

test_expect_success 'task-edit --exec with an unterminated quote leaves the task alone' '
	refused task-edit "$keep" --exec "sh -c \"echo" </dev/null &&
	echo "task-edit: bad --exec: unterminated quote in command line '\''sh -c \"echo'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'an empty --exec still clears the field back to the default' '
	task-edit "$keep" --exec "" >out &&
	cat >expect <<-\EOF &&
	exec: echo kept -> none
	next run: none
	EOF
	test_cmp expect out &&
	task-edit "$keep" --exec "echo kept" >/dev/null &&
	task-ls --json >after && test_cmp before after
'

test_expect_success 'an import whose exec cannot be split adds nothing, and says which line' '
	cat >in <<-\EOF &&
	{"name":"a","prompt":"p","kind":"manual","exec":"echo fine"}
	{"name":"b","prompt":"p","kind":"manual","exec":"echo \"unterminated"}
	EOF
	refused task-add --json - <in &&
	echo "task-add: stdin:2: field '\''exec'\'': unterminated quote in command line '\''echo \"unterminated'\''" >expect &&
	test_cmp expect err &&
	echo "{\"name\":\"c\",\"prompt\":\"p\",\"kind\":\"manual\",\"notify\":\"'\''x\"}" >in &&
	refused task-add --json - <in &&
	echo "task-add: stdin:1: field '\''notify'\'': unterminated quote in command line '\'''\''x'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'a JSON string holding \u0000 is refused, not cut (no twin found by its cut key)' '
	task-edit "$keep" --key abc >/dev/null &&
	task-ls --json >before &&
	cat >in <<-\EOF &&
	{"name":"a","prompt":"p","kind":"manual"}

	{"name":"b","prompt":"p","kind":"manual","key":"abc\u0000def"}
	EOF
	refused task-add --json - <in &&
	echo "task-add: stdin:3: a string holds \\u0000 (NUL), which no field can hold" >expect &&
	test_cmp expect err
'

test_expect_success 'an escaped backslash before u0000 is text, and kept' '
	cat >in <<-\EOF &&
	{"name":"slash","prompt":"a \\u0000 b","kind":"manual"}
	EOF
	id=$(task-add --json - <in) &&
	task-show --json "$id" >shown &&
	grep -F "\"prompt\":\"a \\\\u0000 b\"" shown &&
	task-rm "$id" >/dev/null && task-rm --purge >/dev/null 2>&1 &&
	task-ls --json >after && test_cmp before after
'

test_expect_success 'ids on stdin: a JSON id holding \u0000 is a bad line, never a prefix' '
	printf "%s\n" "{\"id\":\"$(echo $keep | cut -c1-8)\\u0000zz\"}" |
		test_expect_code 2 task-show - >out 2>err &&
	echo "task-show: stdin:1: a string holds \\u0000 (NUL)" >expect &&
	test_cmp expect err &&
	test ! -s out
'

test_expect_success 'text that is not UTF-8 is refused in flags, the prompt and imports' '
	refused task-add --manual "$(printf "caf\351")" </dev/null &&
	echo "task-add: the prompt is not UTF-8 text" >expect &&
	test_cmp expect err &&
	printf "caf\351\n" | refused task-add --manual &&
	test_cmp expect err &&
	refused task-add --manual --name "$(printf "\377")" x </dev/null &&
	echo "task-add: --name is not UTF-8 text" >expect &&
	test_cmp expect err &&
	refused task-edit "$keep" --channel "$(printf "\300\200")" </dev/null &&
	echo "task-edit: --channel is not UTF-8 text" >expect &&
	test_cmp expect err &&
	printf "{\"name\":\"n\",\n\"prompt\":\"caf\351\",\"kind\":\"manual\"}\n" >in &&
	refused task-add --json - <in &&
	echo "task-add: stdin:2: not UTF-8 text" >expect &&
	test_cmp expect err
'

test_done
