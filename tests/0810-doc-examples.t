#!/bin/sh
# Every command of README.md and of the man pages' EXAMPLES runs, and
# prints what the document shows where it shows output.  The commands are
# read from the documents themselves (tests/tools/doc-examples.pl), so an
# example changed into one that does not run fails here.
#
# Each man page, and each section of the README, starts from a scratch
# home and store with a few tasks an example may name (3f2a... is the
# morning briefing), except the README's tour, which builds its own from
# an empty store.  The clock is TASK_NOW: Monday 2026-11-23 06:30 in
# London, as the tour says (task-when(1) reads its examples on the Sunday
# before, at noon).  Where the documents differ from a test machine, and
# only there, the test stands in:
# - models: a local fake provider (tests/tools/fake-provider.c) behind the
#   OPENAI_* and ANTHROPIC_* variables; Ollama's localhost:11434 is it too;
# - /home/me is the scratch home;
# - crontab(1), systemctl(1), ssh(1), less(1) and npx(1) are stand-ins in
#   PATH: crontab and systemctl check what they are given (five cron fields
#   and a command that runs; unit files whose ExecStart runs), ssh runs the
#   command on a second store, npx's MCP filesystem server is a small stdio
#   server offering read_text_file;
# - the ids task-add prints are new each run: outputs are compared with
#   each documented id in place of the one this run made, and commands use
#   the same prefix of it; durations are set aside;
# - a few examples rely on state the document describes but does not show
#   (the tour's briefing is given a stand-in executor first); the hooks in
#   before() say which;
# - `make check` is this very run, so only its target is checked, and
#   `make demo` runs what its target runs, tests/demo.
# The documents' stores are files in the scratch homes (TASK_DB unset), so
# the test is the same on every pass: it runs in the first only.
# store: none
. "$AC_TOP/tests/lib.sh"
DOC=$AC_TOP/tests/tools/doc-examples.pl
KEY=sk-fake-docs-0123456789abcdef
port=$(provider_start fp "$KEY" 300 900) || exit 1
unset TASK_DB XDG_CONFIG_HOME XDG_DATA_HOME
OPENAI_API_KEY=$KEY ANTHROPIC_API_KEY=$KEY
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 ANTHROPIC_BASE_URL=http://127.0.0.1:$port
NO_COLOR=1 TZ=Europe/London
export OPENAI_API_KEY ANTHROPIC_API_KEY OPENAI_BASE_URL ANTHROPIC_BASE_URL NO_COLOR TZ

stubs=$TEST_TMP/stubs
mkdir "$stubs"
PATH=$stubs:$PATH

cat >"$stubs/crontab" <<'EOF'
#!/bin/sh
# crontab -l | crontab -: the table in $HOME/crontab; an entry installed
# must have five fields task-when reads and a command that runs.
tab=$HOME/crontab
case $1 in
-l) test -f "$tab" && exec cat "$tab"; echo "no crontab for $(id -un)" >&2; exit 1 ;;
-) cat >"$tab.new" || exit 1 ;;
*) echo "crontab stand-in: $*" >&2; exit 2 ;;
esac
grep -v '^[[:space:]]*\(#\|$\)' "$tab.new" | while read -r m h dom mon dow cmd; do
	task-when -n 1 "$m $h $dom $mon $dow" >/dev/null || exit 1
	sh -c "$cmd" || { echo "crontab stand-in: the entry's command failed: $cmd" >&2; exit 1; }
done || exit 1
mv "$tab.new" "$tab"
EOF
cat >"$stubs/systemctl" <<'EOF'
#!/bin/sh
# systemctl --user: daemon-reload, and enable --now of a timer whose
# service's ExecStart runs.
dir=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
[ "$1" = --user ] || { echo "systemctl stand-in: --user only" >&2; exit 1; }
echo "$*" >>"$HOME/systemctl.log"
case $2 in
daemon-reload) exit 0 ;;
enable)
	[ "$3" = --now ] && timer=$4 || timer=$3
	grep -q '^OnCalendar=' "$dir/$timer" || exit 1
	exec=$(sed -n 's/^ExecStart=//p' "$dir/${timer%.timer}.service")
	[ -n "$exec" ] && sh -c "$exec" ;;
*) echo "systemctl stand-in: $*" >&2; exit 1 ;;
esac
EOF
# curl: a ping to a monitoring service (no network here) is checked, not sent.
cat >"$stubs/curl" <<'EOF'
#!/bin/sh
for a; do
	case $a in https://hc-ping.com/*) exit 0 ;; esac
