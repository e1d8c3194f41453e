#!/bin/sh
# History bounded: a task's --keep (flags, JSON, the native tools,
# task-show), the configuration's keep, keep_runs and context_messages,
# and pruning, by task-log --prune [--dry-run] and by task-tick's passes:
# old runs go with their model calls, the newest 20 of every task stay,
# shared conversations keep what llm-call can still send, and totals
# (task-status --prometheus) count what went.  Days of a minutely task's
# runs are made by tests/tools/mkhistory through the store API.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-01-01T00:00:00Z
mkdir -p "$XDG_CONFIG_HOME/agentcron"
config() {
	printf '%s\n' "$@" >"$XDG_CONFIG_HOME/agentcron/config"
}
# days N: a new store with a minutely task and N days of its runs, none
# pruned yet; prints when they end.
days() {
	reset_store && config "keep = forever" "keep_runs = 0" &&
	"$AC_BUILD/tools/mkhistory" "$TASK_DB" "$1" 100 2>/dev/null >end
}
# The instant the runs of `days` end; the minutely task's id.
end() {
	cat end
}
minutely() {
	store_sql "SELECT id FROM tasks WHERE name = 'minutely'"
}
runs() {
	store_sql "SELECT count(*) FROM runs"
}
# round_ended T: a round of pruning ended at T or later (a watcher's clock
# runs on from TASK_NOW, so a slow round ends later and cuts a little more).
round_ended() {
	test "$(store_sql "SELECT count(*) FROM settings WHERE key = 'prune_round'
		AND CAST(value AS INTEGER) >= $1")" = 1 &&
	test "$(store_sql "SELECT value FROM settings WHERE key = 'prune_cursor'")" = "0:"
}

test_expect_success '--keep: a duration, a number of runs, forever; stored as written back' '
	a=$(task-add --manual --keep 30d a) && b=$(task-add --manual --keep 500 b) &&
	c=$(task-add --manual --keep forever c) && d=$(task-add --manual --keep 48h d) &&
	task-ls --json | sed "s/.*\"name\":\"\([a-d]\)\".*\"keep\":\"\([^\"]*\)\".*/\1 \2/" >actual &&
	printf "%s\n" "a 30d" "b 500" "c forever" "d 2d" >expect &&
	test_cmp expect actual &&
	task-show $a | grep "^keeps:" >actual && echo "keeps:        30 days, and the last 20 runs" >expect &&
	test_cmp expect actual &&
	task-show $b | grep "^keeps:" >actual && echo "keeps:        the last 500 runs" >expect &&
	test_cmp expect actual &&
	task-edit $b --keep default >/dev/null && task-show $b >out && test_expect_code 1 grep -q "^keeps:" out &&
	test "$(task-ls --json | grep -c "\"keep\":\"500\"")" = 0
'

test_expect_success 'bad --keep values are refused with what is expected, nothing changed' '
	for v in 5 19 0 -3d 3x forevers; do
		test_expect_code 2 task-add --manual --keep "$v" bad 2>err >out && test_one_line err || return 1
	done &&
	grep -q "^task-add: bad --keep .forevers.: expected a duration like 90d, 12h or 2w, a number of runs (20 or more), or forever, or default" err &&
	test_expect_code 2 task-add --manual --keep 19 bad 2>err &&
	grep -q "expected at least 20 runs (the newest 20 are always kept)" err &&
	test "$(task-ls --json | grep -c "\"name\":\"bad\"")" = 0
'

test_expect_success 'keep through JSON import and the native tools' '
	echo "{\"name\":\"j\",\"prompt\":\"p\",\"kind\":\"manual\",\"keep\":\"2w\"}" | task-add --json - >/dev/null &&
	task-ls --json | grep -q "\"name\":\"j\".*\"keep\":\"2w\"" &&
	echo "{\"name\":\"k\",\"prompt\":\"p\",\"kind\":\"manual\",\"keep\":\"soon\"}" >bad.json &&
	test_expect_code 2 task-add --json - <bad.json 2>err &&
	grep -q "keep .soon.: expected a duration" err &&
	echo "{\"tool_name\":\"task_create\",\"tool_args\":{\"prompt\":\"t\",\"manual\":true,\"keep\":\"100\"}}" |
		task-mcp --call >out &&
	task-ls --json | grep -q "\"prompt\":\"t\".*\"keep\":\"100\""
'

test_expect_success 'the configuration: keep, keep_runs, context_messages checked' '
	config "keep = soon" &&
	test_expect_code 2 task-log --prune 2>err && test_one_line err &&
	grep -q "bad keep .soon.: expected a duration like 90d" err &&
	config "keep_runs = many" &&
	test_expect_code 2 task-log --prune 2>err && grep -q "bad keep_runs .many." err &&
	config "context_messages = 0" &&
	test_expect_code 2 task-log --prune 2>err && grep -q "bad context_messages .0." err &&
	config "keep = 30d" "keep_runs = 100" "context_messages = 10" &&
	task-log --prune >/dev/null
'

