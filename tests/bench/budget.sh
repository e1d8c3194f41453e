#!/bin/sh
# What a global budget (the config's `budget`) costs a pass, for `make
# bench`: one `task-tick -j 8` pass over BENCH_BUDGET_JOBS (1,000) due
# one-shots whose executor is /bin/true, with and without a budget, in
# turns (BENCH_BUDGET_RUNS, 11, each), on a store that holds a day of
# 5,000 model calls (what the budget reads).  The cost a run is the
# median of the pairs' differences of task-tick's own CPU time (each pair
# run back to back, so a machine whose speed drifts during the bench
# slows both), over the jobs; the difference of the medians is beside it.
# Target: 0.03 ms a run at most (what all tasks spent is read once per
# claim, not once per run).
set -eu
: "${AC_BIN:?run through make bench}" "${AC_BUILD:?}" "${AC_TOP:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" TZ=UTC TASK_HOST_ID=bench
unset TASK_EXEC TASK_NOTIFY XDG_CONFIG_HOME
export TASK_NOW=2026-11-23T07:00:00Z
now=$(date -u -d "$TASK_NOW" +%s)
benchrun=$AC_BUILD/tools/benchrun
jobs=${BENCH_BUDGET_JOBS:-1000}
n=${BENCH_BUDGET_RUNS:-11}

"$AC_BUILD/tools/mkstore" "$tmp/base.db" "$jobs" "$jobs"
sqlite3 "$tmp/base.db" "WITH RECURSIVE g(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM g WHERE k < 5000)
	INSERT INTO llm_calls (task_id, model, input_tokens, output_tokens, created_at, cost)
	SELECT (SELECT id FROM tasks LIMIT 1), 'm', 1000, 200, $now - k * 17, 0.001 FROM g"
mkdir -p "$tmp/none/agentcron" "$tmp/budget/agentcron"
: >"$tmp/none/agentcron/config"
echo 'budget = $1000/day' >"$tmp/budget/agentcron/config"
# pass CONFIG_DIR: a fresh copy of the store, then the pass.
cat >"$tmp/pass" <<'EOF'
cp "$1/../base.db" "$1/../pass.db" && rm -f "$1/../pass.db-wal" "$1/../pass.db-shm" &&
XDG_CONFIG_HOME=$1 TASK_DB=$1/../pass.db exec "$2" -j 8
EOF
"$benchrun" "$n" sh "$tmp/pass" "$tmp/budget" "$AC_BIN/task-tick" \
	--vs sh "$tmp/pass" "$tmp/none" "$AC_BIN/task-tick" >"$tmp/pair"
ran=$(sqlite3 "$tmp/pass.db" "SELECT count(*) FROM runs WHERE status = 'success'")
[ "$ran" -eq "$jobs" ] || { echo "budget: $ran runs of $jobs" >&2; exit 1; }
# task-tick's own CPU (not its executors'): what the budget adds is there,
# and starting 1,000 processes varies more than it on a busy machine.
awk -v j="$jobs" '
	NR == 1 { a = $5; sa = $17 } NR == 2 { b = $5; sb = $17 } NR == 3 { d = $8 }
	END { printf "global budget: a pass of %d runs of /bin/true, -j 8: task-tick'"'"'s own cpu %.1f ms with it, %.1f ms without: %.3f ms a run (target 0.03: %s; difference of the medians %.3f ms); wall %.0f against %.0f ms\n",
	    j, sa, sb, d / j, d / j <= 0.03 ? "met" : "NOT MET", (sa - sb) / j, a, b }' "$tmp/pair"
