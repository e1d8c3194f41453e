#!/bin/sh
# The burst: BURST_JOBS (10,000) one-shots due at one instant, side by side
# on one throwaway PostgreSQL server with its durable defaults (fsync on),
# over a Unix socket:
#   agentcron:       1, 2 and 4 `task-tick --watch -j 8` processes;
#   graphile-worker: 4 worker processes, concurrency 8 each;
#   pg-boss:         4 worker processes, 8 jobs at once each
# (tests/bench/burst-npm/queue.mjs says how the node queues are set up; they
# are installed from npm into build/bench-npm by this script, once).  Every
# job runs tests/tools/burst-job, which appends its name and the clock to
# one log and becomes /bin/true: what ran, how often and when is read from
# that log, never from a scheduler's own tables.  Each row gets its own
# database, dropped after it (vacuuming it is not the next row's CPU); its
# workers start and wait, the jobs are added due a few seconds on, the
# server checkpoints, and the clocks start at the instant.
#   drain:      the instant to the moment the scheduler has every job done
#               (polled every 20 ms once the log is complete);
#   late:       a job's start minus the instant, p50 and p99;
#   server CPU: user+system time of every server process (the postmaster,
#               its children, and the children that ended: /proc's cutime),
#               from the instant to the drain, per job;
#   WAL, syncs: bytes of WAL, and WAL syncs to disk, per job (server-wide);
#   client CPU: the workers' own user+system time per job (not their jobs');
#   twice:      jobs the log has more than once (must be 0).
# Beside the 4-vs-1 target: the same jobs with no scheduler (xargs, as many
# at once as the most tickers run), below which no drain can go here.
# Then on SQLite: BURST_JOBS due at once run by one `task-tick -j 8` pass
# against `xargs -P 8` starting as many /bin/true; and a 100,000-line
# import.  The targets are printed beside the figures: ratios within this
# one run, and the WAL per job at the most tickers (at most 1.5 KB).  Each row is 10,000 jobs started twice over (the job, then
# /bin/true): on two cores a row takes half a minute or more, so the node
# queues run at 4 workers only, which is what the targets compare;
# BURST_QUEUE_PROCS="1 2 4" adds their other rows (about five minutes
# more).  BURST_PROCS (agentcron's, "1 2 4"), BURST_JOBS and BURST_TIMEOUT
# (seconds a row may take, 120) and BURST_BIG (the due tasks of the
# fired-set check, 100,000) bound the run too.  Without node and npm,
# or without the npm registry, the node queues' rows are skipped and said
# so.
set -eu
njobs=${BURST_JOBS:-10000}
procs=${BURST_PROCS:-1 2 4}
queue_procs=${BURST_QUEUE_PROCS:-4}
row_timeout=${BURST_TIMEOUT:-120}
npmdir=$AC_TOP/build/bench-npm
job=$AC_BUILD/tools/burst-job
: "${AC_TOP:?run through make bench}"
. "$AC_TOP/tests/bench/lib-pg"
hz=$(getconf CLK_TCK)
ns() { date +%s%N; }

# ---- the node queues, installed for this benchmark only ----

# Sets queues_why and fails when they cannot run here.
queues_ready() {
	queues_why=
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
		queues_why="node or npm is not installed"
		return 1
	fi
	pkg=$AC_TOP/tests/bench/burst-npm/package.json
	if ! cmp -s "$pkg" "$npmdir/package.json" || ! test -d "$npmdir/node_modules/pg-boss" ||
	    ! test -d "$npmdir/node_modules/graphile-worker"; then
		rm -rf "$npmdir" && mkdir -p "$npmdir" && cp "$pkg" "$npmdir/"
		if ! (cd "$npmdir" && timeout 300 npm install --no-audit --no-fund --loglevel=error \
		    --fetch-retries=1 --fetch-timeout=30000) >"$tmp/npm.log" 2>&1; then
			queues_why="npm install in $npmdir failed (is the npm registry reachable?): $(grep -m 1 . "$tmp/npm.log" || echo no output)"
			rm -rf "$npmdir"
			return 1
		fi
	fi
	cp "$AC_TOP/tests/bench/burst-npm/queue.mjs" "$npmdir/"
}

