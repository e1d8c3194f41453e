#!/bin/sh
# --overlap replace across hosts on PostgreSQL: a pass on one host finds
# the task still running on another; the host running it ends the run
# (SIGTERM to its process group) within a few seconds, records it
# cancelled with the reason (in its output, not in cron's mail: the user
# asked for it), and the new occurrence runs, once.  Hosts are
# separate PID and UTS namespaces where unshare can make them, else
# TASK_HOST_ID (tests/lib-pg.sh).
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB

cat >slow <<\EOF
#!/bin/sh
echo "start $TASK_SLOT" >>"$DIR/log"
trap 'echo "term $TASK_SLOT" >>"$DIR/log"; exit 143' TERM
if [ ! -e "$DIR/fast" ]; then
	while :; do sleep 0.1; done
fi
echo "end $TASK_SLOT" >>"$DIR/log"
EOF
chmod +x slow || exit 1
DIR=$PWD
export DIR

test_expect_success 'host b replaces the run host a has in flight; host a ends it' '
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "* * * * *" --overlap replace --name r \
		--exec "$PWD/slow" p >/dev/null &&
	{ TASK_NOW=2026-11-23T07:00:00Z on_host a task-tick >a.out 2>a.err & } &&
	test_until 30 lines log 1 &&
	start=$(date +%s) &&
	TASK_NOW=2026-11-23T07:01:00Z on_host b task-tick >b.out 2>b.err &&
	test ! -s b.out && test ! -s b.err &&
	wait &&
	echo "host a ended it $(($(date +%s) - start)) s after host b asked" &&
	grep -q "\"status\":\"cancelled\".*replaced by its occurrence of 2026-11-23T07:01:00Z (--overlap replace); ended by SIGTERM" a.out &&
	test ! -s a.err &&
	touch fast &&
	TASK_NOW=2026-11-23T07:01:10Z on_host b task-tick >b2.out 2>b2.err &&
	test ! -s b2.err && grep -q "\"status\":\"success\"" b2.out &&
	cat >expect <<-\EOF &&
	start 2026-11-23T07:00:00Z
	term 2026-11-23T07:00:00Z
	start 2026-11-23T07:01:00Z
	end 2026-11-23T07:01:00Z
	EOF
	test_cmp expect log &&
	pg_sql "SELECT owner_id <> '\'''\'', trigger, status, split_part(error, '\'';'\'', 1) FROM runs ORDER BY slot" >actual &&
	cat >expect <<-\EOF &&
	t|schedule|cancelled|replaced by its occurrence of 2026-11-23T07:01:00Z (--overlap replace)
	t|schedule|success|
	EOF
	test_cmp expect actual
'

test_expect_success 'another pass while the run is being ended starts nothing twice' '
	pg_sql "SELECT count(*), count(DISTINCT slot) FROM runs" >actual &&
	echo "2|2" >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:01:20Z on_host c task-tick >c.out && test ! -s c.out
'

test_done
