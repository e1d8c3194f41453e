#!/bin/sh
# An idle pass from cron on PostgreSQL leaves a note in the state
# directory (idle-HASH-HOST): the next instant anything may be due, when
# it was written, and the next transaction id the server was to give.
# Every write there, by anyone, takes an id, so the next pass records
# itself and, when the id its record took is the noted one, nothing was
# written since: it notes the next and reads nothing else.  Anything the
# note does not see coming gives a full pass: a write by psql, one in
# progress while the note was made, a write of ours, the server
# restarted, the config edited, a clock that went back, the hour a note
# stands for, the due instant, another version's, a torn one.  Another
# host's record of its pass takes an id too: the ids between the noted one
# and the pass's own that are such records (a row of passes each, whose
# xmin they are) leave the note standing; anything else another host
# writes does not.  After three passes in a row that found the id taken,
# passes ask again only after ten minutes.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-idle.sh"
export TASK_EXEC=true TASK_HOST_ID=alpha
pg_own_server || exit 1
dir=$HOME/.local/state/agentcron

# note: alpha's note; field: one of its fields.
note() {
	ls "$dir"/idle-*-alpha
}
field() {
	cut -d" " -f"$1" "$(note)"
}

# fast T [N]: a pass at T took the note: written as before, the next id
# after the one it took, N after the noted one (1: its own alone), its
# time T, and it recorded itself at T.
fast() {
	w=$(field 5) && x=$(field 12) &&
	pass "$1" &&
	test "$(field 5)" = "$w" &&
	test "$(field 12)" = $((x + ${2:-1})) &&
	test "$(stat -c %Y "$(note)")" = "$(at "$1")" &&
	test "$(own_sql "SELECT at FROM passes WHERE host = 'alpha'")" = "$(at "$1")"
}

# unmarked T: a pass at T that left the note as it was.
unmarked() {
	w=$(field 5) &&
	pass "$1" &&
	test "$(field 5)" = "$w"
}

# unmarked_while FLAG T CMD...: CMD in the background; once it made FLAG,
# a pass at T leaves the note as it was; then CMD ends, successfully.
unmarked_while() {
	flag=$1 t=$2 &&
	shift 2 &&
	rm -f "$flag" &&
	{ "$@" >/dev/null 2>&1 & } &&
	bg=$! &&
	test_when_finished "kill $bg 2>/dev/null; wait $bg || :" &&
	test_until 20 test -e "$flag" &&
	unmarked "$t" &&
	wait $bg
}

# full T: a pass at T read the store and wrote the note anew.
full() {
	pass "$1" &&
	test "$(field 5)" = "$(at "$1")"
}

test_expect_success 'an idle pass writes the note: 0600 in a 0700 directory, one line' '
	TASK_NOW=2026-11-23T07:00:00Z task-add --cron "0 8 * * *" --name later Summarise >id &&
	pass 2026-11-23T07:00:00Z &&
	test "$(ls "$dir" | grep -c "^idle-")" = 1 &&
	test "$(stat -c %a "$(note)")" = 600 &&
	test "$(stat -c %a "$dir")" = 700 &&
	test "$(wc -l <"$(note)")" = 1 &&
	echo "agentcron-idle-server 1 $(task-tick --version | cut -d" " -f3) $(at 2026-11-23T08:00:00Z) $(at 2026-11-23T07:00:00Z)" >expect &&
	cut -d" " -f1-5 "$(note)" >actual &&
	test_cmp expect actual &&
	test "$(field 13-14)" = "0 0" &&
	test "$(field 15-)" = alpha &&
	test "$(field 11)" = "$(own_sql "SELECT (extract(epoch FROM pg_postmaster_start_time()) * 1000000)::bigint")"
'

test_expect_success 'the id it notes is the next the server gives' '
	test "$(own_sql "SELECT txid_current()")" = "$(field 12)" &&
	full 2026-11-23T07:00:30Z
'

test_expect_success 'the next passes take it, each recording itself; task-status shows the last' '
	fast 2026-11-23T07:01:00Z &&
	fast 2026-11-23T07:02:00Z &&
	TASK_NOW=2026-11-23T07:02:30Z task-status --json >status.json &&
	python3 -c "
