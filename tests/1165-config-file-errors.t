#!/bin/sh
# A configuration file that cannot be read as one is invalid input: every
# program that needs it exits 2 (1 is for the store, I/O and the network),
# with one line naming the file and the line, and changes nothing.
# llm-call keeps its documented 78 (EX_CONFIG: the executor does not retry).
. "$AC_TOP/tests/lib.sh"

test_expect_success 'set up: a task, then a file with a line that is not key = value' '
	task-add --name keep --cron "0 7 * * *" --exec true "kept" >/dev/null &&
	task-ls --json >before &&
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	printf "timeout = 30\nnot a setting\n" >"$XDG_CONFIG_HOME/agentcron/config" &&
	chmod 600 "$XDG_CONFIG_HOME/agentcron/config" &&
	echo "$XDG_CONFIG_HOME/agentcron/config:2: expected '"'"'key = value'"'"'" >why
'

# refused_for PROG ARGS...: exits 2 with PROG's one line saying why.
refused_for() {
	test_refused 2 "$@" &&
	{ printf "%s: " "$1"; cat why; } >expect &&
	test_cmp expect err
}

for cmd in \
	"task-add --name new --cron '0 8 * * *' --exec true new" \
	"task-edit keep --prompt changed" \
	"task-run keep" \
	"task-show keep" \
	"task-when tomorrow" \
	"task-log --prune" \
	"task-deliver" \
	"task-mcp --list-tools" \
	"task-web --listen 127.0.0.1:0" \
	"task-tick" \
	"task-status"
do
	test_expect_success "${cmd%% *}: exit 2, the file and line named, nothing changed" "
		refused_for $cmd
	"
done

test_expect_success 'a file others can write is refused the same way: exit 2' '
	printf "timeout = 30\n" >"$XDG_CONFIG_HOME/agentcron/config" &&
	chmod 620 "$XDG_CONFIG_HOME/agentcron/config" &&
	test_when_finished "printf \"timeout = 30\\nnot a setting\\n\" >\"$XDG_CONFIG_HOME/agentcron/config\"; chmod 600 \"$XDG_CONFIG_HOME/agentcron/config\"" &&
	for c in "task-run keep" "task-log --prune" "task-add --every 1h --exec true new"; do
		test_refused 2 $c &&
		grep -q "can be changed by group or others; run: chmod 600" err || return 1
	done
'

test_expect_success 'task-status --check: UNKNOWN, exit 3, as a monitoring check says it' '
	test_expect_code 3 task-status --check >out 2>err </dev/null &&
	{ printf "AGENTCRON UNKNOWN - "; cat why; } >expect &&
	test_cmp expect out
'

test_expect_success 'llm-call: its own 78, the same line' '
	test_expect_code 78 llm-call --model echo hello >out 2>err </dev/null &&
	test ! -s out &&
	{ printf "llm-call: "; cat why; } >expect &&
	test_cmp expect err
'

test_done
