#!/bin/sh
# An idle pass from cron on a SQLite store leaves a note beside it
# (PATH-idle: the next instant anything may be due, when it was written,
# the files as they were) and the next passes take it without opening the
# store until then.  Anything that the note does not see coming gives a
# full pass: a write made outside agentcron (the sqlite3 shell, whose
# reading too copies the log in at close), the file replaced, the config
# edited, a clock that went back, the hour the note stands for at most,
# another version's note, a torn or garbage note, another host.  Programs
# of ours that only read leave it standing.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-idle.sh"
export TASK_EXEC=true TASK_HOST_ID=alpha
note=$TASK_DB-idle

# written: when the note was written (its fifth field); its time: the
# last pass that took it.
written() {
	cut -d" " -f5 "$note"
}

# fast T: a pass at T took the note: written as before, its time T.
fast() {
	w=$(written) &&
	pass "$1" &&
	test "$(written)" = "$w" &&
	test "$(stat -c %Y "$note")" = "$(at "$1")"
}

# full T: a pass at T opened the store and wrote the note anew.
full() {
	pass "$1" &&
	test "$(written)" = "$(at "$1")"
}

test_expect_success 'an idle pass writes the note: 0600, one line, nothing due before 08:00' '
	TASK_NOW=2026-11-23T07:00:00Z task-add --cron "0 8 * * *" --name later Summarise >id &&
	pass 2026-11-23T07:00:00Z &&
	test "$(stat -c %a "$note")" = 600 &&
	test "$(wc -l <"$note")" = 1 &&
	echo "agentcron-idle 1 $(task-tick --version | cut -d" " -f3) $(at 2026-11-23T08:00:00Z) $(at 2026-11-23T07:00:00Z)" >expect &&
	cut -d" " -f1-5 "$note" >actual &&
	test_cmp expect actual &&
	test "$(cut -d" " -f23- "$note")" = alpha &&
	test "$(stat -c %Y "$note")" = "$(at 2026-11-23T07:00:00Z)"
'

