#!/bin/sh
# Where the PostgreSQL burst's WAL goes: BENCH_WAL_JOBS (2,000) one-shots
# due at one instant, drained by BENCH_WAL_PROCS (2) `task-tick --watch
# -j 8` on a throwaway server with its durable defaults (full-page writes
# on); the server checkpoints after the jobs are added and before the
# workers start, and the WAL from there to the drain is read back with pg_waldump and
# summed per job by relation and record type (a relation's full-page
# images are in its bytes), largest first, then the total per job.  The
# burst (tests/bench/burst.sh) gives the figure against pg-boss; this says
# which writes make it; the last column is the part of those bytes that
# is full-page images (the first change of each page after the
# checkpoint: what the number of pages touched costs, not the records).
# BENCH_WAL_SQL, when set, is run on the new store
# before the jobs are added (to try a schema change without a build).
# Without pg_waldump, said so.
set -eu
: "${AC_TOP:?run through make bench}"
njobs=${BENCH_WAL_JOBS:-2000}
procs=${BENCH_WAL_PROCS:-2}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ ! -x "$bindir/pg_waldump" ]; then
	echo "wal: skipped: no pg_waldump under /usr/lib/postgresql"
	exit 0
fi
. "$AC_TOP/tests/bench/lib-pg"
export BURST_LOG=$tmp/log
bench_pg_start
# The segments of the drain are kept until they are read.
"$AC_TOP/tests/pg-server" set "$srv" "wal_keep_size = 4GB" >/dev/null
sql() { psql -h "$srv" -U postgres -d agentcron -X -q -A -t -v ON_ERROR_STOP=1 -c "$1"; }
uri="postgresql:///agentcron?host=$srv&user=postgres"
"$AC_BUILD/tools/mkstore" "$uri" 0
[ -z "${BENCH_WAL_SQL:-}" ] || sql "$BENCH_WAL_SQL" >/dev/null
# The workers start only after the checkpoint, so however long adding the
# jobs takes on a loaded machine, every job's writes are counted; the
# instant is late enough for task-add to take it as a time to come.
at=$(( $(date +%s) + 10 + njobs / 100 ))
awk -v n="$njobs" -v at="$(date -u -d "@$at" +%Y-%m-%dT%H:%M:%SZ)" -v job="$AC_BUILD/tools/burst-job" 'BEGIN {
	for (i = 0; i < n; i++)
		printf("{\"name\":\"b%05d\",\"prompt\":\"burst job %d\",\"at\":\"%s\",\"exec\":\"%s\"}\n",
		    i, i, at, job)
}' | TASK_DB=$uri "$AC_BIN/task-add" --json - >/dev/null
sql CHECKPOINT
lsn0=$(sql "SELECT pg_current_wal_insert_lsn()")
k=0
while [ $k -lt "$procs" ]; do
	TASK_DB=$uri "$AC_BIN/task-tick" --watch -j 8 >"$tmp/w$k.out" 2>"$tmp/w$k.err" &
	workers="$workers $!"
	k=$((k + 1))
done
t=0
while [ "$(sql "SELECT count(*) FROM tasks WHERE status <> 'completed'")" != 0 ] && [ $t -lt 3000 ]; do
	sleep 0.1
	t=$((t + 1))
done
lsn1=$(sql "SELECT pg_current_wal_insert_lsn()")
stop_workers
ran=$(sort -u "$tmp/log" 2>/dev/null | awk '{ print $1 }' | sort -u | wc -l)
runs=$(sql "SELECT count(*) FROM runs")
sql "SELECT relfilenode, relname FROM pg_class WHERE relfilenode <> 0" >"$tmp/rels"
"$bindir/pg_waldump" -p "$srv/data/pg_wal" -s "$lsn0" -e "$lsn1" >"$tmp/dump" 2>"$tmp/dump.err" || true
echo "wal: $njobs one-shots, $procs x task-tick --watch -j 8, PostgreSQL $(sql "SHOW server_version" | cut -d' ' -f1)," \
    "full_page_writes $(sql "SHOW full_page_writes"), wal_compression $(sql "SHOW wal_compression");" \
    "$ran jobs ran, $runs runs;" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ -z "${BENCH_WAL_SQL:-}" ] || echo "wal: with BENCH_WAL_SQL: $BENCH_WAL_SQL"
printf "%-34s %-22s %9s %9s %9s\n" relation record "B/job" "recs/job" "FPI B/job"
awk -v n="$njobs" -v rels="$tmp/rels" 'BEGIN {
	while ((getline l < rels) > 0) { split(l, a, "|"); name[a[1]] = a[2] }
}
/^rmgr:/ {
	len = rec = 0
	if (match($0, /tot\): +[0-9]+\/ +[0-9]+/)) {
		s = substr($0, RSTART, RLENGTH)
		r = s
		sub(/.*\/ */, "", s)
		len = s + 0
		sub(/^tot\): */, "", r)
		sub(/\/.*/, "", r)
		rec = r + 0
	}
	rel = "(none)"
	if (match($0, /rel [0-9]+\/[0-9]+\/[0-9]+/)) {
		split(substr($0, RSTART, RLENGTH), p, "/")
		rel = p[3] in name ? name[p[3]] : "relfilenode " p[3]
	}
	d = $0
	sub(/.*desc: /, "", d)
	split(d, w, " ")
	k = rel "\t" $2 "/" w[1]
	bytes[k] += len
	recs[k]++
	all += len
	if (/ FPW/) {
		images[k] += len - rec
		allimages += len - rec
	}
}
END {
	for (k in bytes) {
		split(k, f, "\t")
		printf "%-34s %-22s %9.1f %9.2f %9.1f\n", f[1], f[2], bytes[k] / n, recs[k] / n,
		    images[k] / n
	}
	printf "%-34s %-22s %9.1f %9s %9.1f\n", "total", "", all / n, "", allimages / n > "/dev/stderr"
}' "$tmp/dump" 2>"$tmp/total" | sort -k3,3nr | awk '$3 >= 1'
cat "$tmp/total"
echo "wal: $(sql "SELECT round(pg_wal_lsn_diff('$lsn1', '$lsn0') / 1024.0 / $njobs, 2)") KB per job from the WAL positions (pg_current_wal_insert_lsn)"