version_of() {
	sed -n 's/^  "version": "\(.*\)",$/\1/p' "$npmdir/node_modules/$1/package.json"
}

# ---- the server ----

sql() {
	psql -h "$srv" -U postgres -d "$1" -X -q -A -t -v ON_ERROR_STOP=1 -c "$2"
}

# Clock ticks used by the server's processes so far.  A child that ended
# is in the postmaster's cutime/cstime, so the sum only grows.
server_ticks() {
	pm=$(head -n 1 "$srv/data/postmaster.pid")
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v pm="$pm" '{
		pid = $1
		rest = substr($0, match($0, /\) [A-Za-z] /) + 2)
		split(rest, f, " ")
		# f[2] ppid, f[12] utime, f[13] stime, f[14] cutime, f[15] cstime
		if (pid == pm || f[2] == pm)
			t += f[12] + f[13] + f[14] + f[15]
	} END { print t + 0 }'
}

# The server's WAL so far: bytes (its position), and syncs to disk (a
# group commit is one sync for several commits; a server process adds its
# count when it is idle or ends).
wal_stats() {
	sql postgres "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint || ' ' || wal_sync
	    FROM pg_stat_wal"
}

# Own user+system ticks of the processes given.
own_ticks() {
	t=0
	for p in "$@"; do
		t=$((t + $(awk '{ rest = substr($0, match($0, /\) [A-Za-z] /) + 2); split(rest, f, " ");
			print f[12] + f[13] }' "/proc/$p/stat")))
	done
	echo $t
}

# ---- one row: a scheduler, a number of processes ----

# install_TOOL DB: the scheduler's schema, before the clock is set.
install_agentcron() { "$AC_BUILD/tools/mkstore" "$(uri "$1")" 0; }
install_graphile() { node "$npmdir/queue.mjs" graphile install "$srv" "$1"; }
install_pgboss() { node "$npmdir/queue.mjs" pgboss install "$srv" "$1"; }

# fill_TOOL DB AT: BURST_JOBS jobs due at AT (seconds since the epoch).
fill_agentcron() {
	awk -v n="$njobs" -v at="$(date -u -d "@$2" +%Y-%m-%dT%H:%M:%SZ)" -v job="$job" 'BEGIN {
		for (i = 0; i < n; i++)
			printf("{\"name\":\"b%05d\",\"prompt\":\"burst job %d\",\"at\":\"%s\",\"exec\":\"%s\"}\n",
			    i, i, at, job)
	}' | TASK_DB=$(uri "$1") "$AC_BIN/task-add" --json - >/dev/null
}
fill_graphile() { node "$npmdir/queue.mjs" graphile setup "$srv" "$1" "$njobs" "${2}000"; }
fill_pgboss() { node "$npmdir/queue.mjs" pgboss setup "$srv" "$1" "$njobs" "${2}000"; }

# Jobs a scheduler has not done yet, by its own account.
left_agentcron() { sql "$1" "SELECT count(*) FROM tasks WHERE status <> 'completed'"; }
left_graphile() { sql "$1" "SELECT count(*) FROM graphile_worker._private_jobs"; }
left_pgboss() { sql "$1" "SELECT count(*) FROM pgboss.job WHERE name = 'burst' AND state <> 'completed'"; }

uri() { echo "postgresql:///$1?host=$srv&user=postgres"; }

# start_TOOL DB I: worker I, its pid in $!.
start_agentcron() {
	TASK_DB=$(uri "$1") "$AC_BIN/task-tick" --watch -j 8 >"$tmp/w$2.out" 2>"$tmp/w$2.err" &
}
start_graphile() {
	node "$npmdir/queue.mjs" graphile work "$srv" "$1" 8 "$job" >"$tmp/w$2.out" 2>"$tmp/w$2.err" &
}
start_pgboss() {
	node "$npmdir/queue.mjs" pgboss work "$srv" "$1" 8 "$job" >"$tmp/w$2.out" 2>"$tmp/w$2.err" &
}

# Wait until every node worker said it is ready (agentcron's watchers need no word).
wait_ready() {
	[ "$1" = agentcron ] && return 0
	t=0
	while [ "$(cat "$tmp"/w*.out 2>/dev/null | grep -c '^ready$')" -lt "$2" ]; do
		[ $t -lt 300 ] || { echo "burst: $1 workers not ready in 30 s: $(cat "$tmp"/w*.err)"; return 1; }
		sleep 0.1
		t=$((t + 1))
	done
}

# sleep_until NS
sleep_until() {
	d=$(( $1 - $(ns) ))
	[ $d -le 0 ] || sleep "$(awk -v d="$d" 'BEGIN { printf "%.3f", d / 1e9 }')"
}

# log_figures LOG AT: from a job log, "distinct twice first p50 p99": jobs
# that ran, jobs that ran more than once, and their starts after the
# instant AT (seconds since the epoch) in ms.
log_figures() {
	sort -k2,2n "$1" 2>/dev/null | awk -v at="$2" '
	function pick(q,  i) { i = int(m * q + 0.5); return late[i < 1 ? 1 : i] }
	{
		if (seen[$1]++ == 1)
			twice++
		else if (seen[$1] == 1)
			distinct++
		late[++m] = ($2 - at * 1e9) / 1e6
	}
	END {
		if (!m) { print "0 0 -1 -1 -1"; exit }
		printf "%d %d %.1f %.0f %.0f\n", distinct, twice, late[1], pick(0.5), pick(0.99)
	}'
}

# row TOOL LABEL N: one run of N worker processes; prints the row and
# appends "TOOL N drain first p50 p99 server client twice never left wal
# syncs" to $tmp/rows.
row() {
	tool=$1 label=$2 n=$3 lead=${4:-$((2 + njobs / 4000))}
	db=${tool}_${n}_$lead log=$tmp/${tool}_${n}_$lead.log
	sql postgres "CREATE DATABASE $db"
	rm -f "$tmp"/w*.out "$tmp"/w*.err
	"install_$tool" "$db"
	# The workers wait for work, as standing schedulers do; then the jobs
	# come, due LEAD seconds on (10,000 take about 2.5 s to add).
	export BURST_LOG=$log
	k=0
	while [ $k -lt "$n" ]; do
		"start_$tool" "$db" $k
		workers="$workers $!"
		k=$((k + 1))
	done
	wait_ready "$tool" "$n"
	at=$(( $(date +%s) + lead ))
	fill0=$(date +%s)
	"fill_$tool" "$db" "$at"
	sql "$db" "CHECKPOINT"
	early=$(( at * 1000000000 - $(ns) ))
	if [ $early -lt 300000000 ] && [ $# -lt 4 ]; then
		# A loaded machine: again, with twice the time setting up took.
		fill=$(( $(date +%s) - fill0 ))
		stop_workers
		sql postgres "DROP DATABASE $db"
		row "$tool" "$label" "$n" $((lead * 2 + 2 + fill * 2))
		return
	fi
	sleep_until $(( at * 1000000000 - 50000000 ))
	wal0=$(wal_stats)
	ticks0=$(server_ticks)
	deadline=$(( at * 1000000000 + row_timeout * 1000000000 ))
	# The log first (no cost to the server), then the scheduler's word.
	while [ "$(cat "$log" 2>/dev/null | wc -l)" -lt "$njobs" ] && [ "$(ns)" -lt $deadline ]; do
		sleep 0.1
	done
	while [ "$("left_$tool" "$db")" != 0 ] && [ "$(ns)" -lt $deadline ]; do
		sleep 0.02
	done
	done_ns=$(ns)
	ticks1=$(server_ticks)
	client=$(own_ticks $workers)
	stop_workers
	wal1=$(wal_stats)
	left=$("left_$tool" "$db")
	# Gone before the next row: the server vacuuming this row's dead rows
	# would count as the next row's CPU.
	sql postgres "DROP DATABASE $db"
	set -- $(log_figures "$log" "$at") $wal0 $wal1
	awk -v tool="$tool" -v label="$label" -v k="$n" -v jobs="$njobs" -v drain_ns=$((done_ns - at * 1000000000)) \
	    -v st=$((ticks1 - ticks0)) -v cl="$client" -v hz="$hz" -v early="$early" -v left="$left" \
	    -v distinct="$1" -v twice="$2" -v first="$3" -v p50="$4" -v p99="$5" \
	    -v wal=$(($8 - $6)) -v syncs=$(($9 - $7)) 'BEGIN {
		drain = drain_ns / 1e9
		server = st * 1000 / hz / jobs
		client = cl * 1000 / hz / jobs
		printf "%s %d %.2f %.1f %.0f %.0f %.3f %.3f %d %d %d %.2f %.3f\n", tool, k, drain, first, p50,
		    p99, server, client, twice, jobs - distinct, left, wal / 1024 / jobs, syncs / jobs
		printf "%-23s %d x -j 8 %7.2f s %7.1f ms %6.0f ms %6.0f ms %6.3f ms %6.2f KB %6.3f %6.3f ms %5d",
		    label, k, drain, first, p50, p99, server, wal / 1024 / jobs, syncs / jobs, client,
		    twice >"/dev/stderr"
		if (jobs - distinct || left)
			printf "  NOT DRAINED: %d jobs never ran, %d not done after %.0f s", jobs - distinct,
			    left, drain >"/dev/stderr"
		if (early < 300e6)
			printf "  (set up only %.0f ms before the instant: not comparable)", early / 1e6 >"/dev/stderr"
		printf "\n" >"/dev/stderr"
	}' 2>&1 >>"$tmp/rows"
}

# ---- PostgreSQL: the side-by-side table ----

queues=yes
queues_ready || queues=
bench_pg_start
pgver=$(sql postgres "SHOW server_version" | cut -d' ' -f1)
: >"$tmp/rows"
echo "burst: $njobs one-shots due at one instant, each job $job then /bin/true;"
echo "burst: PostgreSQL $pgver (fsync on, Unix socket), $(nproc) cores (nproc), node $(node --version 2>/dev/null || echo none);"
echo "burst: load average at the start $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine slows every row)"
if [ -z "$queues" ]; then
	echo "burst: graphile-worker and pg-boss skipped: $queues_why"
fi
printf "%-23s %-8s %9s %10s %9s %9s %9s %9s %6s %9s %5s\n" scheduler processes drain first \
    "p50 late" "p99 late" "server" "WAL" "WAL" "client" twice
printf "%-23s %-8s %9s %10s %9s %9s %9s %9s %6s %9s %5s\n" "" "" "" start "" "" "CPU/job" "/job" \
    "syncs" "CPU/job" ""
# Row by row at each count of processes, so that the figures compared are
# taken close together on a machine whose speed may drift.
for n in $(echo $procs $queue_procs | tr ' ' '\n' | sort -nu); do
	if echo " $procs " | grep -q " $n "; then
		row agentcron agentcron "$n"
	fi
	if [ -n "$queues" ] && echo " $queue_procs " | grep -q " $n "; then
		row graphile "graphile-worker $(version_of graphile-worker)" "$n"
		row pgboss "pg-boss $(version_of pg-boss)" "$n"
	fi
done
"$AC_TOP/tests/pg-server" stop "$srv"
echo "burst: load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- the targets, as ratios of this run's figures ----

# fig TOOL N FIELD: a figure of a row (3 drain, 7 server CPU ...), empty
# when the row was not run or did not drain.
fig() {
	awk -v t="$1" -v n="$2" -v f="$3" '$1 == t && $2 == n && $10 == 0 && $11 == 0 { print $f }' "$tmp/rows"
}
most=$(echo $procs | tr ' ' '\n' | sort -n | tail -n 1)
least=$(echo $procs | tr ' ' '\n' | sort -n | head -n 1)
echo "targets (a row that did not drain is not compared):"
# target LABEL A B LIMIT: A / B against LIMIT ("<=" or ">=" in LIMIT).
target() {
	awk -v label="$1" -v a="$2" -v b="$3" -v limit="$4" 'BEGIN {
		if (a == "" || b == "" || b == 0) {
			printf "  %s: not measured\n", label
			exit
		}
		r = a / b
		op = substr(limit, 1, 2)
		lim = substr(limit, 3) + 0
		ok = op == "<=" ? r <= lim : r >= lim
		# Two decimals that read as the limit say more where they decide.
		shown = sprintf("%.2f", r)
		if (shown + 0 == lim)
			shown = sprintf("%.4f", r)
		printf "  %s: %sx; target %s %gx: %s\n", label, shown, op, lim, ok ? "met" : "NOT MET"
	}'
}
if [ -n "$queues" ]; then
	for n in $queue_procs; do
		gw=$(fig graphile "$n" 3) pb=$(fig pgboss "$n" 3)
		best=$(echo "$gw $pb" | tr ' ' '\n' | grep . | sort -n | head -n 1 || true)
		target "drain, $n tickers against the faster node queue at $n workers (graphile-worker ${gw:-?} s, pg-boss ${pb:-?} s), as fast" \
		    "$best" "$(fig agentcron "$n" 3)" ">=1.5"
	done
	# The drain and WAL asked of the PostgreSQL burst against pg-boss.
	for n in $queue_procs; do
		target "drain, $n tickers against pg-boss at $n workers ($(fig agentcron "$n" 3) s, $(fig pgboss "$n" 3) s), as fast" \
		    "$(fig pgboss "$n" 3)" "$(fig agentcron "$n" 3)" ">=2.5"
	done
	for n in $queue_procs; do
		target "server CPU per job, $n tickers against pg-boss at $n workers ($(fig agentcron "$n" 7) ms, $(fig pgboss "$n" 7) ms)" \
		    "$(fig agentcron "$n" 7)" "$(fig pgboss "$n" 7)" "<=1"
	done