# hold: another process holds the store's write lock until the check ends.
hold() {
	rm -f held &&
	{ python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN IMMEDIATE')
open('held', 'w').close()
time.sleep(60)" "$TASK_DB" & } &&
	holder=$! &&
	test_when_finished "kill $holder; wait $holder || :" &&
	test_until 30 test -e held
}

test_expect_success 'the next passes take it: they do not open the store, held by another writer' '
	hold &&
	fast 2026-11-23T07:01:00Z &&
	TASK_NOW=2026-11-23T07:02:00Z task-tick --json >out 2>err &&
	test ! -s out && test ! -s err &&
	test "$(stat -c %Y "$note")" = "$(at 2026-11-23T07:02:00Z)" &&
	test_expect_code 124 env TASK_NOW=2026-11-23T07:02:00Z TASK_HOST_ID=beta timeout 3 task-tick
'

test_expect_success 'task-status shows the last pass that took it; the store has the one that wrote it' '
	TASK_NOW=2026-11-23T07:02:30Z task-status --json >status.json &&
	python3 -c "
import json, sys
p = json.load(open(\"status.json\"))[\"passes\"]
print(len(p), p[0][\"host\"], p[0][\"at\"], p[0][\"mode\"])" >actual &&
	echo "1 alpha 2026-11-23T07:02:00Z cron" >expect &&
	test_cmp expect actual &&
	test "$(store_sql "SELECT at FROM passes")" = "$(at 2026-11-23T07:00:00Z)"
'

test_expect_success 'programs that only read leave it standing: task-ls, task-show, task-status, task-log' '
	full 2026-11-23T07:02:35Z &&
	TASK_NOW=2026-11-23T07:02:40Z task-ls >/dev/null &&
	TASK_NOW=2026-11-23T07:02:40Z task-show later >/dev/null &&
	TASK_NOW=2026-11-23T07:02:40Z task-status >/dev/null &&
	TASK_NOW=2026-11-23T07:02:40Z task-log >/dev/null &&
	fast 2026-11-23T07:02:50Z
'

test_expect_success 'a write with the sqlite3 shell: a full pass' '
	fast 2026-11-23T07:04:00Z &&
	sqlite3 "$TASK_DB" "UPDATE tasks SET name = name || '\''!'\''" &&
	full 2026-11-23T07:05:00Z &&
	fast 2026-11-23T07:06:00Z
'

test_expect_success 'the store replaced by another file (mv): a full pass' '
	cp "$TASK_DB" copy.db &&
	mv copy.db "$TASK_DB" &&
	full 2026-11-23T07:07:00Z &&
	fast 2026-11-23T07:08:00Z
'

test_expect_success 'the config edited, made or removed: a full pass each' '
	config_edits 2026-11-23T07:09:00Z 2026-11-23T07:10:00Z 2026-11-23T07:11:00Z 2026-11-23T07:12:00Z 2026-11-23T07:13:00Z
'

test_expect_success 'a clock that went back before the note was written: a full pass' '
	full 2026-11-23T07:11:59Z &&
	fast 2026-11-23T07:13:30Z
'

test_expect_success 'an hour after it was written at most (the cap): then a full pass' '
	full 2026-11-23T06:50:00Z &&
	fast 2026-11-23T07:49:59Z &&
	full 2026-11-23T07:50:00Z
'

test_expect_success 'at the next due instant: a full pass, which fires the task' '
	fast 2026-11-23T07:59:59Z &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >out &&
	test "$(wc -l <out)" = 1 &&
	test ! -e "$note" &&
	task-log --json | python3 -c "
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print(r[\"status\"], r[\"slot\"], r[\"trigger\"])" >actual &&
	echo "success 2026-11-23T08:00:00Z schedule" >expect &&
	test_cmp expect actual &&
	full 2026-11-23T08:01:00Z &&
	test "$(cut -d" " -f4 "$note")" = "$(at 2026-11-24T08:00:00Z)"
'

test_expect_success 'a note from another version, another format or another host: a full pass' '
	sed "s/^agentcron-idle 1 [^ ]* /agentcron-idle 1 0.0.9 /" "$note" >x && mv x "$note" &&
	full 2026-11-23T08:02:00Z &&
	sed "s/^agentcron-idle 1 /agentcron-idle 2 /" "$note" >x && mv x "$note" &&
	full 2026-11-23T08:03:00Z &&
	fast 2026-11-23T08:04:00Z &&
	TASK_HOST_ID=beta full 2026-11-23T08:05:00Z &&
	test "$(cut -d" " -f23- "$note")" = beta &&
	full 2026-11-23T08:06:00Z &&
	test "$(cut -d" " -f23- "$note")" = alpha
'

test_expect_success 'a torn, empty, garbage or doubled note: a full pass each' '
	head -c 40 "$note" >x && mv x "$note" &&
	full 2026-11-23T08:07:00Z &&
	tr -d "\n" <"$note" >x && mv x "$note" &&
	full 2026-11-23T08:08:00Z &&
	: >"$note" &&
	full 2026-11-23T08:09:00Z &&
	echo "hello world" >"$note" &&
	full 2026-11-23T08:10:00Z &&
	cat "$note" "$note" >x && mv x "$note" &&
	full 2026-11-23T08:11:00Z &&
	sed "s/ alpha\$/ alpha\\nalpha/" "$note" >x && mv x "$note" &&
	full 2026-11-23T08:12:00Z &&
	sed "s/^\\(\\([^ ]* \\)\\{6\\}\\)[0-9]*/\\1x/" "$note" >x && mv x "$note" &&
	full 2026-11-23T08:13:00Z &&
	fast 2026-11-23T08:14:00Z
'

test_expect_success 'a note whose identity is off by one field: a full pass' '
	awk "{ \$8 = \$8 + 1; print }" "$note" >x && mv x "$note" &&
	full 2026-11-23T08:15:00Z &&
	fast 2026-11-23T08:16:00Z
'

test_expect_success 'the passes that are not from cron neither take nor write it: --dry-run, --pause' '
	TASK_NOW=2026-11-23T08:17:00Z task-tick --dry-run >out &&
	test ! -s out &&
	{ test ! -e "$note" || test "$(stat -c %Y "$note")" = "$(at 2026-11-23T08:16:00Z)"; } &&
	full 2026-11-23T08:17:30Z &&
	TASK_NOW=2026-11-23T08:18:00Z task-tick --pause 2>err &&
	test ! -e "$note" &&
	pass 2026-11-23T08:19:00Z &&
	test ! -e "$note" &&
	TASK_NOW=2026-11-23T08:20:00Z task-tick --resume 2>err &&
	full 2026-11-23T08:21:00Z
'

test_expect_success 'a note stands within its UTC day: the first pass of a day is a full one' '
	day_bound 2026-11-23 2026-11-24
'

test_done