test_expect_success '--prune --dry-run says what would go and changes nothing' '
	days 3 && end=$(end) && test "$(runs)" = 4320 &&
	config "keep = 1d" "keep_runs = 0" &&
	TASK_NOW=$end task-log --prune --dry-run >out &&
	echo "would remove 2880 runs (with 0 model calls), 0 conversation messages and 0 model calls made outside runs (--dry-run: nothing changed)" >expect &&
	test_cmp expect out && test "$(runs)" = 4320 &&
	TASK_NOW=$end task-log --prune --dry-run --json >out &&
	echo "{\"dry_run\":true,\"runs\":2880,\"calls\":0,\"messages\":0,\"loose_calls\":0}" >expect &&
	test_cmp expect out
'

test_expect_success '--prune removes runs past keep, with their model calls' '
	end=$(end) &&
	store_sql "INSERT INTO llm_calls (run_id, task_id, input_tokens, output_tokens, cost, created_at)
		SELECT id, task_id, 10, 5, 0.001, started_at FROM runs" &&
	TASK_NOW=$end task-log --prune >out 2>err &&
	echo "removed 2880 runs (with 2880 model calls), 0 conversation messages and 0 model calls made outside runs" >expect &&
	test_cmp expect out &&
	test "$(runs)" = 1440 &&
	test "$(store_sql "SELECT count(*) FROM llm_calls")" = 1440 &&
	test "$(store_sql "SELECT min(started_at) FROM runs")" -ge $(($(date -u -d $end +%s) - 86400)) &&
	TASK_NOW=$end task-log --prune >out && grep -q "^removed 0 runs" out
'

test_expect_success 'totals count what pruning removed' '
	TASK_NOW=$(end) task-status --prometheus >metrics &&
	grep -q "^agentcron_runs_total{status=\"success\"} 4320$" metrics &&
	grep -q "^agentcron_tokens_total{direction=\"input\"} 43200$" metrics &&
	grep -q "^agentcron_tokens_total{direction=\"output\"} 21600$" metrics &&
	grep -q "^agentcron_cost_dollars_total 4.320000$" metrics
'

test_expect_success 'keep_runs, a task keeping N runs, forever, and the newest 20 always' '
	config "keep = 1d" "keep_runs = 1000" && end=$(end) &&
	TASK_NOW=$end task-log --prune >/dev/null && test "$(runs)" = 1000 &&
	id=$(minutely) &&
	task-edit $id --keep 100 >/dev/null &&
	TASK_NOW=$end task-log --prune >/dev/null && test "$(runs)" = 100 &&
	task-edit $id --keep forever >/dev/null &&
	TASK_NOW=2027-01-01T00:00:00Z task-log --prune >/dev/null && test "$(runs)" = 100 &&
	task-edit $id --keep 1m >/dev/null &&
	TASK_NOW=2027-01-01T00:00:00Z task-log --prune >/dev/null && test "$(runs)" = 20 &&
	store_sql "SELECT max(started_at) FROM runs" >actual &&
	echo $(($(date -u -d $end +%s) - 60)) >expect && test_cmp expect actual
'

test_expect_success 'a running run is never pruned' '
	id=$(minutely) &&
	store_sql "UPDATE runs SET status = '\''running'\'' WHERE started_at = (SELECT min(started_at) FROM runs)" &&
	task-edit $id --keep 20 >/dev/null &&
	store_sql "INSERT INTO runs (id, task_id, slot, trigger, status, started_at, attempt, arming)
		VALUES ('\''r1'\'', '\''$id'\'', 1, '\''schedule'\'', '\''success'\'', 1, 1, 0)" &&
	TASK_NOW=2027-01-01T00:00:00Z task-log --prune >out &&
	grep -q "^removed 1 run " out &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status = '\''running'\''")" = 1
'

test_expect_success 'shared conversations keep the newest context_messages' '
	config "context_messages = 10" &&
	store_sql "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)
		INSERT INTO messages (context, role, content, created_at)
		SELECT CASE WHEN i <= 25 THEN '\''chat'\'' ELSE '\''short'\'' END,
		CASE WHEN i % 2 = 1 THEN '\''user'\'' ELSE '\''assistant'\'' END, '\''m'\'' || i, i FROM n" &&
	task-log --prune --dry-run >out && grep -q "would remove 0 runs (with 0 model calls), 15 conversation messages" out &&
	task-log --prune >out && grep -q "^removed 0 runs (with 0 model calls), 15 conversation messages" out &&
	store_sql "SELECT content FROM messages WHERE context = '\''chat'\'' ORDER BY id" | tr "\n" " " >actual &&
	printf "m16 m17 m18 m19 m20 m21 m22 m23 m24 m25 " >expect && test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM messages WHERE context = '\''short'\''")" = 5
'

test_expect_success 'model calls made outside runs follow keep' '
	config "keep = 1d" &&
	store_sql "INSERT INTO llm_calls (input_tokens, output_tokens, created_at) VALUES (1, 1, 100), (1, 1, $(date -u -d $TASK_NOW +%s))" &&
	task-log --prune >out &&
	grep -q "and 1 model call made outside runs$" out &&
	test "$(store_sql "SELECT count(*) FROM llm_calls WHERE run_id IS NULL")" = 1
