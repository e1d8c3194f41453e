#!/bin/sh
# An idle pass on PostgreSQL sends three statements: the store's opening
# (its clock, its schema), one look (the server's standbys and durability,
# runs in flight, the pause, the next due task) and the record of the pass
# (with pruning's settings and deliveries): in a new session each
# statement and each relation touched costs its first plan, and the pass
# paid more for those than for its reads.  The next pass from cron, while
# nothing was written since, sends one: its record (the note it left,
# tests/1189); when something was, that record first, then the rest on
# the same connection, the record's reads ahead without a second record.
# The statements from the server's log (log_statement, on a
# server of this file's own).
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z TASK_HOST_ID=alpha
pg_own_server || exit 1

# statements: a pass, then the first 40 characters of each statement the
# server was sent meanwhile, one a line.  full: the same without the
# note, so that the pass reads the store.
statements() {
	own_sent task-tick "$@" >sent.log &&
	cut -c 1-40 sent.log
}
full() {
	rm -f "$HOME"/.local/state/agentcron/idle-* &&
	statements
}

cat >idle <<'EOF'
SELECT (extract(epoch FROM clock_timesta
SELECT (SELECT count(*) FROM pg_stat_get
WITH quiet AS (SELECT set_config('synchr
EOF
sed '2s/.*/SELECT EXISTS (SELECT 1 FROM tasks WHERE/' idle >quiet

test_expect_success 'an idle pass: the opening, one look, the record of the pass' '
	task-add --cron "0 8 * * *" --name later "Summarise" >/dev/null &&
	own_sql "ALTER DATABASE agentcron SET log_statement = '\''all'\''" &&
	task-tick >/dev/null &&
	full >actual &&
	test_cmp idle actual
'

test_expect_success 'the next pass from cron: its record alone' '
	statements >actual &&
	sed -n 3p idle >expect &&
	test_cmp expect actual
'

test_expect_success 'the same with the warnings said today: the look without them' '
	mkdir -p "$HOME/.local/state/agentcron" &&
	for s in replication durability; do
		date -u +%Y-%m-%d >"$HOME/.local/state/agentcron/said-$s-alpha" || return 1
	done &&
	full >actual &&
	test_cmp quiet actual
'

test_expect_success 'a write since the note: its record first, then the rest reading ahead alone, on one connection' '
	own_sql "SELECT txid_current()" >/dev/null &&
	off=$(wc -c <"$PGSRV/log") &&
	statements >actual &&
	{ sed -n 3p idle && sed -n 1,2p quiet && echo "SELECT 1, (SELECT value FROM settings WH"; } >expect &&
	test_cmp expect actual &&
	tail -c +$((off + 1)) "$PGSRV/log" | grep -E "LOG:  (statement|execute)" |
		sed -E "s/^[^[]*\[([0-9]+)\].*/\1/" | sort -u >pids &&
	test "$(wc -l <pids)" = 1 &&
	grep -qx "[0-9][0-9]*" pids
'

test_expect_success 'a pass with a run in flight reads the runs too, and recovers a dead one' '
	id=$(task-add --at 2026-11-23T07:30:00Z --name once "Remind me") &&
	own_sql "INSERT INTO runs (id, task_id, slot, trigger, status, started_at, owner_id, owner_host,
		owner_pid, owner_start) VALUES ('\''r1'\'', '\''$id'\'', 1795417200, '\''manual'\'', '\''running'\'',
		1795417200, '\''gone'\'', '\''alpha'\'', 999999, 1)" &&
	own_sql "UPDATE tasks SET run_in_flight = '\''r1'\'', status = '\''running'\'' WHERE id = '\''$id'\''" &&
	statements >actual 2>err &&
	grep -q "^SELECT runs.id, runs.task_id" actual &&
	grep -q "task .once. .* interrupted: the process running it (pid 999999 on alpha)" err &&
	test "$(own_sql "SELECT status FROM runs WHERE id = '\''r1'\''")" = interrupted &&
	test -z "$(own_sql "SELECT run_in_flight FROM tasks WHERE id = '\''$id'\''")" &&
	full >actual &&
	test_cmp quiet actual
'

test_done
