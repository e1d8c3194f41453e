#!/bin/sh
# task-mcp figures: the tools/call round trip, as an MCP client sees it, on a
# store of 100,000 tasks.  Target: task_list (limit 20) under 1 ms median;
# the verdict is printed (a loaded machine slows every figure alike).
set -eu
dir=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export TASK_NOW=2026-11-22T10:00:00Z TZ=UTC TASK_DB=$dir/tasks.db
bench=$AC_BUILD/tools/mcp-bench

# 100,000 tasks: a mix of cron in two zones, one-shot and manual.
awk 'BEGIN {
	for (i = 0; i < 100000; i++) {
		k = i % 4
		if (k == 0) s = sprintf("\"cron\":\"%d %d * * *\",\"tz\":\"Europe/London\"", i % 60, i % 24)
		else if (k == 1) s = sprintf("\"cron\":\"*/%d * * * 1-5\"", i % 30 + 1)
		else if (k == 2) s = sprintf("\"at\":\"2027-%02d-%02dT%02d:%02d:00Z\"", i % 12 + 1, i % 28 + 1, i % 24, i % 60)
		else s = "\"kind\":\"manual\""
		printf("{\"name\":\"bench task %d\",\"prompt\":\"Summarise item %d of the daily report.\",%s}\n", i, i, s)
	}
}' | task-add --json - >/dev/null

# run LABEL CALLS TOOL ARGS: the round trip's figures.
run() {
	label=$1 n=$2
	shift 2
	set -- $("$bench" "$n" "$@" task-mcp -p all)
	printf "%s: median %s ms, p90 %s ms, p99 %s ms (%s calls)\n" "$label" "$2" "$4" "$6" "$n"
	median=$2
}

run "tools/call task_list (limit 20), 100,000 tasks" 2000 task_list '{"limit":20}'
list=$median
# Few rows match, so the store reads every task to find them.
run "tools/call task_list, pending cron tasks due within 60 min" 100 task_list \
	'{"status":"pending","kind":"cron","due_within":60,"limit":20}'
run "tools/call scheduler.list (toolpack, limit 10)" 2000 scheduler.list '{}'
run "tools/call task_show" 2000 task_show "{\"id\":\"$(task-ls --json --limit 1 | sed 's/^{"id":"\([^"]*\)".*/\1/')\"}"
awk -v m="$list" 'BEGIN { printf("task_list target < 1 ms median: %s\n", m < 1.0 ? "met" : "MISSED") }'
