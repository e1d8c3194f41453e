#!/bin/sh
# task-tick --print-systemd | sh on a machine whose init is not systemd:
# it says so, names --print-cron and --watch, exits 1 and writes nothing
# (before, it wrote the units and then failed on the bus, leaving them).
. "$AC_TOP/tests/lib.sh"

mkdir -p fakebin && printf '#!/bin/sh\necho "$@" >>"$HOME/systemctl.log"\n' >fakebin/systemctl &&
chmod +x fakebin/systemctl || exit 1

# Whatever this machine runs, the script's test looks at a directory that
# is not there (as /run/systemd/system is without systemd).
no_systemd() {
	sed "s|/run/systemd/system|$TEST_TMP/no-systemd-here|"
}

test_expect_success 'the script tests what sd_booted(3) tests' '
	task-tick --print-systemd >script &&
	grep -q "^if \[ ! -d /run/systemd/system \]; then" script
'

test_expect_success 'no systemd: nothing written, one line naming the ways that work' '
	task-tick --print-systemd | no_systemd | PATH=$PWD/fakebin:$PATH test_expect_code 1 sh >out 2>err &&
	test_one_line err &&
	grep -q "systemd is not this machine.s init: nothing written" err &&
	grep -q -- "--print-cron" err && grep -q -- "--watch" err &&
	test ! -s out && test ! -e config/systemd && test ! -e systemctl.log
'

test_expect_success 'the same for --watch' '
	task-tick --print-systemd --watch | no_systemd | PATH=$PWD/fakebin:$PATH test_expect_code 1 sh 2>err &&
	test_one_line err && test ! -e config/systemd && test ! -e systemctl.log
'

test_done
