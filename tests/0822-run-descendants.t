#!/bin/sh
# Every process a run starts ends with the run, even one that starts a
# session of its own (setsid) and ignores SIGTERM: task-tick is its runs'
# subreaper and, as each run ends (on its own, timed out, replaced, or
# stopped with the ticker), ends what the run left behind.
. "$AC_TOP/tests/lib.sh"

# The executor: starts an escaper (its own session, SIGTERM ignored, its
# pid in NAME.SLOT.escaper), then exits at once if the file fast exists,
# else waits to be ended.
cat >job <<\EOF
#!/bin/sh
f="$HOME/$TASK_NAME.$TASK_SLOT.escaper"
setsid sh -c 'trap "" TERM; echo $$ >"$1.tmp" && mv "$1.tmp" "$1"; exec sleep 300' sh "$f" \
	</dev/null >/dev/null 2>&1 &
while [ ! -s "$f" ]; do sleep 0.05; done
[ -e "$HOME/fast" ] && exit 0
while :; do sleep 0.1; done
EOF
chmod +x job || exit 1

# Whatever a failing test left: the escapers, by their pids.
end_escapers() {
	for f in ./*.escaper; do
		[ -s "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	return 0
}
trap 'end_escapers; test_cleanup_' EXIT

# gone FILE: the process whose pid FILE holds has ended (a zombie has too).
gone() {
	! alive "$(cat "$1")"
}

test_expect_success 'a run that exits at once: what it left in a session of its own ends with it' '
	touch fast &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z --name quick \
		--exec "$PWD/job" x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >out 2>err &&
	test -s quick.2026-11-23T07:00:00Z.escaper &&
	test_until 10 gone quick.2026-11-23T07:00:00Z.escaper &&
	grep -q "\"status\":\"success\"," out &&
	task-log --json --limit 1 |
		grep -q "\"status\":\"success\",.*\"error\":\"1 process it started outside its group outlived it and was killed\""
'

test_expect_success 'a run that timed out: the same' '
	rm -f fast &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T08:00:00Z --name slow --timeout 1 \
		--exec "$PWD/job" x >/dev/null &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >out 2>err &&
	test -s slow.2026-11-23T08:00:00Z.escaper &&
	test_until 10 gone slow.2026-11-23T08:00:00Z.escaper &&
	grep -q "\"status\":\"timeout\",.*; 1 process it started outside its group outlived it and was killed\"" out
'

test_expect_success 'a run replaced (--overlap replace), and one stopped with the watcher: the same' '
	reset_store && rm -f fast &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "* * * * *" --overlap replace --name r \
		--exec "$PWD/job" p >/dev/null &&
	TASK_NOW=2026-11-23T07:00:58Z tick_watch --grace 1 &&
	test_until 30 test -s r.2026-11-23T07:01:00Z.escaper &&
	test_until 10 gone r.2026-11-23T07:00:00Z.escaper &&
	alive "$(cat r.2026-11-23T07:01:00Z.escaper)" &&
	tick_stop &&
	test_until 10 gone r.2026-11-23T07:01:00Z.escaper &&
	grep -q "\"status\":\"cancelled\",.*1 process it started outside its group outlived it and was killed\"" wout
'

test_done
