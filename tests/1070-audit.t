#!/bin/sh
# The audit trail: every change to a task (made with the CLI, by an agent's
# tool call, through task-web with a token) is an entry with who made it
# and the fields before and after, chained by SHA-256; task-log --audit
# shows it and --audit --verify names the first entry changed or removed.
# Retention prunes it only up to the last verified checkpoint.
. "$AC_TOP/tests/lib.sh"
TASK_HOST_ID=here TASK_NOW=2026-11-23T06:00:00Z
export TASK_HOST_ID TASK_NOW
me="uid $(id -u) on here"
RUN=5b1f3c2a-1111-4222-8333-444455556666
# trail: seq, who, action and change of every entry, oldest first.
trail() {
	task-log --audit "$@" | cut -f1,3,4,6 | sort -n
}
unfreeze() {
	case $AC_STORE in
	sqlite) store_sql "DROP TRIGGER audit_append_only" ;;
	postgres) store_sql "DROP TRIGGER audit_append_only ON audit" ;;
	esac
}
# rehash SEQ: entry SEQ's hash made to match what it now holds, as someone
# hiding an edit would (the canonical form of audit.h).
field() {
	v=$(store_sql "SELECT coalesce(CAST($1 AS TEXT), '<null>') FROM audit WHERE seq = $2")
	if [ "$v" = "<null>" ]; then printf -- '-\n'; else printf '%s:%s\n' "$(printf %s "$v" | wc -c)" "$v"; fi
}
rehash() {
	h=$({ printf 'agentcron-audit-1\n' &&
		for c in seq at actor action task_id before after prev; do field $c "$1" || return 1; done
	} | sha256sum | cut -c1-64) &&
	store_sql "UPDATE audit SET hash = '$h' WHERE seq = $1"
}

test_expect_success 'each change by the user: who, what, before and after' '
	id=$(task-add --daily 07:00 --name morning "Say hello") &&
	task-edit "$id" --name Morning >/dev/null &&
	task-edit "$id" --disable >/dev/null &&
	task-edit "$id" --enable >/dev/null &&
	task-run --queue "$id" >/dev/null &&
	task-rm "$id" 2>/dev/null &&
	task-rm --undo 2>/dev/null &&
	trail >actual &&
	cat >expect <<-EOF &&
	1	$me	create	name "morning"
	2	$me	edit	name: "morning" -> "Morning"
	3	$me	pause	enabled: true -> false
	4	$me	enable	enabled: false -> true
	5	$me	run	
	6	$me	delete	name "Morning"
	7	$me	restore	
	EOF
	test_cmp expect actual &&
	task-log --audit --json --task "$id" | sed -n 4p | test_json_norm >actual &&
	cat >expect <<-EOF &&
	{"seq":4,"at":"2026-11-23T06:00:00Z","actor":{"uid":$(id -u),"host":"here"},"action":"enable","task":"<id1>","before":{"enabled":false},"after":{"enabled":true},"prev":"$(store_sql "SELECT hash FROM audit WHERE seq = 3")","hash":"$(store_sql "SELECT hash FROM audit WHERE seq = 4")"}
	EOF
	test_cmp expect actual &&
	task-log --audit --limit 1 | cut -f1 >actual && echo 7 >expect && test_cmp expect actual
'

test_expect_success 'a run of the scheduler changes the task but adds no entry' '
	n=$(store_sql "SELECT count(*) FROM audit") &&
	task-add --manual --exec true --name quiet x >/dev/null &&
	task-run quiet >/dev/null &&
	test "$(store_sql "SELECT count(*) FROM audit")" = $((n + 1))
'

