#!/bin/sh
# llm-call's own cost per call against the local fake provider: process
# start, config, request, reply parsing and the store record; next to
# curl(1) making the same HTTP request.  Prints milliseconds per call.
set -u
: "${AC_BIN:?}" "${AC_BUILD:?}"
N=${LLM_BENCH_N:-200}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX") || exit 1
fp=$tmp/fp
trap 'kill "$(cat "$fp/pid" 2>/dev/null)" 2>/dev/null; rm -rf "$tmp"' EXIT
key=sk-bench-0123456789
port=$(FAKE_PROVIDER_KEY=$key "$AC_BUILD/tools/fake-provider" -d "$fp" -i 60 -t 600) || exit 1
url=http://127.0.0.1:$port/v1
export HOME=$tmp XDG_CONFIG_HOME=$tmp/config TASK_DB=$tmp/tasks.db OPENAI_API_KEY=$key \
  OPENAI_BASE_URL=$url
unset TASK_CONTEXT TASK_MODEL TASK_SYSTEM_PROMPT TASK_ATTACHMENTS ANTHROPIC_API_KEY

now_us() { echo $(($(date +%s%N) / 1000)); }
# per_call LABEL CMD...: run CMD N times, print the mean in ms.
per_call() {
	label=$1
	shift
	"$@" >/dev/null 2>&1 || { echo "$label: failed: $*" >&2; return 1; }
	t0=$(now_us)
	i=0
	while [ $i -lt "$N" ]; do
		"$@" >/dev/null 2>&1 || { echo "$label: failed" >&2; return 1; }
		i=$((i + 1))
	done
	t1=$(now_us)
	us=$(((t1 - t0) / N))
	printf '%-44s %d.%03d ms\n' "$label" $((us / 1000)) $((us % 1000))
	eval "us_$2=$us" 2>/dev/null || :
	last=$us
}

echo "$N sequential calls each, local fake provider on 127.0.0.1"
per_call "llm-call (recorded in the store)" "$AC_BIN/llm-call" "What is cron?" || exit 1
rec=$last
per_call "llm-call --no-log" "$AC_BIN/llm-call" --no-log "What is cron?" || exit 1
nolog=$last
per_call "llm-call --json" "$AC_BIN/llm-call" --json "What is cron?" || exit 1
if command -v curl >/dev/null 2>&1; then
	body='{"model":"gpt-4o-mini","messages":[{"role":"user","content":"What is cron?"}]}'
	# The key goes in a header file, as llm-call keeps it out of argv.
	printf 'Authorization: Bearer %s\n' "$key" >"$tmp/h"
	per_call "curl(1), the same request" curl -sS -f -X POST -H @"$tmp/h" \
		-H "Content-Type: application/json" -d "$body" "$url/chat/completions" || exit 1
	c=$last
	d=$((rec - c))
	sign=; [ $d -lt 0 ] && { sign=-; d=$((-d)); }
	printf '%-44s %s%d.%03d ms\n' "llm-call minus curl" "$sign" $((d / 1000)) $((d % 1000))
	d=$((nolog - c))
	sign=; [ $d -lt 0 ] && { sign=-; d=$((-d)); }
	printf '%-44s %s%d.%03d ms\n' "llm-call --no-log minus curl" "$sign" $((d / 1000)) $((d % 1000))
else
	echo "curl(1) is absent: no comparison (apt-get install curl)"
fi
[ "$rec" -lt 5000 ] || { echo "over the 5 ms budget" >&2; exit 1; }
