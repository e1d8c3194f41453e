#!/bin/sh
# Inputs that wait for one task (events queued with task-run --payload
# --queue, an upstream's answers from a backfill) are run by one pass of
# task-tick, each once and in order, not one a pass (cron's one a minute).
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-11-23T09:30:00Z
export TASK_NOW

run_logger --input || exit 1

test_expect_success 'three events queued: one pass runs the three, in order' '
	task-add --manual --name hook --exec "$PWD/ex" h >/dev/null &&
	for n in 1 2 3; do
		task-run --queue --key "k$n" --payload "{\"n\":$n}" hook >/dev/null || return 1
	done &&
	task-tick >out 2>err &&
	cat >expect <<-\EOT &&
	hook event 2026-11-23T09:30:00Z <h||{"n":1}>
	hook event 2026-11-23T09:30:00Z <h||{"n":2}>
	hook event 2026-11-23T09:30:00Z <h||{"n":3}>
	EOT
	test_cmp expect log &&
	test "$(wc -l <out)" = 3 &&
	task-tick >out 2>err && test ! -s out
'

test_expect_success 'a backfill of four slots: one pass runs the follower four times, each its answer' '
	rm -f log &&
	TASK_NOW=2026-11-23T05:00:00Z task-add --cron "0 * * * *" --name up --exec "$PWD/ex" u >/dev/null &&
	TASK_NOW=2026-11-23T05:00:00Z task-add --after up --name down --exec "$PWD/ex" d >/dev/null &&
	task-run --backfill 2026-11-23T06:00:00Z..2026-11-23T09:00:00Z up >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T09:31:00Z task-tick >/dev/null 2>&1 &&
	grep "^down " log >actual &&
	cat >expect <<-\EOT &&
	down after 2026-11-23T06:00:00Z <d||answer of up at 2026-11-23T06:00:00Z|>
	down after 2026-11-23T07:00:00Z <d||answer of up at 2026-11-23T07:00:00Z|>
	down after 2026-11-23T08:00:00Z <d||answer of up at 2026-11-23T08:00:00Z|>
	down after 2026-11-23T09:00:00Z <d||answer of up at 2026-11-23T09:00:00Z|>
	EOT
	test_cmp expect actual &&
	store_sql "SELECT count(*) FROM run_inputs WHERE run_id IS NULL OR run_id = '\'''\''" >actual &&
	echo 0 >expect && test_cmp expect actual
'

test_done
