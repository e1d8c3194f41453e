#!/bin/sh
# task-when --simulate: a week of 10,000 tasks (tests/tools/mkstore's mix:
# cron in four zones, an eighth of them every 5 minutes, one-shots, plans,
# manual), beside task-ls --json reading the same tasks.  Target: under a
# second.  BENCH_SIMULATE_TASKS chooses the size.
set -eu
: "${AC_BIN:?run through make bench}" "${AC_BUILD:?}" "${AC_TOP:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" TZ=UTC TASK_NOW=2026-11-23T07:00:00Z
export TASK_DB="$tmp/tasks.db" PATH="$AC_BIN:$PATH"
n=${BENCH_SIMULATE_TASKS:-10000}
"$AC_BUILD/tools/mkstore" "$TASK_DB" "$n" 0 >/dev/null
echo "simulate: $n tasks, 7 days"
task-when --simulate --json >"$tmp/sim.json"
sed -n 's/.*"tasks":\([0-9]*\),"fires":\([0-9]*\),.*/  \1 tasks fire \2 times/p' "$tmp/sim.json"
"$AC_BUILD/tools/benchrun" 5 sh -c 'task-when --simulate --json >/dev/null' \
	--vs sh -c 'task-ls --json >/dev/null'
