#!/bin/sh
# Bad input: the documented exit status, one line on standard error that
# starts with the program's name, and the store exactly as it was.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T10:00:00Z

task-add --daily 07:00 --name keep "A task that must survive" >/dev/null
task-ls --json >before


test_expect_success 'unknown flag' 'test_refused 2 task-add --bogus --daily 07:00 x && grep -q "unknown option .--bogus." err'
test_expect_success 'flag without its value' 'test_refused 2 task-add --manual x --cron'
test_expect_success 'two schedule kinds' 'test_refused 2 task-add --cron "0 7 * * *" --at "in 1 hour" x && grep -q "give one schedule, not --cron and --at" err'
test_expect_success 'no schedule kind' 'test_refused 2 task-add "a prompt" && grep -q "no schedule" err'
test_expect_success 'bad cron expression names the field' 'test_refused 2 task-add --cron "0 25 * * *" x && grep -q "hour" err'
test_expect_success 'cron expression that never fires' 'test_refused 2 task-add --cron "0 0 30 2 *" x'
test_expect_success 'unparseable --at' 'test_refused 2 task-add --at "blorp o clock" x && grep -q "blorp" err'
test_expect_success 'past --at names the zone' 'test_refused 2 task-add --tz Europe/London --at "2026-11-21 09:00" x && grep -q "Europe/London" err'
test_expect_success 'impossible date' 'test_refused 2 task-add --at "feb 30" x'
test_expect_success 'unknown zone' 'test_refused 2 task-add --tz Mars/Olympus --daily 07:00 x && grep -q "Mars/Olympus" err'
test_expect_success 'bad --daily' 'test_refused 2 task-add --daily 25:00 x'
test_expect_success 'bad --weekly day' 'test_refused 2 task-add --weekly "funday 09:00" x'
test_expect_success 'bad --payload' 'test_refused 2 task-add --manual --payload "[1,2]" x'
test_expect_success 'bad --timeout' 'test_refused 2 task-add --manual --timeout 5parsecs x'
test_expect_success 'missing attachment' 'test_refused 2 task-add --manual --attach no-such-file x'
test_expect_success 'an error quoting input with a newline stays one line' '
	test_refused 2 task-add --tz "Mars/
Olympus" --daily 07:00 x &&
	test_refused 3 task-show "abcd
ef01"
'
test_expect_success 'empty name' 'test_refused 2 task-add --manual --name "" "a prompt" && grep -q "name" err'
test_expect_success 'empty prompt' 'test_refused 2 task-add --manual --name n "  " && grep -q "prompt" err'
test_expect_success 'invalid JSON on stdin' '
	echo "{\"name\": " >in &&
	test_expect_code 2 task-add --json - <in >out 2>err && test_one_line err &&
	grep -q "^task-add: stdin:1: invalid JSON" err &&
	task-ls --json >after && test_cmp before after
'
test_expect_success 'a stream whose 3rd of 5 objects is bad adds none of them' '
	for i in 1 2 3 4 5; do
		if [ $i = 3 ]; then echo "{\"name\":\"n$i\",\"prompt\":\"p$i\",\"cron\":\"61 * * * *\"}"
		else echo "{\"name\":\"n$i\",\"prompt\":\"p$i\",\"kind\":\"manual\"}"; fi
	done >in &&
	test_expect_code 2 task-add --json - <in >out 2>err && test_one_line err &&
	grep -q "^task-add: stdin:3: " err && test ! -s out &&
	task-ls --json >after && test_cmp before after
'
test_expect_success 'an unknown field in JSON is refused' '
	echo "{\"name\":\"n\",\"prompt\":\"p\",\"kind\":\"manual\",\"shedule\":\"x\"}" >in &&
	test_expect_code 2 task-add --json - <in >out 2>err && test_one_line err &&
	grep -q "unknown field .shedule." err
'
test_expect_success 'a JSON id must be a UUID; one in capitals is stored as prefixes find it' '
	export TASK_DB=$(new_store ids) &&
	echo "{\"id\":\"ABCD-0000-0000-4000-8000-0000000000012\",\"name\":\"n\",\"prompt\":\"p\",\"kind\":\"manual\"}" >in &&
	test_expect_code 2 task-add --json - <in >out 2>err && test_one_line err &&
	grep -q "field .id. must be a UUID" err &&
	echo "{\"id\":\"BCDE0000-0000-4000-8000-00000000000A\",\"name\":\"n\",\"prompt\":\"p\",\"kind\":\"manual\"}" >in &&
	task-add --json - <in >out &&
	echo bcde0000-0000-4000-8000-00000000000a >expect && test_cmp expect out &&
	task-show BCDE0000 >/dev/null && task-show bcde0000 >/dev/null