done
echo "curl stand-in: $*" >&2
exit 1
EOF
cat >"$stubs/ssh" <<'EOF'
#!/bin/sh
# ssh HOST COMMAND...: COMMAND on "the other machine", a store of its own.
shift
TASK_DB=$HOME/remote/tasks.db exec sh -c "$*"
EOF
cat >"$stubs/less" <<'EOF'
#!/bin/sh
exec cat "$@"
EOF
cat >"$stubs/npx" <<'EOF'
#!/bin/sh
# npx -y @modelcontextprotocol/server-filesystem DIR: a stdio MCP server
# offering read_text_file under DIR (the real one is fetched from npm).
[ "$1" = -y ] && shift
[ "$1" = @modelcontextprotocol/server-filesystem ] || { echo "npx stand-in: $1" >&2; exit 1; }
while read -r line; do
	id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
	case $line in
	*'"initialize"'*)
		printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"files","version":"1"}}}\n' "$id" ;;
	*'"tools/list"'*)
		printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"read_text_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]}}\n' "$id" ;;
	*'"tools/call"'*)
		printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"(a file)"}]}}\n' "$id" ;;
	*'"id":'*)
		printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"not here"}}\n' "$id" ;;
	esac
done
EOF
chmod +x "$stubs"/*

# fixtures: what the man pages' examples name, in the current store and
# home: made once for each TASK_NOW in a home of their own, then copied
# into each scratch home (the store is a file in it, and nothing in it
# names the home it was made in: checked).
fixtures() {
	fixtures_home=$TEST_TMP/fixtures-$TASK_NOW
	if [ ! -d "$fixtures_home" ]; then
		(HOME=$fixtures_home.new && export HOME && mkdir "$HOME" && cd "$HOME" && fixtures_make &&
			! grep -rqF "$HOME" .) &&
		mv "$fixtures_home.new" "$fixtures_home" || return 1
	fi
	cp -R "$fixtures_home/." "$HOME/"
}
fixtures_make() {
	cat >fixtures.json <<-\EOF &&
	{"id":"3f2a9c1e-5b7d-4e21-9a0c-2d6f1b8e4a73","name":"Morning briefing","prompt":"Summarise my calendar and the news, briefly","cron":"0 7 * * *","tz":"Europe/London"}
	{"id":"5b1e0a2c-7d3f-4c8e-b9a1-6e2d4f0c8b15","name":"Weekly report","prompt":"Write the weekly report","at":"2026-11-20T09:00:00Z","tz":"Europe/London","status":"failed","last_status":"failed","last_error":"exited with status 1","exec":"echo The report, fixed."}
	{"id":"7c0d4e9b-2a1f-4b6c-8d3e-9f5a1c7b2e60","name":"Call Sarah","prompt":"Remind me to call Sarah","at":"2026-11-22T10:00:00Z","tz":"Europe/London","status":"completed","last_status":"success"}
	{"id":"9e4b2d7a-6c1f-4a3e-8b5d-0f7c2a9e1d48","name":"Flaky check","prompt":"Check the flaky thing","kind":"manual","tz":"Europe/London","exec":"false"}
	EOF
	task-add --json - <fixtures.json >/dev/null &&
	task-run 3f2a >/dev/null &&
	test_expect_code 1 task-run 9e4b >/dev/null &&
	echo "Notes: the launch moved to Friday." >notes.txt &&
	printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\10\6\0\0\0\37\25\304\211\0\0\0\rIDATx\234c\370\377\377?\0\5\376\2\376\247\65\201\204\0\0\0\0IEND\256B`\202' >chart.png &&
	mkdir -p notes && echo "- ship it" >notes/todo.md
}

# scope NAME [empty]: a fresh home, store and id map for what follows.
scope() {
	HOME=$TEST_TMP/home-$1
	mkdir -p "$HOME" && cd "$HOME" || return 1
	export HOME
	test "${2:-}" = empty || test_expect_success "$1: the tasks and files the examples name" fixtures
}

# before CMD: the state a documented command relies on without showing it.
before() {
	case $1 in
	"TASK_NOW=2026-11-23T07:00:30Z task-tick")
		# "... and the briefing's executor changed with task-edit to a stand-in command"
		perl "$DOC" subst map /dev/stdin <<-\EOF | sh >/dev/null
		task-edit 88f8 --exec 'sh -c "echo Three meetings, sunny, no news."'
		EOF
		;;
	"task-tick | grep '\"status\":\"failed\"'")
		# "Failed runs of this pass": one that fails in it.
		echo '{"name":"doomed","prompt":"x","at":"2026-11-23T06:29:00Z","next_run_at":"2026-11-23T06:29:00Z","exec":"false","retries":0}' |
			task-add --json - >/dev/null ;;
	"task-log --status failed --since 1d | task-run -" | "task-ls --last failed | task-run -"* )
		# "Once what made them fail is fixed": the flaky check, mended.
		task-edit 9e4b --exec true >/dev/null ;;
	"cat ~/.config/agentcron/mcp.json")
		# The file the example shows, pasted.
		mkdir -p ~/.config/agentcron && cp "$2" ~/.config/agentcron/mcp.json ;;
	"make check")
		return 0 ;;
	esac
}

# run_unit BASE: one extracted command, BASE.cmd, and its output BASE.out.
run_unit() {
	rm -f expect &&
	perl "$DOC" subst map "$1.cmd" |
		sed -e "s|localhost:11434|127.0.0.1:$port|g" -e "s|/home/me/|$HOME/|g" >cmd.sh &&
	if test -f "$1.out"; then
		sed -e "s|/home/me/|$HOME/|g" "$1.out" >expect
	fi &&
	cmd=$(cat "$1.cmd") &&
	case $cmd in
	*"--print-systemd"*"| sh")
		# As on a machine whose init is systemd: the script checks for it.
		sed -i "s#| sh\$#| sed 's|/run/systemd/system|$TEST_TMP|' | sh#" cmd.sh ;;
	esac &&
	before "$cmd" expect &&
	case $(cat "$1.kind"),$cmd in
	crontab,*)
		echo "$cmd" | {
			read -r m h dom mon dow rest &&
			task-when -n 1 "$m $h $dom $mon $dow" >/dev/null && sh -c "$rest" >/dev/null
		} ;;
	*,"make check")
		make -s -n -C "$AC_TOP" check >/dev/null ;;
	*,"make demo")
		make -s -n -C "$AC_TOP" demo | grep -q "^tests/demo " &&
		env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u OPENAI_BASE_URL -u ANTHROPIC_BASE_URL \
			"$AC_TOP/tests/demo" "$AC_BIN" "$AC_BUILD" >demo.out 2>&1 ||
			{ cat demo.out; false; } ;;
	*)
		if test -f expect; then
			# Shown as on a terminal: tables, task-add's confirmation.
			script -qec "sh cmd.sh" /dev/null </dev/null >raw 2>&1 ||
				{ tr -d "\r" <raw; false; } &&
			tr -d "\r" <raw >actual &&
			perl "$DOC" compare map expect actual
		else
			sh cmd.sh >out 2>err </dev/null || { cat err; false; }
		fi ;;
	esac
}

# run_doc DOC: every unit of DOC, each a test.
run_doc() {
	name=$(basename "$1")
	units=$TEST_TMP/units/$name
	mkdir -p "$TEST_TMP/units"
	n=$(perl "$DOC" extract "$1" "$units") || return 1
	test_expect_success "$name: examples found" "test $n -gt 0"
	for cmd in "$units"/*.cmd; do
		base=${cmd%.cmd}
		where=$(cat "$base.where")
		case $where in
		"README.md, "*)
			section=${where#*(}
			section=${section%)}
			if [ "$section" != "${cur_section:-}" ]; then
				cur_section=$section
				slug=readme-$(echo "$section" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' -)
				case $section in
				"A five-minute tour") scope "$slug" empty ;;
				*) scope "$slug" ;;
				esac
			fi ;;
		esac
		test_expect_success "$where: $(head -1 "$cmd" | tr -d "\\\\")" "run_unit '$base'"
	done
}

export TASK_NOW=2026-11-23T06:30:00Z
run_doc "$AC_TOP/README.md"
for page in "$AC_TOP"/man/man1/*.1 "$AC_TOP"/man/man7/*.7; do
	case $page in
	*/task-when.1) TASK_NOW=2026-11-22T12:00:00Z ;;
	*) TASK_NOW=2026-11-23T06:30:00Z ;;
	esac
	scope "$(basename "$page")"
	run_doc "$page"
done

test_expect_success 'agentcron-schedule(5): every expression of its EXAMPLES is read as shown' '
	mandoc -Tascii -O width=1000 "$AC_TOP/man/man5/agentcron-schedule.5" | perl -pe "s/.\\x08//g" |
		sed -n "/^EXAMPLES/,/^[A-Z]/p" | sed -n "s/^ *\`\([^'\'']*\)'\''.*/\1/p" >exprs &&
	test "$(wc -l <exprs)" -ge 5 &&
	while read -r e; do task-when -n 1 "$e" >/dev/null || exit 1; done <exprs
'

test_expect_success 'the provider found every request well formed' '
	if test -e "$TEST_TMP/fp/errors.log"; then cat "$TEST_TMP/fp/errors.log"; false; fi
'

test_done