import json
p = json.load(open(\"status.json\"))[\"passes\"]
print(len(p), p[0][\"host\"], p[0][\"at\"], p[0][\"mode\"])" >actual &&
	echo "1 alpha 2026-11-23T07:02:00Z cron" >expect &&
	test_cmp expect actual
'

test_expect_success 'programs that only read leave it standing: task-ls, task-show, task-status, task-log' '
	TASK_NOW=2026-11-23T07:02:40Z task-ls >/dev/null &&
	TASK_NOW=2026-11-23T07:02:40Z task-show later >/dev/null &&
	TASK_NOW=2026-11-23T07:02:40Z task-status >/dev/null &&
	TASK_NOW=2026-11-23T07:02:40Z task-log >/dev/null &&
	fast 2026-11-23T07:02:50Z
'

test_expect_success 'a write with psql: a full pass, and one made due by it fires' '
	own_sql "UPDATE tasks SET name = name || '\''!'\''" &&
	full 2026-11-23T07:04:00Z &&
	fast 2026-11-23T07:05:00Z &&
	own_sql "UPDATE tasks SET next_run_at = $(at 2026-11-23T07:05:30Z), due_at = $(at 2026-11-23T07:05:30Z)" &&
	TASK_NOW=2026-11-23T07:06:00Z task-tick >out &&
	test "$(own_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 1
'

test_expect_success 'a write in progress while a pass looks: no note from it; after, a full pass' '
	full 2026-11-23T07:07:00Z &&
	printf "BEGIN;\nUPDATE settings SET value = value WHERE false;\nSELECT txid_current();\n\\\\! touch begun\nSELECT pg_sleep(4);\nCOMMIT;\n" >writes &&
	unmarked_while begun 2026-11-23T07:08:00Z \
		"$AC_PG_BIN/psql" -h "$PGSRV" -U postgres -d agentcron -X -q -f writes &&
	full 2026-11-23T07:09:00Z &&
	fast 2026-11-23T07:10:00Z
'

test_expect_success 'a task added: a full pass, and the new task fires at its time' '
	TASK_NOW=2026-11-23T07:10:30Z task-add --at 2026-11-23T07:12:00Z --name soon "Look" >/dev/null &&
	full 2026-11-23T07:11:00Z &&
	test "$(field 4)" = "$(at 2026-11-23T07:12:00Z)" &&
	fast 2026-11-23T07:11:30Z &&
	TASK_NOW=2026-11-23T07:12:00Z task-tick >out &&
	test "$(own_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 2 &&
	full 2026-11-23T07:13:00Z &&
	fast 2026-11-23T07:14:00Z
'

test_expect_success 'the server restarted: a full pass' '
	"$AC_TOP/tests/pg-server" restart "$PGSRV" >/dev/null &&
	full 2026-11-23T07:15:00Z &&
	fast 2026-11-23T07:16:00Z
'

test_expect_success 'a server that cannot be reached: said once, as without a note' '
	"$AC_TOP/tests/pg-server" stop "$PGSRV" >/dev/null &&
	test_when_finished "\"\$AC_TOP/tests/pg-server\" resume \"\$PGSRV\" >/dev/null" &&
	test_expect_code 1 env TASK_NOW=2026-11-23T07:16:30Z task-tick >out 2>with &&
	test ! -s out &&
	test "$(wc -l <with)" = 1 &&
	grep -q "^task-tick: cannot connect to the PostgreSQL store .*agentcron" with &&
	n=$(note) &&
	mv "$n" kept &&
	test_expect_code 1 env TASK_NOW=2026-11-23T07:16:30Z task-tick >out 2>without &&
	test_cmp without with &&
	mv kept "$n"
'

test_expect_success 'the config edited, made or removed: a full pass each' '
	config_edits 2026-11-23T07:17:00Z 2026-11-23T07:18:00Z 2026-11-23T07:19:00Z 2026-11-23T07:20:00Z 2026-11-23T07:21:00Z
'

test_expect_success 'a clock that went back, the hour a note stands for, the due instant: full passes' '
	full 2026-11-23T07:19:59Z &&
	full 2026-11-23T06:50:00Z &&
	fast 2026-11-23T07:49:59Z &&
	full 2026-11-23T07:50:00Z &&
	fast 2026-11-23T07:59:59Z &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >out &&
	test "$(own_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 3 &&
	full 2026-11-23T08:01:00Z &&
	test "$(field 4)" = "$(at 2026-11-24T08:00:00Z)"
'

test_expect_success 'a note of another version or format, torn or garbage: a full pass each' '
	sed "s/^agentcron-idle-server 1 [^ ]* /agentcron-idle-server 1 0.0.9 /" "$(note)" >x && mv x "$(note)" &&
	full 2026-11-23T08:02:00Z &&
	sed "s/^agentcron-idle-server 1 /agentcron-idle-server 2 /" "$(note)" >x && mv x "$(note)" &&
	full 2026-11-23T08:03:00Z &&
	head -c 40 "$(note)" >x && mv x "$(note)" &&
	full 2026-11-23T08:04:00Z &&
	echo "hello world" >"$(note)" &&
	full 2026-11-23T08:05:00Z &&
	awk "{ \$12 = \$12 - 1; print }" "$(note)" >x && mv x "$(note)" &&
	full 2026-11-23T08:06:00Z &&
	awk "{ \$11 = \$11 + 1; print }" "$(note)" >x && mv x "$(note)" &&
	full 2026-11-23T08:07:00Z &&
	fast 2026-11-23T08:08:00Z
'

# beta T, gamma T: a pass of another host at T, silent.
beta() {
	TASK_NOW=$1 TASK_HOST_ID=beta task-tick >out 2>err && test ! -s out && test ! -s err
}
gamma() {
	TASK_NOW=$1 TASK_HOST_ID=gamma task-tick >out 2>err && test ! -s out && test ! -s err
}

test_expect_success 'other hosts passing against the same server: their records leave the note' '
	own_sql "INSERT INTO settings (key, value) VALUES ('\''prune_round'\'', '\''$(at 2026-11-23T08:08:30Z)'\''),
		('\''prune_cursor'\'', '\''0:'\'') ON CONFLICT (key) DO UPDATE SET value = excluded.value" &&
	full 2026-11-23T08:08:40Z &&
	beta 2026-11-23T08:09:00Z &&
	test "$(ls "$dir" | grep -c "^idle-.*-beta\$")" = 1 &&
	fast 2026-11-23T08:10:00Z 2 &&
	beta 2026-11-23T08:10:10Z &&
	gamma 2026-11-23T08:10:20Z &&
	fast 2026-11-23T08:10:30Z 3 &&
	beta 2026-11-23T08:10:40Z &&
	fast 2026-11-23T08:10:45Z 2
'

test_expect_success 'another host that recorded twice since, or wrote anything else: a full pass' '
	beta 2026-11-23T08:10:50Z &&
	beta 2026-11-23T08:10:51Z &&
	full 2026-11-23T08:10:55Z &&
	TASK_NOW=2026-11-23T08:10:56Z TASK_HOST_ID=beta task-add --manual --name other "Else" >/dev/null &&
	full 2026-11-23T08:11:00Z &&
	fast 2026-11-23T08:11:10Z
'

test_expect_success 'after a write, each host records once in its full pass: then the notes hold again' '
	beta 2026-11-23T08:11:20Z &&
	fast 2026-11-23T08:11:25Z 2 &&
	own_sql "SELECT txid_current()" >/dev/null &&
	full 2026-11-23T08:11:30Z &&
	beta 2026-11-23T08:11:35Z &&
	fast 2026-11-23T08:11:40Z 2 &&
	beta 2026-11-23T08:11:45Z &&
	fast 2026-11-23T08:11:50Z 2
'

test_expect_success 'a run in flight: the pass writes no note' '
	cat >slow <<-\EOF &&
	#!/bin/sh
	touch running
	sleep 3
	echo done
	EOF
	chmod +x slow &&
	TASK_NOW=2026-11-23T08:11:30Z task-add --manual --exec "$PWD/slow" --name slow "Wait" >/dev/null &&
	full 2026-11-23T08:12:00Z &&
	unmarked_while running 2026-11-23T08:12:20Z env TASK_NOW=2026-11-23T08:12:10Z task-run slow &&
	full 2026-11-23T08:13:00Z &&
	fast 2026-11-23T08:14:00Z
'

test_expect_success 'passes not from cron neither take nor write it; a paused pass writes none' '
	TASK_NOW=2026-11-23T08:15:00Z task-tick --dry-run >out &&
	test "$(stat -c %Y "$(note)")" = "$(at 2026-11-23T08:14:00Z)" &&
	TASK_NOW=2026-11-23T08:16:00Z task-tick --pause 2>err &&
	unmarked 2026-11-23T08:17:00Z &&
	unmarked 2026-11-23T08:18:00Z &&
	TASK_NOW=2026-11-23T08:19:00Z task-tick --resume 2>err &&
	full 2026-11-23T08:20:00Z &&
	fast 2026-11-23T08:21:00Z
'

test_expect_success 'three passes in a row that found the id taken: no asking for ten minutes' '
	test "$(field 13-14)" = "0 0" &&
	for m in 1 2 3; do
		own_sql "SELECT txid_current()" >/dev/null &&
		full 2026-11-23T08:3${m}:30Z &&
		test "$(field 13)" = $m || return 1
	done &&
	test "$(field 14)" = $(($(at 2026-11-23T08:33:30Z) + 600)) &&
	full 2026-11-23T08:34:00Z &&
	full 2026-11-23T08:43:29Z &&
	test "$(field 13-14)" = "3 $(($(at 2026-11-23T08:33:30Z) + 600))" &&
	fast 2026-11-23T08:43:30Z &&
	test "$(field 13-14)" = "0 0" &&
	fast 2026-11-23T08:44:00Z
'

test_expect_success 'a note stands within its UTC day: the first pass of a day is a full one' '
	day_bound 2026-11-23 2026-11-24
'

test_done
