#!/bin/sh
# task-tick's heartbeat options are checked before the store is opened, the
# prompt as task-add checks one (UTF-8 text); task-web's systemd unit names
# its socket by an absolute path.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

# no_store: the refused command made no store file (SQLite) and stored no
# task (either store).
no_store() {
	if test "$AC_STORE" = sqlite; then
		test ! -e "$TASK_DB" || return 1
	fi
	task-ls >out && test ! -s out
}

test_expect_success '--heartbeat-prompt that is not UTF-8 text: refused, nothing stored' '
	test_expect_code 2 task-tick --heartbeat @daily --heartbeat-prompt "$(printf "a\377b")" >out 2>err &&
	test ! -s out &&
	echo "task-tick: --heartbeat-prompt is not UTF-8 text" >expect &&
	test_cmp expect err &&
	no_store
'

test_expect_success 'a schedule that does not parse: refused before the store is opened' '
	reset_store &&
	test_expect_code 2 task-tick --heartbeat bogus >out 2>err &&
	test ! -s out &&
	echo "task-tick: expected 5 fields (minute hour day-of-month month day-of-week), got 1" >expect &&
	test_cmp expect err &&
	no_store
'

test_expect_success 'an unknown variable in the heartbeat prompt: refused, nothing stored' '
	reset_store &&
	test_expect_code 2 task-tick --heartbeat @daily --heartbeat-prompt "at {{nope}}" 2>err &&
	grep -q "^task-tick: --heartbeat-prompt: unknown variable .{{nope}}." err &&
	test $(wc -l <err) = 1 &&
	no_store
'

test_expect_success 'a UTF-8 heartbeat prompt is stored as given' '
	reset_store &&
	id=$(task-tick --heartbeat @daily --heartbeat-prompt "Café check ✓") &&
	task-show --json $id >json &&
	python3 -c "import json,sys; print(json.load(open(\"json\"))[\"prompt\"])" >actual &&
	echo "Café check ✓" >expect &&
	test_cmp expect actual
'
# exec_start: the options of the unit's ExecStart= line.
exec_start() {
	sed -n "s/^ExecStart=.*\/task-web //p" unit
}

test_expect_success 'task-web --print-systemd: a relative --socket is written from the current directory' '
	task-web --print-systemd --socket run/web.sock >unit &&
	echo "--socket $PWD/run/web.sock" >expect &&
	exec_start >actual && test_cmp expect actual &&
	task-web --print-systemd --socket ./run/web.sock --read-only >unit &&
	echo "--socket $PWD/run/web.sock --read-only" >expect &&
	exec_start >actual && test_cmp expect actual &&
	mkdir -p sub && (cd sub && task-web --print-systemd --socket ../web.sock) >unit &&
	echo "--socket $PWD/sub/../web.sock" >expect &&
	exec_start >actual && test_cmp expect actual &&
	task-web --print-systemd --socket /run/user/web.sock >unit &&
	echo "--socket /run/user/web.sock" >expect &&
	exec_start >actual && test_cmp expect actual
'

test_expect_success 'task-web --print-systemd: a current directory the unit would split is refused' '
	mkdir "a b" &&
	(cd "a b" && test_expect_code 2 task-web --print-systemd --socket web.sock) >out 2>err &&
	test ! -s out &&
	echo "task-web: --print-systemd: the address or path has characters a unit would read otherwise (white space, quotes, \\, %, \$, controls) (try '\''task-web --help'\'')" >expect &&
	test_cmp expect err
'

test_expect_success 'task-web --print-systemd: a --socket that names no file is refused' '
	test_expect_code 2 task-web --print-systemd --socket "" >out 2>err &&
	test ! -s out &&
	test_expect_code 2 task-web --print-systemd --socket ./ >out 2>err &&
	test ! -s out &&
	echo "task-web: --print-systemd: --socket '\''./'\'' names no file (try '\''task-web --help'\'')" >expect &&
	test_cmp expect err
'

test_done
