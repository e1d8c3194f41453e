#!/bin/sh
# A partition: host a (in a namespace of its own where unshare can) reaches
# PostgreSQL through a proxy (tests/tools/freeze-proxy) that the test
# freezes for longer than owner_timeout while a's runs go on; host b
# recovers them; after the thaw host c, whose clock (TASK_NOW) is 90 s
# ahead, starts the retries as soon as a's late result is in.  Counted from the executors' own log:
# no task has two executions in flight at any moment (a ends its runs
# before anyone may recover them), and a one-shot whose success arrived
# late, before its retry started, is not run again.
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB
db=$(pg_db_of "$TASK_DB")
mkdir -p "$XDG_CONFIG_HOME/agentcron" px &&
printf "owner_timeout = 6\n" >"$XDG_CONFIG_HOME/agentcron/config" || exit 1
proxy=$("$AC_BUILD/tools/freeze-proxy" -t 900 "$PWD/px/.s.PGSQL.5432" "$AC_PG_DIR/.s.PGSQL.5432") || exit 1
echo "$proxy" >>"$TEST_TMP/.pids"
via_proxy="postgresql:///$db?host=$PWD/px&user=postgres"
LOG=$PWD/log
export LOG

# The executor: logs its start and end (nanoseconds, one clock for all
# hosts), runs as many seconds as its prompt says (1 for a retry).
cat >job <<\EOF
#!/bin/sh
secs=$(cat)
[ "${TASK_ATTEMPT:-1}" -gt 1 ] && secs=1
echo "start $TASK_ID $TASK_ATTEMPT $(date +%s%N)" >>"$LOG"
trap 'echo "end $TASK_ID $TASK_ATTEMPT $(date +%s%N) term" >>"$LOG"; exit 143' TERM
sleep "$secs" &
wait $!
echo "end $TASK_ID $TASK_ATTEMPT $(date +%s%N) ok" >>"$LOG"
EOF
chmod +x job || exit 1

# in_host NAME OUT ERR CMD...: CMD in the background as host NAME (its
# own namespaces where unshare can; it dies with them); its pid in
# host_pid, which SIGKILL ends (unshare ignores SIGTERM).
in_host() {
	in_host_name_=$1 in_host_out_=$2 in_host_err_=$3
	shift 3
	if [ "$AC_UNSHARE" = yes ]; then
		unshare --uts --pid --fork --kill-child --mount-proc \
			sh -c 'hostname "$0" && exec "$@"' "$in_host_name_" "$@" \
			>"$in_host_out_" 2>"$in_host_err_" &
	else
		TASK_HOST_ID=$in_host_name_ "$@" >"$in_host_out_" 2>"$in_host_err_" &
	fi
	host_pid=$!
	echo "$host_pid" >>"$TEST_TMP/.pids"
}

started() { test "$(cat "$LOG" 2>/dev/null | grep -c "^start ")" -ge "$1"; }
running() { test "$(pg_sql "SELECT count(*) FROM runs WHERE status = 'running'")" -eq "$1"; }
noted() { test "$(pg_sql "SELECT count(*) FROM runs WHERE note IS NOT NULL")" -ge "$1"; }
# late_in: a's late result for the one-shot 'late' is recorded.
late_in() {
	test "$(pg_sql "SELECT count(*) FROM runs r JOIN tasks t ON t.id = r.task_id
		WHERE t.name = 'late' AND r.note IS NOT NULL")" -ge 1
}
recovered() {
	test "$(pg_sql "SELECT count(*) FROM runs WHERE error LIKE '%stopped showing signs of life%'")" -ge "$1"
}

# overlaps: per task, pairs of executions whose [start, end] intersect
# (an execution that never logged its end runs to the end of the log).
overlaps() {
	awk '$1 == "start" { n[$2]++; s[$2, n[$2]] = $4; a[$2, n[$2]] = $3 }
	$1 == "end" { for (i = 1; i <= n[$2]; i++) if (a[$2, i] == $3 && !((($2, i) in e))) { e[$2, i] = $4; break } }
	{ last = $4 }
	END {
		c = 0
		for (k in n) for (i = 1; i <= n[k]; i++) for (j = i + 1; j <= n[k]; j++) {
			ei = ((k, i) in e) ? e[k, i] : last; ej = ((k, j) in e) ? e[k, j] : last
			if (s[k, i] < ej && s[k, j] < ei) c++
		}
		print c
	}' "$LOG"
}