else
	echo "  drain against the node queues, server CPU per job against pg-boss: not measured ($queues_why)"
fi
awk -v n="$most" -v a="$(fig agentcron "$most" 12)" -v b="$(fig pgboss "$most" 12)" 'BEGIN {
	if (a == "")
		printf "  WAL per job, %d tickers: not measured\n", n
	else
		printf "  WAL per job, %d tickers: %.2f KB (pg-boss %s KB); target <= 1.5 KB: %s\n", n, a,
		    b == "" ? "not measured" : b, a <= 1.5 ? "met" : "NOT MET"
}'
target "$most tickers against $least, as fast, on $(nproc) cores" "$(fig agentcron "$least" 3)" \
    "$(fig agentcron "$most" 3)" ">=1.5"
# What more tickers can gain on this machine: the same jobs with no
# scheduler and no database, as many at once as the most tickers run
# (xargs), take this long; no drain is shorter.
t0=$(ns)
awk -v n="$njobs" 'BEGIN { for (i = 0; i < n; i++) printf("b%05d\n", i) }' |
	BURST_LOG=$tmp/alone.log xargs -P $((most * 8)) -n 1 "$job"
t1=$(ns)
awk -v a=$((t1 - t0)) -v d="$(fig agentcron "$least" 3)" -v p=$((most * 8)) -v least="$least" \
    -v ran="$(wc -l <"$tmp/alone.log")" 'BEGIN {
	printf "    the jobs alone (xargs -P %d, no scheduler, %d ran): %.2f s; %d ticker(s) drained in %s s, so more tickers can gain at most %.2fx here\n",
	    p, ran, a / 1e9, least, d == "" ? "?" : d, d == "" ? 0 : d / (a / 1e9) }'
