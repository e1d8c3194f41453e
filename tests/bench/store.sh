#!/bin/sh
# Store figures: a 100,000-task import, listing and showing on a store of
# 1,000,000 tasks, and the bytes each task takes.  Prints figures only.
set -eu
dir=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export TASK_NOW=2026-11-22T10:00:00Z TZ=UTC

# gen N: N tasks as JSON lines, a mix of cron, one-shot and manual.
gen() { "$AC_TOP/tests/tools/gen-tasks" "$1"; }

ms() { date +%s%N; }

# median MS of running "$@" 21 times, in milliseconds with one decimal.
median_ms() {
	i=0
	while [ $i -lt 21 ]; do
		t0=$(ms); "$@" >/dev/null 2>&1; t1=$(ms)
		echo $(( (t1 - t0) / 1000 ))
		i=$((i + 1))
	done | sort -n | sed -n 11p | awk '{ printf("%.1f", $1 / 1000) }'
}

gen 100000 >"$dir/100k.jsonl"
t0=$(ms)
TASK_DB=$dir/100k.db task-add --json - <"$dir/100k.jsonl" >/dev/null
t1=$(ms)
echo "import 100,000 tasks (task-add --json -): $(( (t1 - t0) / 1000000 )) ms (target < 2000 ms)"

gen 1000000 >"$dir/1m.jsonl"
t0=$(ms)
TASK_DB=$dir/1m.db task-add --json - <"$dir/1m.jsonl" >/dev/null
t1=$(ms)
echo "import 1,000,000 tasks: $(( (t1 - t0) / 1000000 )) ms"
export TASK_DB=$dir/1m.db
id=$(task-ls --kind manual --limit 1 | cut -f1)
echo "task-ls --json --limit 20 on 1,000,000 tasks: $(median_ms task-ls --json --limit 20) ms median of 21 (target < 10 ms)"
echo "task-show ID on 1,000,000 tasks: $(median_ms task-show "$id") ms median of 21 (target < 10 ms)"
echo "task-show PREFIX on 1,000,000 tasks: $(median_ms task-show "$(echo "$id" | cut -c1-6)") ms median of 21"
echo "task-ls --status failed --limit 20 (no match) on 1,000,000 tasks: $(median_ms task-ls --status failed --limit 20) ms median of 21"
echo "task-ls --status pending,failed --limit 20 on 1,000,000 tasks: $(median_ms task-ls --status pending,failed --limit 20) ms median of 21"
sqlite3 "$TASK_DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
size=$(stat -c %s "$TASK_DB")
echo "store size: $size bytes for 1,000,000 tasks = $((size / 1000000)) bytes per task"
