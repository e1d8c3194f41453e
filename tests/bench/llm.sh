#!/bin/sh
# llm-call's own cost per call against the local fake provider (process
# start, config, request, reply parsing, the store record) next to curl(1)
# making the same request, over plain http and over https (a TLS front with
# a throwaway CA that only these clients trust): wall time per call, and CPU time per call
# (user + system of the client alone, from times(1): what the client
# itself spends, whatever the server and the machine's load add).
set -u
: "${AC_BIN:?}" "${AC_BUILD:?}"
N=${LLM_BENCH_N:-200}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX") || exit 1
fp=$tmp/fp
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

tls=$tmp/tls
trap 'kill "$(cat "$fp/pid" 2>/dev/null)" "$(cat "$tls/pid" 2>/dev/null)" 2>/dev/null; rm -rf "$tmp"' EXIT
tport=$("$AC_TOP/tests/tools/tls-front" "$tls" "$port") || exit 1
surl=https://127.0.0.1:$tport/v1

echo "$N sequential calls each, local fake provider on 127.0.0.1 (load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
per_call "llm-call (recorded in the store)" "$AC_BIN/llm-call" "What is cron?" || exit 1
rec_wall=$wall rec_cpu=$cpu
per_call "llm-call --no-log" "$AC_BIN/llm-call" --no-log "What is cron?" || exit 1
nolog_wall=$wall
per_call "llm-call --json" "$AC_BIN/llm-call" --json "What is cron?" || exit 1
per_call "/bin/true (process start alone)" /bin/true || exit 1
CURL_CA_BUNDLE=$tls/ca.pem per_call "llm-call, https (TLS front)" "$AC_BIN/llm-call" \
	--base-url "$surl" "What is cron?" || exit 1
srec_wall=$wall srec_cpu=$cpu
body='{"model":"gpt-4o-mini","messages":[{"role":"user","content":"What is cron?"}]}'
# The key goes in a header file, as llm-call keeps it out of argv.
printf 'Authorization: Bearer %s\n' "$key" >"$tmp/h"
per_call "curl(1), the same request" curl -sS -f -X POST -H @"$tmp/h" \
	-H "Content-Type: application/json" -d "$body" "$url/chat/completions" || exit 1
curl_wall=$wall curl_cpu=$cpu
per_call "curl(1), the same request, https" curl -sS -f --cacert "$tls/ca.pem" -X POST \
	-H @"$tmp/h" -H "Content-Type: application/json" -d "$body" "$surl/chat/completions" || exit 1
scurl_wall=$wall scurl_cpu=$cpu
diff_line "llm-call minus curl, http, wall" $rec_wall $curl_wall
diff_line "llm-call minus curl, http, cpu" $rec_cpu $curl_cpu
diff_line "llm-call --no-log minus curl, wall" $nolog_wall $curl_wall
diff_line "llm-call minus curl, https, wall" $srec_wall $scurl_wall
diff_line "llm-call minus curl, https, cpu" $srec_cpu $scurl_cpu

# The same comparisons with the two clients taking turns, call by call, so
# that the machine's drift between the series above does not count.
# paired LABEL CMD... --vs CMD...: benchrun's figures for each, and the
# median of the differences in microseconds in $paired.
paired() {
	label=$1
	shift
	"$AC_BUILD/tools/benchrun" "$N" "$@" >"$tmp/paired" || { echo "$label: failed" >&2; return 1; }
	echo "$label, taking turns ($N pairs): llm-call, curl(1), difference"
	sed 's/^/  /' "$tmp/paired"
	paired=$(awk '/^first minus second/ { printf "%d\n", $5 * 1000 }' "$tmp/paired")
}
# Both trust the throwaway CA (curl(1) reads the variable too).
export CURL_CA_BUNDLE="$tls/ca.pem"
paired "http" "$AC_BIN/llm-call" "What is cron?" --vs curl -sS -f -X POST -H @"$tmp/h" \
	-H "Content-Type: application/json" -d "$body" "$url/chat/completions" || exit 1
http_us=$paired
paired "https" "$AC_BIN/llm-call" --base-url "$surl" "What is cron?" --vs curl -sS -f -X POST \
	-H @"$tmp/h" -H "Content-Type: application/json" -d "$body" "$surl/chat/completions" || exit 1
https_us=$paired
[ "$http_us" -le 2000 ] && ok=yes || ok=NO
echo "http within 2 ms of curl (paired):    $ok"
[ "$https_us" -le 2000 ] && ok=yes || ok=NO
echo "https within 2 ms of curl (paired):   $ok"

# Connections of one five-round --tools exchange over https, as the
# provider's end counts them (each TLS connection is one to it).
c0=$(cat "$fp/connections") h0=$(cat "$tls/handshakes")
CURL_CA_BUNDLE=$tls/ca.pem "$AC_BIN/llm-call" --no-log --tools --base-url "$surl" \
	'[[call task_list {}]] [[call task_list {}]] [[call task_list {}]] [[call task_list {}]] [[call task_list {}]] go' \
	>/dev/null || exit 1
echo "five-round --tools over https:        $(($(cat "$fp/connections") - c0)) connection, $(($(cat "$tls/handshakes") - h0)) TLS handshake (6 requests)"
# A loaded machine slows every figure alike; the verdicts are printed, not
# enforced, so `make bench` reports rather than fails.
exit 0