awk '{ twice += $9 } $10 || $11 { late = late " " $1 "/" $2 }
END {
	printf "  jobs run twice: %d; target 0: %s\n", twice, twice ? "NOT MET" : "met"
	if (late != "")
		printf "  rows that did not drain within the time allowed (tool/processes):%s\n", late
}' "$tmp/rows"

# ---- SQLite ----

# The same number of one-shots due at once, one `task-tick -j 8` pass,
# against xargs starting as many /bin/true (`true` through PATH for both),
# 8 at once: before and after the pass, against their mean, as the speed
# at which this machine starts processes drifts.
export TASK_NOW=2026-11-23T07:00:00Z
"$AC_BUILD/tools/mkstore" "$tmp/due.db" "$njobs" "$njobs"
t0=$(ns)
seq "$njobs" | xargs -P 8 -n 1 true
t1=$(ns)
TASK_DB=$tmp/due.db "$AC_BIN/task-tick" -j 8 >"$tmp/due.out"
t2=$(ns)
seq "$njobs" | xargs -P 8 -n 1 true
t3=$(ns)
ran=$(grep -c '"status":"success"' "$tmp/due.out" || true)
once=$(sqlite3 "$tmp/due.db" "SELECT count(DISTINCT task_id) FROM runs WHERE status = 'success'")
awk -v a=$((t2 - t1)) -v x1=$((t1 - t0)) -v x2=$((t3 - t2)) -v n="$njobs" -v ran="$ran" -v once="$once" 'BEGIN {
	x = (x1 + x2) / 2
	r = a / x
	printf "sqlite: %d due at once, task-tick -j 8: %.2f s (%d runs, %d tasks); xargs -P 8, as many /bin/true: %.2f s (%.2f s before, %.2f s after)\n",
	    n, a / 1e9, ran, once, x / 1e9, x1 / 1e9, x2 / 1e9
	printf "  task-tick against xargs: %.2fx; target <= 1.2x: %s\n", r,
	    (r <= 1.2 && ran == n && once == n ? "met" : "NOT MET") }'

