#!/bin/sh
# llm-call as an MCP client: one tool round trip over stdio to task-mcp
# (tools/call sent, answered, mapped for the model; the model's own time
# left out), as llm-call records it for 100 calls in one run, and the
# server's start-up (spawn and initialize) over 20 runs.
# Target: round trip under 1 ms median; the verdict is printed.
set -u
: "${AC_BIN:?}" "${AC_BUILD:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX") || exit 1
fp=$tmp/fp
trap 'kill "$(cat "$fp/pid" 2>/dev/null)" 2>/dev/null; rm -rf "$tmp"' EXIT
port=$("$AC_BUILD/tools/fake-provider" -q -d "$fp" -i 60 -t 600) || exit 1
export HOME=$tmp XDG_CONFIG_HOME=$tmp/config TASK_DB=$tmp/tasks.db TZ=UTC \
  OPENAI_BASE_URL=http://127.0.0.1:$port/v1 TASK_NOW=2026-11-22T10:00:00Z
unset OPENAI_API_KEY ANTHROPIC_API_KEY TASK_MCP TASK_MCP_ALLOW TASK_CONTEXT TASK_MODEL
mkdir -p "$XDG_CONFIG_HOME/agentcron"
printf '{"mcpServers": {"agentcron": {"command": "%s/task-mcp"}}}\n' "$AC_BIN" \
	>"$XDG_CONFIG_HOME/agentcron/mcp.json"
chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json"
for i in 1 2 3 4 5; do "$AC_BIN/task-add" --daily "0$i:00" "Task $i" >/dev/null || exit 1; done

median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# [[loop]]: the model calls the one tool offered every round, 100 times.
"$AC_BIN/llm-call" --mcp agentcron --mcp-allow mcp__agentcron__task_list --max-rounds 100 \
	'[[loop]] list them' >/dev/null 2>&1
sqlite3 "$TASK_DB" "SELECT tool_calls FROM llm_calls ORDER BY id DESC LIMIT 1" |
	grep -o '"duration_ms":[0-9.]*' | cut -d: -f2 >"$tmp/rt"
n=$(wc -l <"$tmp/rt")
rt=$(median <"$tmp/rt")
echo "MCP tool round trip (task_list over stdio, $n calls): median $rt ms"
i=0
while [ $i -lt 20 ]; do
	"$AC_BIN/llm-call" --json --no-log --mcp agentcron hi |
		sed -n 's/.*"startup_ms":\([0-9.]*\).*/\1/p'
	i=$((i + 1))
done >"$tmp/su"
echo "MCP server start-up (task-mcp: spawn and initialize, 20 runs): median $(median <"$tmp/su") ms"
awk -v m="$rt" 'BEGIN { exit !(m < 1) }' && ok=yes || ok=NO
echo "round trip under 1 ms median:        $ok"
exit 0
