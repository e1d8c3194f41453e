#!/bin/sh
# A watcher whose file store goes wrong under it: a result it cannot record
# (the disk full, tests/tools/preload/enospc.c with ENOSPC_WHILE) is kept,
# said once, and recorded when there is room again, the run never started
# twice; a store file replaced (restored from a backup, moved into place) is
# noticed, said, and reopened, and the new file's tasks fire.
. "$AC_TOP/tests/lib.sh"
mkdir full
# The sanitizers' runtime wants to be the first library; the shim is
# loaded first on purpose.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

# state NAME: the status of task NAME and of its runs, one line.
state() {
	echo "$(task-ls --json | sed -n "s/.*\"name\":\"$1\".*\"status\":\"\([a-z]*\)\".*/\1/p")" \
		"$(task-log | cut -f7 | tr "\n" " ")"
}

test_expect_success 'a result the full disk would not take is kept and recorded once there is room' '
	TASK_DB=$PWD/full/tasks.db && export TASK_DB &&
	task-add --manual --name keep k >/dev/null &&
	# The executor fills the disk as it starts, so the claim is written and
	# the end of the run is not.
	task-add --at "$(in_s 2)" --retries 0 --name once \
		--exec "sh -c '\''echo x >>$PWD/execs; touch $PWD/disk-full; sleep 0.5; echo done'\''" p >/dev/null &&
	LD_PRELOAD=$AC_BUILD/tools/enospc.so ENOSPC_DIR=$PWD/full ENOSPC_WHILE=$PWD/disk-full \
		test_start_ready wout werr task-tick --watch &&
	test_until 60 grep -q "the disk is full; firing nothing until it is back" werr &&
	echo "running running " >expect && state once >actual && test_cmp expect actual &&
	# Signs of life come every 2.5 s (owner_timeout 30): on one machine they
	# write nothing, so they do not make the store back.
	sleep 4 && ! grep "'\'' is back$" werr &&
	rm disk-full &&
	test_until 30 grep -q "'\'' is back$" werr &&
	test_until 60 sh -c "task-log | cut -f7 | grep -q success" &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	echo "completed success " >expect && state once >actual && test_cmp expect actual &&
	echo x >expect && test_cmp expect execs &&
	grep -c "firing nothing until it is back" werr >n && echo 1 >expect && test_cmp expect n &&
	grep -c "'\'' is back$" werr >n && test_cmp expect n &&
	grep -q "\"status\":\"success\"" wout
'

test_expect_success 'a store replaced under a watcher: said, reopened, its tasks fire' '
	TASK_DB=$PWD/live.db && export TASK_DB &&
	task-add --manual --name old o >/dev/null &&
	TASK_DB=$PWD/backup.db task-add --at "$(in_s 3)" --name restored --exec "echo from-backup" r >/dev/null &&
	test_start_ready wout werr task-tick --watch &&
	mv backup.db live.db && rm -f backup.db-wal backup.db-shm backup.db-wake &&
	test_until 60 sh -c "task-log | cut -f7 | grep -q success" &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	echo "task-tick: store '\''$PWD/live.db'\'' was replaced by another file; reopened it" >expect &&
	watcher_said werr >said && test_cmp expect said &&
	task-log | cut -f4,7 >actual && printf "restored\tsuccess\n" >expect && test_cmp expect actual &&
	task-ls | cut -f2 | sort >actual && printf "restored\n" >expect && test_cmp expect actual
'

test_expect_success 'a store replaced by a file that is not one: said once, then the next good file' '
	TASK_DB=$PWD/swap.db && export TASK_DB &&
	task-add --manual --name first f >/dev/null &&
	TASK_DB=$PWD/good.db task-add --at "$(in_s 3)" --name good --exec "echo good" g >/dev/null &&
	test_start_ready wout werr task-tick --watch &&
	head -c 8192 /dev/zero | tr "\0" x >junk && mv junk swap.db &&
	test_until 60 grep -q "trying again" werr &&
	mv good.db swap.db && rm -f good.db-wal good.db-shm good.db-wake &&
	test_until 60 sh -c "task-log 2>/dev/null | cut -f7 | grep -q success" &&
	kill -TERM $test_ready_pid && wait $test_ready_pid &&
	grep -c "trying again" werr >n && echo 1 >expect && test_cmp expect n &&
	grep -q "was replaced by another file; reopened it" werr &&
	task-log | cut -f4,7 >actual && printf "good\tsuccess\n" >expect && test_cmp expect actual
'

test_done
