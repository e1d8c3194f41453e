#!/bin/sh
# PostgreSQL failovers under load, for `make bench BENCH=failover`
# (tests/failover): 2,000 one-shots due over a minute, every-minute tasks
# and one-shots added meanwhile, under two tickers on the URI naming both
# servers; two failovers each (to the standby and back by pg_rewind):
#   kill:     the primary killed, synchronous replication
#   readonly: the primary switched to read-only, its connections open
#   async:    the primary killed, asynchronous replication: what a
#             failover may lose or repeat without a synchronous standby
# Figures per variant: occurrences run once, doubled, lost, runs left
# running, the promotion's time and the first claim after it.
set -eu
: "${AC_BIN:?run through make bench}" "${AC_BUILD:?}" "${AC_TOP:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentcron-bench.XXXXXX")
# The servers run as postgres when this runs as root: it passes through.
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
AC_PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$AC_PG_BIN/psql" ] || AC_PG_BIN=$(dirname "$(command -v psql)")
export AC_PG_BIN TZ=UTC LC_ALL=C SPREAD=60 FAIL_AT=8
unset TASK_EXEC TASK_NOTIFY TASK_NOW TASK_DB
status=0
for v in "kill sync" "readonly sync" "kill async"; do
	# shellcheck disable=SC2086
	set -- $v
	dir=$tmp/$1-$2
	mkdir -p "$dir"
	(
		cd "$dir" &&
		HOME=$dir XDG_CONFIG_HOME=$dir/config XDG_DATA_HOME=$dir/data \
			"$AC_TOP/tests/failover" "${N:-2000}" "$1" "$2" >figures 2>err
	) || { echo "failover $1 $2: $(cat "$dir/err")"; status=1; continue; }
	echo "failover $1 $2: $(tr '\n' ' ' <"$dir/figures")"
done
exit $status