# The scheduler's own change to a task, a pause after failures in a row, is
# on the trail as task-tick; its runs, the next run moving and a failure
# counted are not changes anyone made.
test_expect_success 'a pause after failures is on the trail, by task-tick' '
	n=$(store_sql "SELECT count(*) FROM audit") &&
	id=$(task-add --cron "0 * * * *" --retries 0 --pause-after 2 --name fragile --exec false x) &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>&1 &&
	test "$(store_sql "SELECT count(*) FROM audit")" = $((n + 1)) &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >/dev/null 2>&1 &&
	test "$(store_sql "SELECT count(*) FROM audit")" = $((n + 2)) &&
	task-log --audit --limit 1 | cut -f2- >actual &&
	printf "%s\ttask-tick (uid %s on here)\tpause\t%s\tenabled: true -> false; paused: null -> \"paused after 2 failures in a row: exited with status 1\"\n" \
		2026-11-23T08:00:00Z "$(id -u)" "$(echo "$id" | cut -c1-8)" >expect &&
	test_cmp expect actual &&
	task-log --audit --json --limit 1 | sed "s/.*\"actor\":\({[^}]*}\).*/\1/" >actual &&
	echo "{\"uid\":$(id -u),\"host\":\"here\",\"scheduler\":\"task-tick\"}" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T09:00:00Z task-tick >/dev/null 2>&1 &&
	test "$(store_sql "SELECT count(*) FROM audit")" = $((n + 2)) &&
	task-edit --enable fragile >/dev/null &&
	task-log --audit --limit 1 | cut -f3,4 >actual &&
	printf "%s\tenable\n" "$me" >expect && test_cmp expect actual &&
	task-rm fragile >/dev/null &&
	task-log --audit --verify >/dev/null
'

test_expect_success 'an agent: its run and scope; grants of a trigger and of a token' '
	printf "%s\n" "{\"name\":\"task_create\",\"arguments\":{\"name\":\"agents\",\"prompt\":\"p\",\"daily\":\"08:00\"}}" >calls &&
	TASK_RUN_ID=$RUN TASK_SCOPE=team task-mcp --call <calls >out &&
	task-log --audit --limit 1 | cut -f3,4,6 >actual &&
	printf "agent run 5b1f3c2a (scope team)\tcreate\tname \"agents\"\n" >expect &&
	test_cmp expect actual &&
	task-log --audit --json --limit 1 | sed "s/.*\"actor\":\({[^}]*}\).*/\1/" >actual &&
	echo "{\"uid\":$(id -u),\"host\":\"here\",\"agent\":\"agent:run:$RUN\",\"run\":\"$RUN\",\"scope\":\"team\"}" >expect &&
	test_cmp expect actual &&
	task-edit agents --trigger-token new >/dev/null 2>&1 &&
	task-web --new-token ci >tok 2>/dev/null &&
	task-log --audit --limit 2 | cut -f3,4,6 >actual &&
	cat >expect <<-EOF &&
	$me	token	token: "ci"; read_only: false
	$me	grant	trigger_token: "new"
	EOF
	test_cmp expect actual &&
	! grep -q "$(cat tok)" actual
'

web_start() {
	test_start_ready wout werr task-web --listen 127.0.0.1:0 || return 1
	web_pid=$test_ready_pid
	url=$(sed -n 's|^task-web: listening on \(http://127.0.0.1:[0-9]*\)/$|\1|p' werr)
}
task-add --manual --exec false --name webbed x >/dev/null
task-run webbed >/dev/null 2>&1
failed=$(task-log --task webbed --limit 1 | cut -f1)
web_start

test_expect_success 'task-web: run now, rerun, pause, resume and delete, as the token that asked' '
	n=$(store_sql "SELECT count(*) FROM audit") &&
	for a in tasks/webbed/run runs/$failed/rerun tasks/webbed/pause tasks/webbed/resume \
		tasks/webbed/delete; do
		code=$(curl -s --max-time 20 -o /dev/null -w "%{http_code}" -d reason=lunch \
			-H "Authorization: Bearer $(cat tok)" "$url/$a") &&
		test "$code" -lt 300 || return 1
	done &&
	task-log --audit --limit 5 | cut -f1,3,4 | sort -n | cut -f2,3 >actual &&
	printf "token ci\t%s\n" run rerun pause resume delete >expect &&
	test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM audit")" = $((n + 5)) &&
	task-log --audit --json --limit 3 | sed -n 3p | grep -q "\"after\":{\"enabled\":false,\"paused\":\"lunch (by ci)\"}"
'
kill -TERM "$web_pid" && wait "$web_pid"

