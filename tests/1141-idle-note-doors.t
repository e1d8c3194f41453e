#!/bin/sh
# Every door that writes makes the next pass a full one: an idle pass from
# cron (on SQLite it leaves its note, PATH-idle), then a write that makes
# something due (task-add, task-edit --at and --enable, task-rm --undo,
# task-run --queue, task-run of a task that another follows, task-tick
# --resume and --heartbeat, a task-mcp tool call, a task-web hook), then a
# pass at the instant it is due: it fires.  On SQLite the write retired
# the note; on PostgreSQL, which keeps none, the same passes fire alike.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"
export TASK_EXEC=true TASK_HOST_ID=alpha
note=$TASK_DB-idle

# idle T: an idle pass at T, silent; on SQLite its note is there after.
idle() {
	TASK_NOW=2026-11-23T$1Z task-tick >out 2>err &&
	test ! -s out &&
	test ! -s err &&
	{ test "$AC_STORE" != sqlite || test -e "$note"; }
}

# retired: on SQLite the write took the note away.
retired() {
	test "$AC_STORE" != sqlite || test ! -e "$note"
}

# fires T NAME TRIGGER: a pass at T runs NAME (trigger TRIGGER, slot T
# unless a 4th argument says), and the whole history is as expected.
fires() {
	TASK_NOW=2026-11-23T$1Z task-tick >out &&
	test "$(wc -l <out)" = 1 &&
	printf "2026-11-23T%sZ\t%s\t%s\t%s\tsuccess\t0\n" "$1" "$2" "$3" "${4:-2026-11-23T$1Z}" >line &&
	cat line expect.log >x && mv x expect.log &&
	task-log --limit 0 | cut -f2,4-8 >actual &&
	test_cmp expect.log actual
}

: >expect.log

if test "$AC_STORE" = sqlite; then
	test_expect_success 'a new store: the pass that makes it leaves no note (closing copies its log in)' '
		TASK_NOW=2026-11-23T06:59:00Z task-tick >out 2>err &&
		test ! -s out && test ! -s err &&
		test ! -e "$note"
	'
fi

test_expect_success 'task-add --at' '
	idle 07:00:00 &&
	TASK_NOW=2026-11-23T07:01:00Z task-add --at 2026-11-23T07:05:00Z --name a-add x >/dev/null &&
	retired &&
	fires 07:05:00 a-add schedule
'

test_expect_success 'task-edit --at' '
	TASK_NOW=2026-11-23T07:06:00Z task-add --at 2026-11-23T09:00:00Z --name b-edit x >/dev/null &&
	idle 07:10:00 &&
	{ test "$AC_STORE" != sqlite ||
		test "$(cut -d" " -f4 "$note")" = "$(date -u -d 2026-11-23T09:00:00Z +%s)"; } &&
	TASK_NOW=2026-11-23T07:11:00Z task-edit b-edit --at 2026-11-23T07:15:00Z >/dev/null &&
	retired &&
	fires 07:15:00 b-edit schedule
'

test_expect_success 'task-edit --enable' '
	TASK_NOW=2026-11-23T07:16:00Z task-add --at 2026-11-23T07:25:00Z --disabled --name c-enable x >/dev/null &&
	idle 07:20:00 &&
	TASK_NOW=2026-11-23T07:21:00Z task-edit c-enable --enable >/dev/null &&
	retired &&
	fires 07:25:00 c-enable schedule
'

test_expect_success 'task-rm --undo' '
	TASK_NOW=2026-11-23T07:26:00Z task-add --at 2026-11-23T07:35:00Z --name d-undo x >/dev/null &&
	TASK_NOW=2026-11-23T07:26:00Z task-rm d-undo 2>/dev/null &&
	idle 07:30:00 &&
	TASK_NOW=2026-11-23T07:31:00Z task-rm --undo >/dev/null 2>&1 &&
	retired &&
	fires 07:35:00 d-undo schedule
'

test_expect_success 'task-run --queue' '
	TASK_NOW=2026-11-23T07:36:00Z task-add --manual --name e-queue x >/dev/null &&
	idle 07:40:00 &&
	TASK_NOW=2026-11-23T07:40:10Z task-run --queue e-queue >/dev/null 2>&1 &&
	retired &&
	fires 07:40:30 e-queue manual -
'

test_expect_success 'task-run of a task another follows: the follower fires at the next pass' '
	TASK_NOW=2026-11-23T07:41:00Z task-add --manual --name f-up x >/dev/null &&
	TASK_NOW=2026-11-23T07:41:00Z task-add --after f-up --name f-follow x >/dev/null &&
	idle 07:50:00 &&
	TASK_NOW=2026-11-23T07:50:10Z task-run f-up >/dev/null &&
	retired &&
	printf "2026-11-23T07:50:10Z\tf-up\tmanual\t-\tsuccess\t0\n" >line &&
	cat line expect.log >x && mv x expect.log &&
	fires 07:50:30 f-follow after -
'

test_expect_success 'task-tick --pause retires the note, a paused pass writes none, --resume' '
	TASK_NOW=2026-11-23T07:51:00Z task-add --at 2026-11-23T08:05:00Z --name g-resume x >/dev/null &&
	idle 07:59:00 &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick --pause 2>/dev/null &&
	retired &&
	TASK_NOW=2026-11-23T08:01:00Z task-tick >out 2>err &&
	test ! -s out && test ! -e "$note" &&
	TASK_NOW=2026-11-23T08:02:00Z task-tick --resume 2>/dev/null &&
	fires 08:05:00 g-resume schedule
'

test_expect_success 'task-tick --heartbeat' '
	idle 08:10:00 &&
	TASK_NOW=2026-11-23T08:11:00Z task-tick --heartbeat "15 8 * * *" >/dev/null &&
	retired &&
	fires 08:15:00 Heartbeat heartbeat &&
	TASK_NOW=2026-11-23T08:16:00Z task-tick --heartbeat off >/dev/null
'

test_expect_success 'a task-mcp tool call (task_create)' '
	idle 08:20:00 &&
	printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"task_create\",\"arguments\":{\"prompt\":\"x\",\"name\":\"i-mcp\",\"at\":\"2026-11-23T08:25:00Z\"},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}" |
		TASK_NOW=2026-11-23T08:21:00Z task-mcp >mcp.out &&
	grep -q "Created task" mcp.out &&
	retired &&
	fires 08:25:00 i-mcp schedule
'

test_expect_success 'a task-web hook' '
	TASK_NOW=2026-11-23T08:26:00Z task-add --manual --name j-hook x >/dev/null &&
	task-web --trigger-token j-hook >ttok 2>/dev/null &&
	TASK_NOW=2026-11-23T08:30:10Z &&
	export TASK_NOW &&
	web_start &&
	unset TASK_NOW &&
	test_when_finished web_stop &&
	idle 08:30:00 &&
	test "$(req body -X POST -H "Authorization: Bearer $(cat ttok)" --data-binary "{}" \
		"$url/hooks/$(task-ls --json | python3 -c "import json, sys; print([t[\"id\"] for t in map(json.loads, sys.stdin) if t[\"name\"] == \"j-hook\"][0])")")" = 202 &&
	retired &&
	fires 08:30:30 j-hook event -
'

test_done