# The tasks a pass fired are a set: a pass over BURST_BIG (100,000) due
# at once costs per task what one over a tenth of them does (when they
# were kept sorted by insertion it grew quadratically).  No processes:
# the executor is not found, so each run fails at once; the store on tmpfs
# where there is one, so the disk's syncs do not blur the CPU time, which
# is task-tick's own (the shell's `times`, children).
big=${BURST_BIG:-100000}
bigdir=$tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && bigdir=$(mktemp -d /dev/shm/agentcron-bench.XXXXXX)
# The shell's children's CPU seconds so far (`times` in this shell, not
# in a subshell, whose children they are not).
child_cpu() {
	times >"$tmp/times"
	awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$tmp/times"
}
for n in $((big / 10)) $big; do
	rm -f "$bigdir"/big.db*
	"$AC_BUILD/tools/mkstore" "$bigdir/big.db" "$n" "$n" /nonexistent/executor
	child_cpu >"$tmp/c0"
	TASK_DB=$bigdir/big.db "$AC_BIN/task-tick" -j 64 >"$bigdir/big.out" 2>/dev/null || true
	child_cpu >"$tmp/c1"
	echo "$n $(grep -c '"status":"failed"' "$bigdir/big.out") $(cat "$tmp/c0") $(cat "$tmp/c1")" >>"$tmp/big"