test_expect_success 'verify: an intact chain, and an update refused' '
	task-log --audit --verify >out &&
	n=$(store_sql "SELECT max(seq) FROM audit") &&
	echo "audit trail intact: $n entries, the last $n with hash $(store_sql "SELECT hash FROM audit WHERE seq = $n")" >expect &&
	test_cmp expect out &&
	{ store_sql "UPDATE audit SET action = '\''edit'\'' WHERE seq = 3" 2>err; test $? != 0; } &&
	grep -q "append-only" err &&
	test "$(store_sql "SELECT action FROM audit WHERE seq = 3")" = pause
'

test_expect_success 'an entry changed is named, even with its hash made to match' '
	cp_trail=$(store_sql "SELECT action FROM audit WHERE seq = 3") &&
	unfreeze &&
	store_sql "UPDATE audit SET action = '\''enable'\'' WHERE seq = 3" &&
	test_expect_code 1 task-log --audit --verify >out 2>err &&
	test ! -s out &&
	echo "task-log: the audit trail is broken: entry 3 was changed" >expect && test_cmp expect err &&
	rehash 3 &&
	test_expect_code 1 task-log --audit --verify --json >out 2>err &&
	echo "{\"intact\":false,\"entries\":4,\"entry\":3,\"problem\":\"changed\",\"pruned_through\":0}" >expect &&
	test_cmp expect out &&
	store_sql "UPDATE audit SET action = '\''$cp_trail'\'' WHERE seq = 3" && rehash 3 &&
	task-log --audit --verify >/dev/null
'

test_expect_success 'an entry removed is named: in the middle and at the end' '
	n=$(store_sql "SELECT max(seq) FROM audit") &&
	store_sql "DELETE FROM audit WHERE seq = 5" &&
	test_expect_code 1 task-log --audit --verify 2>err &&
	echo "task-log: the audit trail is broken: entry 5 was removed" >expect && test_cmp expect err &&
	store_sql "DELETE FROM audit WHERE seq >= 5" &&
	test_expect_code 1 task-log --audit --verify 2>err &&
	echo "task-log: the audit trail is broken: entry 5 was removed" >expect && test_cmp expect err
'

test_expect_success 'retention: only up to the last verified checkpoint' '
	reset_store &&
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	echo "keep = 1d" >"$XDG_CONFIG_HOME/agentcron/config" &&
	for d in 01 02 03; do
		TASK_NOW=2026-11-${d}T06:00:00Z task-add --manual --name "t$d" x >/dev/null || return 1
	done &&
	TASK_NOW=2026-11-03T06:00:00Z task-log --audit --verify >/dev/null &&
	TASK_NOW=2026-11-10T06:00:00Z task-add --manual --name late x >/dev/null &&
	TASK_NOW=2026-11-20T06:00:00Z task-log --prune >/dev/null &&
	store_sql "SELECT seq FROM audit ORDER BY seq" >actual &&
	printf "4\n" >expect && test_cmp expect actual &&
	task-log --audit --verify >out &&
	grep -q "^audit trail intact: 1 entry, the last 4 with hash [0-9a-f]\{64\} (entries through 3 pruned)$" out &&
	store_sql "DELETE FROM audit WHERE seq = 4" &&
	test_expect_code 1 task-log --audit --verify 2>err &&
	echo "task-log: the audit trail is broken: entry 4 was removed" >expect && test_cmp expect err
'

test_expect_success 'bad options: one line, exit 2' '
	test_expect_code 2 task-log --verify 2>err && test_one_line err &&
	test_expect_code 2 task-log --audit --calls 2>err && test_one_line err &&
	test_expect_code 2 task-log --audit --verify --task x 2>err && test_one_line err &&
	test_expect_code 3 task-log --audit --task nosuch 2>err && test_one_line err
'

test_expect_success 'a store from before the audit trail is upgraded and audits from then on' '
	reset_store &&
	task-add --manual --name kept x >/dev/null &&
	case $AC_STORE in
	sqlite) store_sql "DROP TABLE audit; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 19" ;;
	postgres) store_sql "DROP TABLE audit; DROP FUNCTION agentcron_audit_append_only; UPDATE agentcron_schema SET version = 15" ;;
	esac &&
	task-edit kept --name still >/dev/null &&
	trail >actual &&
	printf "1\t%s\tedit\tname: \"kept\" -> \"still\"\n" "$me" >expect &&
	test_cmp expect actual &&
	task-log --audit --verify >/dev/null
'

test_done
