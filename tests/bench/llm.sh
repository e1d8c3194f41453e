#!/bin/sh
# llm-call's own cost per call against the local fake provider (process
# start, config, request, reply parsing, the store record) next to curl(1)
# making the same HTTP request: wall time per call, and CPU time per call
# (user + system of the client alone, from times(1): what the client
# itself spends, whatever the server and the machine's load add).
set -u
: "${AC_BIN:?}" "${AC_BUILD:?}"
N=${LLM_BENCH_N:-200}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX") || exit 1
fp=$tmp/fp
trap 'kill "$(cat "$fp/pid" 2>/dev/null)" 2>/dev/null; rm -rf "$tmp"' EXIT
key=sk-bench-0123456789
port=$(FAKE_PROVIDER_KEY=$key "$AC_BUILD/tools/fake-provider" -q -d "$fp" -i 60 -t 600) || exit 1
url=http://127.0.0.1:$port/v1
export HOME=$tmp XDG_CONFIG_HOME=$tmp/config TASK_DB=$tmp/tasks.db OPENAI_API_KEY=$key \
  OPENAI_BASE_URL=$url
unset TASK_CONTEXT TASK_MODEL TASK_SYSTEM_PROMPT TASK_ATTACHMENTS ANTHROPIC_API_KEY

now_us() { echo $(($(date +%s%N) / 1000)); }
# Children's user + system time in a times(1) output file, in microseconds
# (times runs in this shell: in a subshell it would see no children).
cpu_us() { awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%d\n", t * 1000000 }' "$1"; }
ms() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }
# per_call LABEL CMD...: run CMD N times; sets wall and cpu (us per call).
per_call() {
	label=$1
	shift
	"$@" >/dev/null 2>&1 || { echo "$label: failed: $*" >&2; return 1; }
	times >"$tmp/times0"
	t0=$(now_us)
	i=0
	while [ $i -lt "$N" ]; do
		"$@" >/dev/null 2>&1 || { echo "$label: failed" >&2; return 1; }
		i=$((i + 1))
	done
	t1=$(now_us)
	times >"$tmp/times1"
	c0=$(cpu_us "$tmp/times0") c1=$(cpu_us "$tmp/times1")
	wall=$(((t1 - t0) / N))
	cpu=$(((c1 - c0) / N))
	printf '%-36s %8s ms wall %8s ms cpu\n' "$label" "$(ms $wall)" "$(ms $cpu)"
}
diff_line() {
	d=$(($2 - $3))
	sign=
	[ $d -lt 0 ] && { sign=-; d=$((-d)); }
	printf '%-36s %s%s ms\n' "$1" "$sign" "$(ms $d)"
}

echo "$N sequential calls each, local fake provider on 127.0.0.1 (load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
per_call "llm-call (recorded in the store)" "$AC_BIN/llm-call" "What is cron?" || exit 1
rec_wall=$wall rec_cpu=$cpu
per_call "llm-call --no-log" "$AC_BIN/llm-call" --no-log "What is cron?" || exit 1
nolog_wall=$wall
per_call "llm-call --json" "$AC_BIN/llm-call" --json "What is cron?" || exit 1
per_call "/bin/true (process start alone)" /bin/true || exit 1
status=0
if command -v curl >/dev/null 2>&1; then
	body='{"model":"gpt-4o-mini","messages":[{"role":"user","content":"What is cron?"}]}'
	# The key goes in a header file, as llm-call keeps it out of argv.
	printf 'Authorization: Bearer %s\n' "$key" >"$tmp/h"
	per_call "curl(1), the same request" curl -sS -f -X POST -H @"$tmp/h" \
		-H "Content-Type: application/json" -d "$body" "$url/chat/completions" || exit 1
	diff_line "llm-call minus curl, wall" $rec_wall $wall
	diff_line "llm-call minus curl, cpu" $rec_cpu $cpu
	diff_line "llm-call --no-log minus curl, wall" $nolog_wall $wall
	[ $((rec_wall - wall)) -le 2000 ] && ok=yes || ok=NO
	echo "within 2 ms of curl:                 $ok"
else
	echo "curl(1) is absent: no comparison (apt-get install curl)"
fi
[ "$rec_wall" -lt 5000 ] && ok=yes || ok=NO
# A loaded machine slows every figure alike; the verdicts are printed, not
# enforced, so `make bench` reports rather than fails.
echo "under 5 ms per call:                 $ok"
exit $status
