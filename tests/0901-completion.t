#!/bin/sh
# Bash completion (completions/agentcron.bash), loaded in bash as
# bash-completion loads it: every option of every program's --help, the
# values of the options that take a known set, zones, and the ids of the
# store's tasks where a command takes one.
. "$AC_TOP/tests/lib.sh"

progs=$(cd "$AC_TOP/cmd" && ls *.c | sed 's/\.c$//')

# complete WORD...: what bash would offer for the last WORD of that line.
complete() {
	bash -c '. "$1/completions/agentcron.bash" && shift &&
		COMP_WORDS=("$@") && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) &&
		_agentcron_complete && printf "%s\n" "${COMPREPLY[@]}" | sort' sh "$AC_TOP" "$@"
}

test_expect_success 'every program is registered, and every option of its --help offered' '
	bash -c ". \"$AC_TOP/completions/agentcron.bash\" && complete -p" |
		sed "s/.* //" | sort >actual &&
	printf "%s\n" $progs task-status | sort -u >expect &&
	test_cmp expect actual &&
	for p in $progs; do
		"$p" --help | grep -oE -- "--[a-z][a-z-]*" | sort -u >expect &&
		complete "$p" -- >actual &&
		test_cmp expect actual || { echo "$p"; return 1; }
	done
'

test_expect_success 'an option prefix narrows the list' '
	complete task-add --c >actual &&
	printf "%s\n" --channel --comment --context --count --cron >expect &&
	test_cmp expect actual &&
	complete task-ls -s >actual &&
	echo -s >expect &&
	test_cmp expect actual
'

test_expect_success 'the values of options that take a known set' '
	complete task-ls --status "" >actual &&
	printf "%s\n" cancelled completed failed pending running >expect &&
	test_cmp expect actual &&
	complete task-log -s f >actual &&
	echo failed >expect &&
	test_cmp expect actual &&
	complete task-add --missed "" >actual &&
	printf "%s\n" all once skip >expect &&
	test_cmp expect actual &&
	complete task-mcp --profile a >actual &&
	printf "%s\n" agent-zero all >expect &&
	test_cmp expect actual &&
	complete task-add --tz Europe/Lond >actual &&
	echo Europe/London >expect &&
	test_cmp expect actual
'

test_expect_success 'task ids where a command takes one' '
	a=$(task-add --daily 09:00 --exec true first) &&
	b=$(task-add --daily 10:00 --exec true second) &&
	printf "%s\n" "$a" "$b" | sort >expect &&
	for p in task-show task-edit task-rm task-run; do
		complete "$p" "" >actual && test_cmp expect actual || return 1
	done &&
	complete task-log --task "${b%%-*}" >actual &&
	echo "$b" >expect &&
	test_cmp expect actual
'

test_done