done
[ "$bigdir" = "$tmp" ] || rm -rf "$bigdir"
awk 'NR == 1 { n1 = $1; r1 = $2; c1 = ($4 - $3) / $1 * 1000 }
NR == 2 { n2 = $1; r2 = $2; c2 = ($4 - $3) / $1 * 1000 }
END {
	r = c2 / c1
	printf "sqlite: %d due at once, one pass at -j 64, no processes: %.2f ms of CPU per 1000 tasks (%d runs); %d due: %.2f ms per 1000 (%d runs)\n",
	    n2, c2 * 1000, r2, n1, c1 * 1000, r1
	printf "  per task at %d against %d: %.2fx; target <= 1.5x (not quadratic): %s\n", n2, n1, r,
	    (r <= 1.5 && r1 == n1 && r2 == n2 ? "met" : "NOT MET") }' "$tmp/big"

# Import: 100,000 JSON lines (tests/tools/gen-tasks), task-add --json -,
# against sqlite3's own .import of the same rows into the same table.  The
# rows are the ones task-add stored, exported as CSV; the table is the
# store's tasks table with its indexes, in a store of its own with the same
# settings (WAL, synchronous FULL, agentcron's cache size), in one
# transaction as task-add's import is.  .import has no NULL (an empty field
# is ''), so the copy's index conditions say = '' where the store's say IS
# NULL: every index gets the rows it gets in the store.  What is left to
# compare is agentcron's work per line: JSON, validation, the schedule, the
# twin check.
"$AC_TOP/tests/tools/gen-tasks" 100000 >"$tmp/100k.jsonl"
# Three rounds, taking turns; the median of each.
for round in 1 2 3; do
	rm -f "$tmp"/imp.db*
	t0=$(ns)
	TASK_DB=$tmp/imp.db "$AC_BIN/task-add" --json - <"$tmp/100k.jsonl" >/dev/null
	t1=$(ns)
	if [ $round = 1 ]; then
		sqlite3 -csv "$tmp/imp.db" "SELECT * FROM tasks" >"$tmp/rows.csv"
		sqlite3 "$tmp/imp.db" .schema | grep -E '^CREATE (TABLE tasks |(UNIQUE )?INDEX [a-z_]+ ON tasks\()' |
			sed "s/ IS NOT NULL/ <> ''/g; s/ IS NULL/ = ''/g" >"$tmp/tasks.sql"
	fi
	rm -f "$tmp"/copy.db*
	{ echo "PRAGMA journal_mode = WAL;"; cat "$tmp/tasks.sql"; } | sqlite3 "$tmp/copy.db" >/dev/null
	t2=$(ns)
	sqlite3 -cmd "PRAGMA synchronous = FULL" -cmd "PRAGMA cache_size = -32768" "$tmp/copy.db" \
	    ".import --csv $tmp/rows.csv tasks"
	t3=$(ns)
	echo "$((t1 - t0)) $((t3 - t2))" >>"$tmp/import.times"
done
median() { sort -n | sed -n 2p; }
a=$(cut -d' ' -f1 "$tmp/import.times" | median)
b=$(cut -d' ' -f2 "$tmp/import.times" | median)
awk -v a="$a" -v s="$b" -v n="$(sqlite3 "$tmp/imp.db" "SELECT count(*) FROM tasks")" \
    -v m="$(sqlite3 "$tmp/copy.db" "SELECT count(*) FROM tasks")" 'BEGIN {
	r = a / s
	printf "sqlite: import of 100000 JSON lines, task-add --json -: %.2f s (%d tasks); sqlite3 .import of the same rows: %.2f s (%d rows); medians of 3 rounds\n",
	    a / 1e9, n, s / 1e9, m
	printf "  task-add against .import: %.2fx; target <= 1.5x: %s\n", r,
	    (r <= 1.5 && n == 100000 && m == n ? "met" : "NOT MET") }'
