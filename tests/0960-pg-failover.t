#!/bin/sh
# A PostgreSQL failover, twice, counted (tests/failover): a primary with a
# synchronous standby, two tickers on the URI that names both servers
# (target_session_attrs=read-write), a burst of one-shots, every-minute
# tasks and one-shots added meanwhile; the primary is killed and the
# standby promoted, then the old primary comes back by pg_rewind and a
# second failover goes back to it.  From the executors' own log: every
# occurrence once, every acknowledged task-add ran, no run left running
# past owner_timeout, claims on each new primary soon after it took over,
# and a task added afterwards started at once (LISTEN came back).  The
# bounds are generous: what is counted is what ran, not how fast.
# The first claim is bounded from the promotion: how long the server takes
# to promote is its own (40 s on a machine at a load of 50), and the time
# from the kill is a figure of make bench.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'two failovers by a killed primary: every occurrence once, nothing lost' '
	failover_counted kill
'

# The next look is up to a minute away (RECHECK_MS); the bound leaves room
# for a machine so busy that a promotion takes 40 s (make bench gives the
# figure).
test_expect_success 'a task added after the failovers started within seconds, not at the next look' '
	test "$(figure probe-start-ms)" -ge 0 && test "$(figure probe-start-ms)" -le 10000
'

test_expect_success 'the tickers said they lost the primary and found it again' '
	grep -q "firing nothing until it is back" h1.err &&
	grep -q "is back" h1.err && grep -q "is back" h2.err
'

test_done