'
test_expect_success 'a JSON number out of the range of an integer field is refused' '
	for v in 1e20 -1e20 4294967296 2147483648; do
		echo "{\"name\":\"n\",\"prompt\":\"p\",\"kind\":\"manual\",\"timeout\":$v}" >in &&
		test_expect_code 2 task-add --json - <in >out 2>err && test_one_line err &&
		grep -q "field .timeout. must be an integer" err || exit 1
	done &&
	task-ls --json >after && test_cmp before after
'
test_expect_success 'unknown id' '
	test_refused 3 task-show 0123abcd && grep -q "no task .0123abcd." err &&
	test_refused 3 task-edit 0123abcd --name x &&
	test_refused 3 task-rm 0123abcd
'
test_expect_success 'ambiguous prefix lists the candidates' '
	printf "%s\n" "{\"id\":\"abcd0000-0000-4000-8000-000000000001\",\"name\":\"a\",\"prompt\":\"p\",\"kind\":\"manual\"}" \
		"{\"id\":\"abcd0000-0000-4000-8000-000000000002\",\"name\":\"b\",\"prompt\":\"q\",\"kind\":\"manual\"}" |
		task-add --json - >/dev/null &&
	task-ls --json >before &&
	test_refused 4 task-show abcd0000 &&
	grep -q "ambiguous: abcd0000-0000, abcd0000-0000" err &&
	test_refused 4 task-rm abcd &&
	task-show abcd0000-0000-4000-8000-000000000002 >/dev/null
'
test_expect_success 'a corrupt store file' '
	mkdir corrupt && head -c 8192 /dev/urandom >corrupt/tasks.db && cp corrupt/tasks.db copy &&
	TASK_DB=$PWD/corrupt/tasks.db test_expect_code 1 task-add --manual x >out 2>err &&
	test_one_line err && grep -q "damaged or not a database" err &&
	TASK_DB=$PWD/corrupt/tasks.db test_expect_code 1 task-ls >out 2>err && test_one_line err &&
	cmp copy corrupt/tasks.db
'
test_expect_success 'a store directory that cannot be created' '
	echo file >notadir &&
	TASK_DB=$PWD/notadir/sub/tasks.db test_expect_code 1 task-add --manual x >out 2>err &&
	test_one_line err && grep -q "cannot create store" err
'
# Permissions do not bind root, so run the read-only case as nobody then,
# from a copy of the program (the build tree may be private to root).
as_other() {
	if [ "$(id -u)" = 0 ]; then
		mkdir -p "$TEST_TMP/nobody-bin" && cp "$(command -v "$1")" "$TEST_TMP/nobody-bin/" &&
		chmod 755 "$TEST_TMP/nobody-bin" && prog="$TEST_TMP/nobody-bin/$1" && shift &&
		setpriv --reuid=65534 --regid=65534 --clear-groups env TASK_DB="$TASK_DB" HOME=/ "$prog" "$@"
	else
		"$@"
	fi
}
test_expect_success 'a read-only store refuses changes and keeps every task' '
	mkdir ro && TASK_DB=$PWD/ro/tasks.db && export TASK_DB &&
	task-add --manual --name one x >/dev/null && task-ls --json >ro-before &&
	chmod 755 . && chmod 555 ro && chmod 444 ro/tasks.db &&
	test_expect_code 1 as_other task-ls --json >out 2>err && test_one_line err &&
	test_expect_code 1 as_other task-add --manual y >out 2>err &&
	test_one_line err && grep -q "read-only" err &&
	test_expect_code 1 as_other task-rm --purge >out 2>err && test_one_line err &&
	chmod 700 ro && chmod 600 ro/tasks.db &&
	task-ls --json >after && test_cmp ro-before after
'

test_expect_success 'a writable store in a read-only directory: the message names the directory' '
	mkdir rodir && TASK_DB=$PWD/rodir/tasks.db && export TASK_DB &&
	task-add --manual --name one x >/dev/null && task-ls --json >before &&
	rm -f rodir/tasks.db-wal rodir/tasks.db-shm &&
	if [ "$(id -u)" = 0 ]; then chown 65534 rodir/tasks.db rodir/tasks.db-wake; fi &&
	chmod 755 . && chmod 555 rodir &&
	test_expect_code 1 as_other task-add --manual y >out 2>err &&
	test_one_line err && test ! -s out &&
	echo "task-add: store '\''$PWD/rodir/tasks.db'\'': its directory '\''$PWD/rodir'\'' is not writable (SQLite keeps its journal beside the store); check the directory'\''s permissions" >expect &&
	test_cmp expect err &&
	chmod 700 rodir && if [ "$(id -u)" = 0 ]; then chown 0 rodir/tasks.db; fi &&
	task-ls --json >after && test_cmp before after
'

test_done
