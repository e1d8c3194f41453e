#!/bin/sh
# A run on PostgreSQL names its owner by id alone: the owner's host, node,
# pid and start are on its row of processes, kept while it owns a run in
# flight, and read from there when the run is recovered: on the same
# host at once (its pid is gone), from another once it is silent
# (owner_timeout).  A run recorded before keeps its own columns (1046).
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB
test_config 'owner_timeout = 3' || exit 1

# The executor: says it started, then waits for ./stop.
cat >slow <<\EOF
#!/bin/sh
echo $$ >"$DIR/$TASK_NAME.pid"
while [ ! -e "$DIR/stop" ]; do sleep 0.1; done
EOF
DIR=$PWD
export DIR
chmod +x slow || exit 1
# left: leaves a process behind for certain once the ticker dies (slow's
# sleeps of 0.1 s may be over before a loaded machine's next pass looks).
cat >left <<\EOF
#!/bin/sh
sleep 300 &
echo $! >"$DIR/$TASK_NAME.child"
echo $$ >"$DIR/$TASK_NAME.pid"
wait
EOF
chmod +x left || exit 1

# owner: the owner's columns of the run in flight, then its process's pid.
owner() {
	pg_sql "SELECT r.owner_host IS NULL, r.owner_node IS NULL, r.owner_pid IS NULL,
		r.owner_start IS NULL, p.pid FROM runs r JOIN processes p ON p.id = r.owner_id
		WHERE r.status = 'running'"
}

test_expect_success 'the run holds its owner id; killed, the next pass here recovers it by its pid' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --name here \
		--exec "$PWD/left" p >/dev/null &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >out 2>err & } && tick=$! &&
	test_when_finished "test_end \$tick; kill \$(cat here.child) 2>/dev/null; true" &&
	test_until 60 test -s here.pid &&
	owner >actual &&
	echo "t|t|t|t|$tick" >expect && test_cmp expect actual &&
	kill -9 $tick && { wait $tick; test $? -eq 137; } &&
	TASK_NOW=2026-11-23T07:00:30Z task-tick >out2 2>err2 &&
	python3 -c "
import json
for l in open(\"out2\"):
    r = json.loads(l)
    print(r[\"name\"], r[\"status\"], r[\"error\"])
" >actual &&
	echo "here interrupted the process running it (pid $tick) ended before the run finished; 1 process it left behind was killed" >expect &&
	test_cmp expect actual
'

# Another host by TASK_HOST_ID alone (its pid namespace is ours), so that
# the test can end its ticker.
test_expect_success 'killed on another host: a pass elsewhere, once it is silent, names its pid and host' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --name far \
		--exec "$PWD/slow" p >/dev/null &&
	{ TASK_NOW=2026-11-23T07:00:00Z TASK_HOST_ID=far1 task-tick >out3 2>err3 & } && tick=$! &&
	test_when_finished "touch stop; test_end \$tick" &&
	test_until 60 test -s far.pid &&
	pg_sql "SELECT r.owner_host IS NULL, r.owner_node IS NULL, r.owner_pid IS NULL,
		r.owner_start IS NULL, p.pid || '\'' on '\'' || p.host FROM runs r
		JOIN processes p ON p.id = r.owner_id WHERE r.status = '\''running'\''" >owner &&
	echo "t|t|t|t|$tick on $(hostname)" >expect && test_cmp expect owner &&
	kill -9 $tick && { wait $tick; test $? -eq 137; } &&
	pg_sql "UPDATE processes SET beat_at = beat_at - interval '\''1 hour'\''" >/dev/null &&
	TASK_NOW=2026-11-23T07:00:30Z TASK_HOST_ID=far2 task-tick >out4 2>err4 &&
	python3 -c "
import json, re
for l in open(\"out4\"):
    r = json.loads(l)
    print(r[\"name\"], r[\"status\"], re.sub(r\"life [0-9]+ s\", \"life N s\", r[\"error\"]))
" >actual &&
	echo "far interrupted the process running it (pid $tick on $(hostname)) stopped showing signs of life N s ago" >expect &&
	test_cmp expect actual
'

test_done