'

test_expect_success 'task-tick passes prune, in batches, taking up where the last stopped' '
	days 3 && config "keep = 1d" "keep_runs = 0" &&
	now=$(date -u -d "@$(($(date -u -d $(end) +%s) + 600))" +%Y-%m-%dT%H:%M:%SZ) &&
	TASK_NOW=$now task-tick >out 2>err && test ! -s out && test ! -s err &&
	n=0 && while [ "$(runs)" != 1430 ] && [ $n -lt 20 ]; do
		TASK_NOW=$now task-tick || return 1; n=$((n + 1))
	done && test "$(runs)" = 1430 &&
	store_sql "SELECT value FROM settings WHERE key = '\''prune_cursor'\''" >actual &&
	echo "0:" >expect && test_cmp expect actual
'

# The idle pass's note would spare the pass at t + 601 (pruning by age is
# at most an hour late on an idle store: task-tick(1)); without it, the
# pass starts the round.
test_expect_success 'a round done, passes within the next 10 minutes only read' '
	config "keep = 2h" "keep_runs = 0" &&
	t=$(($(date -u -d $(end) +%s) + 600)) &&
	TASK_NOW=$(date -u -d "@$t" +%Y-%m-%dT%H:%M:%SZ) task-tick && test "$(runs)" = 1430 &&
	want=$(store_sql "SELECT count(*) FROM runs WHERE started_at >= $((t + 601 - 7200))") &&
	rm -f "$TASK_DB-idle" "$HOME"/.local/state/agentcron/idle-* &&
	TASK_NOW=$(date -u -d "@$((t + 601))" +%Y-%m-%dT%H:%M:%SZ) task-tick &&
	test "$(runs)" = "$want" && test "$want" -lt 120
'

test_expect_success 'a watcher prunes too, when nothing is due' '
	days 3 && config "keep = 1d" "keep_runs = 0" &&
	now=$(date -u -d "@$(($(date -u -d $(end) +%s) + 600))" +%Y-%m-%dT%H:%M:%SZ) &&
	TASK_NOW=$now test_start_ready out err task-tick --watch &&
	{ test_until 900 round_ended $(date -u -d $now +%s) || { cat err; false; }; } &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	cut=$(($(store_sql "SELECT value FROM settings WHERE key = '\''prune_round'\''") - 86400)) &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE started_at < $cut")" = 0 &&
	test "$(store_sql "SELECT min(started_at) FROM runs")" -lt $((cut + 60))
'

test_expect_success 'emptying the trash takes the model calls along; totals keep counting them' '
	reset_store && config "keep = forever" &&
	id=$(task-add --manual --exec true --name gone x) &&
	task-run $id >/dev/null && task-run $id >/dev/null &&
	store_sql "INSERT INTO llm_calls (run_id, task_id, input_tokens, output_tokens, cost, created_at)
		SELECT id, task_id, 7, 3, 0.25, started_at FROM runs" &&
	task-rm $id 2>/dev/null && task-rm --purge >/dev/null 2>&1 &&
	test "$(store_sql "SELECT count(*) FROM llm_calls")" = 0 &&
	test "$(runs)" = 0 &&
	task-status --prometheus >metrics &&
	grep -q "^agentcron_runs_total{status=\"success\"} 2$" metrics &&
	grep -q "^agentcron_tokens_total{direction=\"input\"} 14$" metrics &&
	grep -q "^agentcron_cost_dollars_total 0.500000$" metrics
'

test_expect_success 'SQLite: a new store gives freed space back; an older one after --vacuum' '
	if [ "$AC_STORE" != sqlite ]; then return 0; fi &&
	test "$(sqlite3 "$TASK_DB" "PRAGMA auto_vacuum")" = 2 &&
	cp "$AC_TOP/tests/fixtures/store-v1.db" old.db && chmod 600 old.db &&
	TASK_DB=$PWD/old.db task-log --prune 2>err >/dev/null && test ! -s err &&
	sqlite3 old.db "INSERT INTO messages (context, role, content, created_at)
		VALUES ('\''c'\'', '\''user'\'', '\''a'\'', 1), ('\''c'\'', '\''assistant'\'', '\''b'\'', 2)" &&
	config "context_messages = 1" &&
	TASK_DB=$PWD/old.db task-log --prune 2>err >/dev/null &&
	grep -q "freed space is reused by new runs; the file shrinks only after task-log --prune --vacuum" err &&
	test "$(sqlite3 old.db "PRAGMA auto_vacuum")" = 0 &&
	TASK_DB=$PWD/old.db task-log --prune --vacuum 2>err >/dev/null &&
	grep -q "rewrote the store" err &&
	test "$(sqlite3 old.db "PRAGMA auto_vacuum")" = 2
'

test_expect_success '--prune takes only its own options' '
	test_expect_code 2 task-log --prune --task x 2>err && test_one_line err &&
	test_expect_code 2 task-log --dry-run 2>err && test_one_line err &&
	test_expect_code 2 task-log --prune --dry-run --vacuum 2>err && test_one_line err
'

test_done
