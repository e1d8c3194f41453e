#!/bin/sh
# A run's input (an event's payload, an upstream's answer) goes with its
# run: task-log --prune deletes it in the run's batch, task-rm --purge with
# its task.  An input still waiting for its run is kept by a prune.
. "$AC_TOP/tests/lib.sh"
mkdir -p "$XDG_CONFIG_HOME/agentcron"
echo "keep = 1d" >"$XDG_CONFIG_HOME/agentcron/config"

# events T FROM TO: events FROM..TO queued and run at T.
events() {
	n=$2
	while test $n -le $3
	do
		TASK_NOW=$1 task-run --queue --key "k$n" --payload "{\"n\":$n}" hook >/dev/null || return 1
		n=$((n + 1))
	done &&
	TASK_NOW=$1 task-tick >/dev/null 2>&1
}
counts() {
	store_sql "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM run_inputs),
		(SELECT count(*) FROM run_inputs WHERE run_id IS NULL),
		(SELECT count(*) FROM run_inputs WHERE run_id IS NOT NULL
			AND run_id NOT IN (SELECT id FROM runs))"
}

test_expect_success '30 events run over two hours, one waits' '
	task-add --manual --name hook --exec cat "got {{input}}" >/dev/null &&
	events 2026-11-20T10:00:00Z 1 10 &&
	events 2026-11-20T11:00:00Z 11 20 &&
	events 2026-11-20T12:00:00Z 21 30 &&
	TASK_NOW=2026-11-23T10:00:00Z task-run --queue --key k31 --payload "{\"n\":31}" hook \
		>/dev/null &&
	counts | tr "|\t" "  " >actual &&
	echo "30 31 1 0" >expect && test_cmp expect actual
'

test_expect_success 'keep = 1d: the 10 runs past it go with their inputs; the waiting one stays' '
	TASK_NOW=2026-11-23T10:00:00Z task-log --prune >out 2>err &&
	counts | tr "|\t" "  " >actual &&
	echo "20 21 1 0" >expect && test_cmp expect actual &&
	store_sql "SELECT input FROM run_inputs WHERE run_id IS NULL" >actual &&
	echo "{\"n\":31}" >expect && test_cmp expect actual
'

test_expect_success 'task-rm --purge: a purged task leaves no input' '
	task-add --manual --name other --exec cat "other {{input}}" >/dev/null &&
	TASK_NOW=2026-11-23T10:00:00Z task-run --queue --key o1 --payload "{}" other >/dev/null &&
	task-rm hook >/dev/null 2>&1 &&
	task-rm --purge >/dev/null 2>&1 &&
	counts | tr "|\t" "  " >actual &&
	echo "0 1 1 0" >expect && test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM run_inputs WHERE task_id IN
		(SELECT id FROM tasks WHERE name = '\''other'\'')")" = 1
'

test_done
