#!/bin/sh
# A watcher that others declared dead (its process row marked dead, as a
# host that recovered its runs leaves it) says so once, at its next sign
# of life, and goes on under a new identity: what comes due after is
# claimed and run, as a run of the new owner.
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB

# A sign of life every 250 ms (owner_timeout 3 s).
test_config 'owner_timeout = 3' || exit 1

test_expect_success 'declared dead: told once, a new identity, and the next task runs' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec true first >/dev/null &&
	TASK_NOW=2026-11-23T07:00:05Z tick_watch &&
	test_until 60 lines wout 1 &&
	pg_sql "UPDATE processes SET dead = true" >/dev/null &&
	test_until 60 grep -q "going on under a new identity" werr &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --exec true second >/dev/null &&
	test_until 60 lines wout 2 &&
	tick_stop &&
	echo "task-tick: this process was silent for more than 3 s and others recovered its runs; going on under a new identity" >expect &&
	watcher_said werr >said && test_cmp expect said &&
	pg_sql "SELECT count(DISTINCT owner_id) FROM runs WHERE status = '\''success'\''" >owners &&
	echo 2 >expect && test_cmp expect owners
'

test_done
