#!/bin/sh
# A delivery not finished keeps the passes full: a pass that finds a
# receipt pending (due later: its retry waits) writes no idle note, so the
# pass at the retry's instant opens the store and delivers; once it is
# delivered, an idle pass writes the note and the next takes it.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "the answer"\n' >job && chmod +x job || exit 1
note=$TASK_DB-idle

test_expect_success 'a refused delivery waits 30 s for its retry: the passes meanwhile write no note' '
	fresh --deliver @hook &&
	echo 500 >rcv/plan &&
	tick 2026-11-23T07:00:00Z &&
	test "$(wc -l <rcv/requests)" = 1 &&
	tick 2026-11-23T07:00:10Z &&
	test ! -e "$note" &&
	tick 2026-11-23T07:00:20Z &&
	test ! -e "$note" &&
	test ! -s tick.err
'

test_expect_success 'the pass at the retry delivers; then an idle pass writes the note, the next takes it' '
	tick 2026-11-23T07:00:30Z &&
	test "$(wc -l <rcv/requests)" = 2 &&
	task-log --deliveries --status delivered >out &&
	test "$(wc -l <out)" = 1 &&
	tick 2026-11-23T07:01:00Z &&
	test "$(cut -d" " -f5 "$note")" = "$(date -u -d 2026-11-23T07:01:00Z +%s)" &&
	tick 2026-11-23T07:02:00Z &&
	test "$(cut -d" " -f5 "$note")" = "$(date -u -d 2026-11-23T07:01:00Z +%s)" &&
	test "$(stat -c %Y "$note")" = "$(date -u -d 2026-11-23T07:02:00Z +%s)"
'

test_done
