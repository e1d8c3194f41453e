#!/bin/sh
# Options every program reads the same way: an option it refuses is named
# as it was written, also inside a cluster of short flags after a long
# option (where getopt_long's own words point at the wrong one), in one
# line that points at --help, exit 2; a bad value of a numeric option is
# said in one wording, "bad OPTION 'VALUE': expected ...".
. "$AC_TOP/tests/lib.sh"

# says CODE LINE CMD...: CMD exits CODE with LINE alone on stderr, nothing
# on stdout.
says() {
	says_code_=$1 says_line_=$2
	shift 2
	test_expect_code "$says_code_" "$@" >out 2>err </dev/null &&
	printf "%s\n" "$says_line_" >expect &&
	test_cmp expect err &&
	test ! -s out
}

test_expect_success 'an unknown flag in a cluster after a long option is that flag' '
	while read -r p args; do
		# $args is the words before the cluster and the cluster, split on purpose.
		says 2 "$p: unknown option '\''-Z'\'' (try '\''$p --help'\'')" $p $args || return 1
	done <<-\EOT
	task-add --force -fZ
	task-edit --json -jZ
	task-log --json -jZ
	task-ls --json -jZ
	task-mcp --json -jZ
	task-rm --json -jZ
	task-run --queue -qZ
	task-show --json -jZ
	task-tick --dry-run -nZ
	task-when --utc -uZ
	llm-call --json -nZ
	EOT
'

test_expect_success 'a flag that needs a value, last in its cluster' '
	says 2 "task-log: option '\''-l'\'' needs a value (try '\''task-log --help'\'')" task-log -jl &&
	says 2 "task-when: option '\''-n'\'' needs a value (try '\''task-when --help'\'')" task-when -un &&
	says 2 "task-tick: option '\''-j'\'' needs a value (try '\''task-tick --help'\'')" task-tick -nj &&
	says 2 "task-show: option '\''-r'\'' needs a value (try '\''task-show --help'\'')" task-show -jr
'

test_expect_success 'long options: no value, a value where none goes, a prefix of several' '
	says 2 "task-log: option '\''--limit'\'' needs a value (try '\''task-log --help'\'')" \
		task-log --limit &&
	says 2 "task-run: unknown option '\''--bogus'\'' (try '\''task-run --help'\'')" \
		task-run --bogus x &&
	says 2 "task-ls: option '\''--json'\'' takes no value (try '\''task-ls --help'\'')" \
		task-ls --json=yes &&
	says 2 "task-ls: option '\''--d'\'' is ambiguous (try '\''task-ls --help'\'')" task-ls --d 5 &&
	says 2 "task-when: unknown option '\''--bogus'\'' (try '\''task-when --help'\'')" \
		task-when --bogus @daily
'

test_expect_success 'an argument where none goes points at --help too' '
	says 2 "task-ls: unexpected argument '\''x'\'' (try '\''task-ls --help'\'')" task-ls x &&
	says 2 "task-tick: unexpected argument '\''x'\'' (try '\''task-tick --help'\'')" task-tick x &&
	says 2 "task-mcp: unexpected argument '\''x'\'' (try '\''task-mcp --help'\'')" task-mcp x
'

# Each numeric option, a bad value and the line it gets.
cat >numbers <<\EOT
task-log: bad --limit 'x': expected a number, 0 or more (0: all)|task-log --limit x
task-ls: bad --limit '0': expected a number, 1 or more|task-ls --limit 0
task-ls: bad --due-within '-1': expected a number of minutes from 0 to 100000000|task-ls --due-within -1
task-ls: bad --due-after '1h': expected a number of minutes from 0 to 100000000|task-ls --due-after 1h
task-show: bad --runs '0': expected a number, 1 or more|task-show --runs 0 abcd
task-tick: bad --jobs '0': expected a number from 1 to 100000|task-tick -j 0
task-tick: bad --grace 'soon': expected a number from 0 to 100000|task-tick --watch --grace soon
task-when: bad -n '0': expected a number from 1 to 100000|task-when -n 0 @daily
task-when: bad --count '0': expected a number of occurrences from 1 to 100000|task-when --count 0 @daily
task-add: bad --count 'x': expected a number of occurrences from 1 to 100000|task-add --daily 07:00 --count x p
task-add: bad --retries '-1': expected a number from 0 to 2147483647|task-add --manual --retries -1 p
task-add: bad --timeout '5parsecs': expected seconds or a duration like 90s, 5m, 2h|task-add --manual --timeout 5parsecs p
task-edit: bad --count 'x': expected a number of occurrences from 1 to 100000 (0 removes the end)|task-edit ID --count x
llm-call: bad --retries '21': expected a number from 0 to 20|llm-call --retries 21 hi
llm-call: bad --max-rounds '0': expected a number from 1 to 1000|llm-call --max-rounds 0 hi
llm-call: bad --max-run-tokens '0': expected a number of tokens from 1 to 1000000000|llm-call --max-run-tokens 0 hi
llm-call: bad --timeout '-1': expected a number of seconds above 0, at most 86400|llm-call --timeout -1 hi
llm-call: bad --mcp-timeout 'x': expected a number of seconds above 0, at most 86400|llm-call --mcp-timeout x hi
EOT
test_expect_success 'what the line quotes is one line of valid UTF-8, whatever was given' '
	says 2 "task-ls: unexpected argument '\''a b'\'' (try '\''task-ls --help'\'')" \
		task-ls "$(printf "a\nb")" &&
	says 2 "task-log: unknown option '\''--x$(printf "\357\277\275")'\'' (try '\''task-log --help'\'')" \
		task-log "--x$(printf "\377")"
'

test_expect_success 'every numeric option: one wording for a bad value' '
	id=$(task-add --manual --name edited p) &&
	sed "s/ ID / $id /" numbers >numbers.id &&
	while IFS="|" read -r line cmd; do
		# $cmd is a command line, split on purpose.
		says 2 "$line" $cmd || return 1
	done <numbers.id
'

test_done
