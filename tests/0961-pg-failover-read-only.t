#!/bin/sh
# tests/0960-pg-failover.t with the primary switched to read-only
# (default_transaction_read_only = on, reloaded) instead of killed, its
# connections left open, as a managed service's switchover or a fencing
# script leaves them: libpq checked target_session_attrs only when it
# connected, so the tickers must notice the refusals (25006) and an idle
# watcher must notice on its own, then find the primary through the
# host list.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'two failovers by a primary switched to read-only, its connections left open: every occurrence once, nothing lost' '
	failover_counted readonly
'

# The next look is up to a minute away (RECHECK_MS); the bound leaves room
# for a machine so busy that a promotion takes 40 s (make bench gives the
# figure).
test_expect_success 'a task added after the failovers started within seconds, not at the next look' '
	test "$(figure probe-start-ms)" -ge 0 && test "$(figure probe-start-ms)" -le 10000
'

# found_again ERR: a ticker said it lost the primary and found it again:
# a claim or sign of life refused, then the store back; or, noticed by the
# watcher between passes, a reconnection through the host list.
found_again() {
	grep -q "firing nothing until it is back" "$1" && grep -q "is back" "$1" ||
		grep -q "reconnected to the PostgreSQL store" "$1"
}

test_expect_success 'the tickers said they lost the primary and found it again' '
	{ found_again h1.err && found_again h2.err ||
		{ sed "s/^/h1: /" h1.err; sed "s/^/h2: /" h2.err; cat phases; false; }; }
'

test_done