test_expect_success 'a frozen for 14 s (owner_timeout 6): its runs ended, recovered, retried; never two at once' '
	for i in 1 2 3 4; do
		TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/job" --force --name long$i 20 >/dev/null || return 1
	done &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/job" --force --name late 3 >/dev/null &&
	in_host a a.out a.err env TASK_DB="$via_proxy" task-tick --watch -j 5 &&
	a=$host_pid &&
	{ test_until 30 started 5 || { cat a.err; false; }; } &&
	kill -USR1 "$proxy" && frozen_at=$(date +%s) &&
	in_host b b.out b.err task-tick --watch &&
	b=$host_pid &&
	test_until 40 recovered 5 &&
	# b has done its part: left running, it would start the retry it armed
	# for late 30 s after recovering it, before a slow thaw brings the
	# late result of a in.
	kill -KILL "$b" && { wait "$b" 2>/dev/null || :; } &&
	thaw_in=$((frozen_at + 14 - $(date +%s))) &&
	if [ "$thaw_in" -gt 0 ]; then sleep "$thaw_in"; fi &&
	kill -USR2 "$proxy" &&
	test_until 60 late_in &&
	in_host c c.out c.err env TASK_NOW=$(date -u -d "@$(($(date +%s) + 90))" +%Y-%m-%dT%H:%M:%SZ) task-tick --watch &&
	c=$host_pid &&
	# The four retries, each by a (its clock at recovery + 30 s) or c.
	test_until 90 sh -c "test \"\$(cat a.out c.out | grep -c '\''\"status\":\"success\"'\'')\" -ge 4" &&
	test_until 60 noted 5 &&
	kill -KILL "$a" "$c" && { wait "$a" "$c" 2>/dev/null || :; } &&
	echo "figures: $(grep -c "^start " log) executions for 5 occurrences; overlaps: $(overlaps)" &&
	echo 0 >expect && overlaps >actual && test_cmp expect actual &&
	grep "^start " log | cut -d" " -f2 | sort | uniq -c | awk "{print \$1}" | sort | uniq -c | tr -s " " >actual &&
	printf " 1 1\n 4 2\n" >expect && test_cmp expect actual &&
	{ grep -q "the store has not taken a sign of life from this process for [0-9]* s; ending its 4 runs" a.err || { cat a.err; false; }; }
'

test_expect_success 'the late success completed its task; the retry armed at recovery did not run' '
	pg_sql "SELECT t.status, r.status, r.note LIKE '\''late result, after the run had been recovered: success %; it completed the occurrence, and the retry armed at recovery was cancelled%'\''
		FROM tasks t JOIN runs r ON r.task_id = t.id WHERE t.name = '\''late'\''" >actual &&
	echo "completed|interrupted|t" >expect && test_cmp expect actual &&
	pg_sql "SELECT count(*) FROM runs r JOIN tasks t ON t.id = r.task_id WHERE t.name LIKE '\''long%'\'' AND r.status = '\''interrupted'\''
		AND r.note LIKE '\''%: interrupted at %before others could recover it%'\''" >actual &&
	echo 4 >expect && test_cmp expect actual &&
	pg_sql "SELECT status, count(*) FROM tasks GROUP BY status" >actual &&
	echo "completed|5" >expect && test_cmp expect actual
'

test_expect_success 'with no other host to recover them, a records its ended runs itself when back' '
	TASK_DB=$(pg_new_db) && db=$(pg_db_of "$TASK_DB") &&
	via_proxy="postgresql:///$db?host=$PWD/px&user=postgres" && rm -f log &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec "$PWD/job" --name alone 20 >/dev/null &&
	in_host a a.out a.err env TASK_DB="$via_proxy" task-tick --watch &&
	a=$host_pid &&
	test_until 30 started 1 &&
	kill -USR1 "$proxy" &&
	test_until 30 sh -c "grep -q \"^end .* term\$\" log" &&
	kill -USR2 "$proxy" &&
	test_until 30 sh -c "grep -q \"\\\"status\\\":\\\"interrupted\\\"\" a.out" &&
	kill -KILL "$a" && { wait "$a" 2>/dev/null || :; } &&
	pg_sql "SELECT status, note IS NULL, error LIKE '\''ended on this host, whose sign of life the store had not taken for 4 s%'\'' FROM runs" >actual &&
	echo "interrupted|t|t" >expect && test_cmp expect actual &&
	pg_sql "SELECT status, consecutive_failures, next_run_at IS NOT NULL FROM tasks" >actual &&
	echo "pending|1|t" >expect && test_cmp expect actual
'

test_done
