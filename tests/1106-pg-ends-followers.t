#!/bin/sh
# The ends of a pass's runs look for the tasks that follow them once a
# unit of work, not once a run, in a store where no task follows another:
# on PostgreSQL each look was a round trip per job of a burst.  Where some
# task follows another, each end looks for its own as before, and a
# follower added between two units is found by the next.  The statements
# from the server's log (log_statement, on a server of this file's own).
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z TASK_HOST_ID=alpha
pg_own_server || exit 1

# sent CMD...: CMD run, then how many statements of each kind the server
# was sent meanwhile: the probe for any follower, the followers of one
# upstream.
sent() {
	own_sent "$@" >sent.log &&
	printf "probe %s\nupstream %s\n" \
		"$(grep -c "^SELECT EXISTS (SELECT 1 FROM tasks WHERE after_tasks IS NOT NULL" sent.log)" \
		"$(grep -c "^SELECT id, after_tasks, enabled FROM tasks" sent.log)"
}

test_expect_success 'eight runs ended, no task follows another: no look for followers of each' '
	own_sql "ALTER DATABASE agentcron SET log_statement = '\''all'\''" &&
	for i in 1 2 3 4 5 6 7 8; do
		task-add --at 2026-11-23T06:59:00Z --name "job $i" --exec true "job $i" >/dev/null || return 1
	done &&
	sent task-tick -j 8 >counts &&
	test "$(own_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''")" = 8 &&
	test "$(sed -n "s/^upstream //p" counts)" = 0 &&
	probes=$(sed -n "s/^probe //p" counts) &&
	test "$probes" -ge 1 && test "$probes" -lt 8
'

test_expect_success 'with a follower, each end looks for its own, and the follower runs' '
	up=$(task-add --every 1m --name up --exec true "up") &&
	task-add --manual --name down --after up --exec true "down" >/dev/null &&
	TASK_NOW=2026-11-23T07:02:00Z sent task-tick -j 8 >counts &&
	test "$(sed -n "s/^upstream //p" counts)" -ge 1 &&
	test "$(own_sql "SELECT count(*) FROM runs r JOIN tasks t ON t.id = r.task_id WHERE t.name = '\''down'\'' AND r.status = '\''success'\''")" = 1
'
test_done
