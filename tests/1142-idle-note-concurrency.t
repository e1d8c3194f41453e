#!/bin/sh
# Writers and passes at once, the clock (TASK_NOW) stepped a minute at a
# time: at each step three task-add processes add tasks due at random
# instants (some at the step's own; some a little after the passes
# start, so that they may find a note) while three passes from cron run, and
# a pass that finds nothing to do leaves its note on SQLite.  Checked
# against what was added: every task due at or before a step's instant
# and added before the step began has fired by the step's end, a task
# added during it by the next one's; none fires twice.
. "$AC_TOP/tests/lib.sh"
export TASK_EXEC=true TASK_HOST_ID=alpha
base=$(date -u -d 2026-11-23T07:00:00Z +%s)
steps=20
seed=${IDLE_SEED:-$(date +%s)}

rfc() {
	date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ
}

# check STEP NOW: the invariant after STEP, whose passes ran at NOW.
check() {
	task-log --limit 0 --json >log.json &&
	python3 - "$1" "$2" <<-\EOF
	import json, sys
	step, now = int(sys.argv[1]), int(sys.argv[2])
	runs = {}
	for l in open("log.json"):
	    r = json.loads(l)
	    runs[r["name"]] = runs.get(r["name"], 0) + 1
	bad = 0
	for l in open("adds"):
	    name, at, added = l.split()
	    n = runs.get(name, 0)
	    if n > 1 or (int(added) < step and int(at) <= now and n != 1):
	        print("step %d: %s (due %s, added at step %s) ran %d times" % (step, name, at, added, n))
	        bad = 1
	sys.exit(bad)
	EOF
}

test_expect_success "writers and passes at once, $steps steps (seed $seed)" '
	: >adds &&
	awk -v seed="$seed" -v steps="$steps" -v base="$base" "BEGIN {
		srand(seed)
		for (i = 1; i <= steps; i++)
			for (j = 1; j <= 3; j++)
				print \"s\" i \"w\" j, base + i * 60 + int(rand() * 8) * 30 + (rand() < 0.5 ? 0 : int(rand() * 30)), int(rand() * 3), i
	}" >plan &&
	i=1 &&
	while test $i -le $steps; do
		now=$((base + i * 60)) &&
		grep " $i\$" plan >step &&
		pids= &&
		while read -r name at late added; do
			{ sleep "0.0$late" && TASK_NOW=$(rfc $now) task-add --at "$(rfc $at)" --name "$name" x >/dev/null; } &
			pids="$pids $!"
		done <step &&
		for p in 1 2 3; do
			TASK_NOW=$(rfc $now) task-tick -j 8 >/dev/null &
			pids="$pids $!"
		done &&
		for p in $pids; do
			wait $p || return 1
		done &&
		cut -d" " -f1,2,4 step >>adds &&
		check $i $now || return 1
		i=$((i + 1))
	done &&
	while test $i -le $((steps + 5)); do
		TASK_NOW=$(rfc $((base + i * 60))) task-tick -j 8 >/dev/null &&
		check $i $((base + i * 60)) || return 1
		i=$((i + 1))
	done &&
	test "$(wc -l <log.json)" = $((steps * 3))
'

test_done
