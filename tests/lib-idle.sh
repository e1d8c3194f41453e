# tests/lib-idle.sh: what the tests of the idle pass's note share (1140 on
# a store file, 1189 on PostgreSQL), sourced after lib.sh.  Each file has
# its own fast T and full T: the note is not the same on the two stores.

# at T: the instant T in seconds.
at() {
	date -u -d "$1" +%s
}

# pass T: a pass from cron at T that prints nothing and succeeds.
pass() {
	TASK_NOW=$1 task-tick >out 2>err &&
	test ! -s out &&
	test ! -s err
}

# config_edits T1 T2 T3 T4 T5: the config made, edited and removed, a full
# pass after each (T1, T3, T4), and the note taken at T2 and T5.
config_edits() {
	test_config "pass_claim_time = 30" &&
	full "$1" &&
	fast "$2" &&
	test_config "pass_claim_time = 40" &&
	full "$3" &&
	rm "$XDG_CONFIG_HOME/agentcron/config" &&
	full "$4" &&
	fast "$5"
}

# day_bound DAY NEXT: a note written late on DAY stands until its end, and
# the first pass of NEXT is a full one.
day_bound() {
	full "${1}T23:30:00Z" &&
	fast "${1}T23:59:59Z" &&
	full "${2}T00:00:00Z" &&
	fast "${2}T00:10:00Z"
}
