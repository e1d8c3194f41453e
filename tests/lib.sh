# tests/lib.sh: a tiny TAP library in the manner of git's test suite.  Each
# test file sources it and runs in a fresh scratch directory with its own
# store, config and home, and a fixed zone.
set -u
: "${AC_BIN:?run through make check}" "${AC_BUILD:?}" "${AC_TOP:?}"
PATH=$AC_BIN:$PATH
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/agentcron.XXXXXX") || exit 1
# What the programs make in TMPDIR (a killed ticker's outcome files) goes
# with the file's scratch directory.
TMPDIR=$TEST_TMP
export TMPDIR
# Whatever a test left running in the background (test_start_ready) ends
# with the file: each notify-wait it started that still runs here (a pid
# alone may have been reused by then).
test_cleanup_() {
	for p in $(cat "$TEST_TMP/.pids" 2>/dev/null); do
		case $(readlink "/proc/$p/cwd" 2>/dev/null) in
		"$TEST_TMP" | "$TEST_TMP"/*) kill "$p" 2>/dev/null && kill -CONT "$p" 2>/dev/null ;;
		esac
	done
	[ "${AC_STORE:-}" != postgres ] || pg_drop_dbs
	cd / && rm -rf "$TEST_TMP"
}
trap test_cleanup_ EXIT
# A file stopped from outside (tests/run's time limit sends TERM) still
# cleans up: the EXIT trap runs on the way out.
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP
cd "$TEST_TMP" || exit 1
HOME=$TEST_TMP XDG_CONFIG_HOME=$TEST_TMP/config XDG_DATA_HOME=$TEST_TMP/data
TZ=UTC LC_ALL=C
# The store the programs use, one per test file, of the kind AC_STORE names
# (tests/run sets it for each pass of the suite).
case ${AC_STORE:=sqlite} in
sqlite) TASK_DB=$TEST_TMP/tasks.db ;;
postgres)
	. "$AC_TOP/tests/lib-pg.sh"
	TASK_DB=$(pg_new_db made) || { echo "Bail out! no database on the test server"; exit 1; }
	;;
*) echo "Bail out! AC_STORE=$AC_STORE: no such store"; exit 1 ;;
esac
export PATH HOME XDG_CONFIG_HOME XDG_DATA_HOME TASK_DB TZ LC_ALL AC_STORE
unset TASK_NOW TASK_EXEC TASK_NOTIFY TASK_ID TASK_RUN_ID TASK_CONTEXT TASK_MODEL \
  TASK_SYSTEM_PROMPT TASK_ATTACHMENTS TASK_MCP TASK_MCP_ALLOW TASK_HOST_ID OPENAI_API_KEY \
  OPENAI_BASE_URL ANTHROPIC_API_KEY ANTHROPIC_BASE_URL NO_COLOR NOTIFY_SOCKET \
  PGHOST PGPORT PGDATABASE PGUSER PGPASSWORD PGSERVICE PGAPPNAME PGOPTIONS LLM_CALL_TEST_WAITS

# reset_store: the store as if nothing had ever used it.
reset_store() {
	case $AC_STORE in
	sqlite) rm -f "$TASK_DB" ;;
	postgres) pg_reset_db "$TASK_DB" ;;
	esac
}

# new_store NAME: prints the locator of another empty store of this pass's
# kind (a file named NAME, or a new database), for tests that want several.
new_store() {
	case $AC_STORE in
	sqlite) echo "$TEST_TMP/$1.db" ;;
	postgres) pg_new_db ;;
	esac
}

# store_sql SQL: one query against the store, whichever it is; a row a
# line, fields separated by |, NULL as nothing.  Keep it to SQL both speak.
# Also a command, store-sql, for scripts that run one (the MCP client's).
mkdir -p "$TEST_TMP/.bin" && cat >"$TEST_TMP/.bin/store-sql" <<'EOF' && chmod +x "$TEST_TMP/.bin/store-sql" || exit 1
#!/bin/sh
case $AC_STORE in
sqlite) exec sqlite3 -separator "|" "$TASK_DB" "$1" ;;
postgres)
	db=$(printf '%s\n' "$TASK_DB" | sed 's|^postgres[a-z]*:///\([^?]*\).*|\1|')
	exec "$AC_PG_BIN/psql" -h "$AC_PG_DIR" -U postgres -d "$db" -X -q -A -t -v ON_ERROR_STOP=1 -c "$1" ;;
esac
EOF
PATH=$PATH:$TEST_TMP/.bin
store_sql() {
	store-sql "$1"
}

# store_dump: every byte the store holds, as text (to look for what must
# never be there).
store_dump() {
	case $AC_STORE in
	sqlite) sqlite3 "$TASK_DB" .dump ;;
	postgres) "$AC_PG_BIN/pg_dump" -h "$AC_PG_DIR" -U postgres --no-owner "$(pg_db_of "$TASK_DB")" ;;
	esac
}
test_count=0 test_failed=0

# A body runs inside a function, so `|| return 1` ends it from within a
# loop, as in git's tests.
test_run_() {
	eval "$1"
}

test_fail_117_() {
	return 117
}

# test_expect_success DESC BODY: BODY is shell, steps chained with &&.
# git's chain check first: run after a step that fails with 117, a body
# whose steps are all joined by && runs nothing and keeps the status 117;
# anything else means a step was not chained, so its failure would have gone
# unseen.
test_expect_success() {
	test_count=$((test_count + 1))
	if [ "$(test_run_ "test_fail_117_ && $2
echo chain-\$?" 2>/dev/null </dev/null)" != chain-117 ]; then
		echo "not ok $test_count - $1"
		echo "#   broken &&-chain: a step not joined by && (or an unclosed here-document) in"
		printf '%s\n' "$2" | sed 's/^/#   /'
		test_failed=$((test_failed + 1))
		return 0
	fi
	if (test_in_check_=1; test_run_ "$2"; test_rc_=$?; test_finished_ && exit "$test_rc_"; exit 1) \
		>"$TEST_TMP/.log" 2>&1; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		# On standard error so that prove shows it without -v.
		sed 's/^/#   /' "$TEST_TMP/.log" >&2
		test_failed=$((test_failed + 1))
	fi
}

# test_when_finished CMD: inside a body, CMD (a string of shell) runs when
# the body ends, whatever its outcome, after those registered later (as in
# git's tests): a background process a check starts, a server it takes
# down, is put back even when a step before fails, so the next checks meet
# what they expect.  A CMD that fails fails the check.  (A body that calls
# exit skips them: return 1 ends a body.)
test_in_check_=
test_when_finished() {
	test_finally_="{ $*
} || test_finally_failed_=\"\$test_finally_failed_ $((${test_finally_n_:-0} + 1))\"
${test_finally_:-}"
	test_finally_n_=$((${test_finally_n_:-0} + 1))
}
test_finally_=
test_finished_() {
	test_finally_failed_=
	eval "$test_finally_"
	[ -z "$test_finally_failed_" ] && return 0
	echo "clean-up failed: test_when_finished${test_finally_failed_} of the check" >&2
	return 1
}

# test_end PID...: each PID that still runs ended (SIGTERM) and waited
# for; for test_when_finished, so that what a check started does not
# outlive it when a step fails before the check stops it.
test_end() {
	for test_end_pid_; do
		# Only a process of this test (a pid alone may have been reused).
		case $(readlink "/proc/$test_end_pid_/cwd" 2>/dev/null) in
		"$TEST_TMP" | "$TEST_TMP"/*) ;;
		*) continue ;;
		esac
		if alive "$test_end_pid_"; then
			# A process a check stopped (SIGSTOP) takes the signal once
			# it is continued.
			kill "$test_end_pid_" 2>/dev/null
			kill -CONT "$test_end_pid_" 2>/dev/null
			wait "$test_end_pid_" 2>/dev/null
		fi
	done
	return 0
}

# test_expect_code CODE CMD...: CMD must exit with exactly CODE.
test_expect_code() {
	want=$1
	shift
	"$@"
	got=$?
	[ "$got" = "$want" ] && return 0
	echo "expected exit $want, got $got: $*" >&2
	return 1
}

# test_refused CODE CMD...: CMD, its standard input closed, exits CODE
# with one error line and nothing on standard output, and the store's
# tasks are as task-ls --json printed them into ./before.
test_refused() {
	code=$1
	shift
	test_expect_code "$code" "$@" >out 2>err </dev/null &&
	test_one_line err &&
	test ! -s out &&
	task-ls --json >after &&
	test_cmp before after
}

# task_failures: each task's name, next run and failures in a row, a line
# each in task-ls order ("None" for no next run).
task_failures() {
	task-ls --json | python3 -c '
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    print(t["name"], t["next_run_at"], t["consecutive_failures"])'
}

# test_one_line FILE: FILE holds exactly one line that starts "PROG: ".
test_one_line() {
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q '^[a-z-]*: ' "$1" && return 0
	echo "expected one error line in $1, got:" >&2
	cat "$1" >&2
	return 1
}

test_cmp() {
	diff -u "$1" "$2"
}

# test_json_norm [-t]: JSON lines on stdin to stdout as they were, but with
# each distinct UUID written <id1>, <id2>... in order of appearance and
# durations as <ms> (-t: every RFC 3339 instant as <time> too), so whole
# outputs compare; a line that is not valid JSON fails (tests/tools/json-norm).
test_json_norm() {
	"$AC_BUILD/tools/json-norm" "$@"
}

# make in the project's tree, one test file at a time: two files building
# it at once race on its objects (on a fresh clone, make check-asan's first
# `make install` builds build/default).
test_make() {
	mkdir -p "$AC_TOP/build" && flock "$AC_TOP/build/.make-lock" make "$@"
}

# test_config LINE...: the config file of this file's home with these
# lines, mode 600 as agentcron requires.
test_config() {
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	printf '%s\n' "$@" >"$XDG_CONFIG_HOME/agentcron/config" &&
	chmod 600 "$XDG_CONFIG_HOME/agentcron/config"
}

# test_until SECONDS CMD...: run CMD every 50 ms until it succeeds, for at
# most SECONDS.  For outcomes that have no signal of their own (a file that
# an executor writes, a process that ends); a daemon's readiness has one
# (test_start_ready).  The bounds are generous: the sanitizer build on a
# busy machine is slow, and a pass costs no time.
test_until() {
	test_until_n_=$(($1 * 20))
	shift
	until "$@"; do
		[ "$test_until_n_" -gt 0 ] || { echo "gave up waiting for: $*" >&2; return 1; }
		sleep 0.05
		test_until_n_=$((test_until_n_ - 1))
	done
}

# test_start_ready OUT ERR [-s SOCKET] CMD [ARG...]: start CMD in the
# background, its stdout in OUT and stderr in ERR, under notify-wait
# (tests/tools/notify-wait.c), and return once CMD has sent READY=1 to
# $NOTIFY_SOCKET, as systemd's Type=notify services do (within 30 s, else
# fail).  test_ready_pid is then the pid to signal and wait for in CMD's
# place, and every state CMD sends goes to the file $test_ready_log (.OUT.notify
# beside OUT), one a line.  Started inside a check, CMD is ended when the
# check ends if it still runs then (test_end); outside, with the file.
test_start_ready() {
	test_ready_out_=$1 test_ready_err_=$2
	test_ready_log=$(dirname "$1")/.$(basename "$1").notify
	shift 2
	rm -f "$TEST_TMP/.ready" && mkfifo "$TEST_TMP/.ready" || return 1
	"$AC_BUILD/tools/notify-wait" -r 3 -l "$test_ready_log" "$@" \
		>"$test_ready_out_" 2>"$test_ready_err_" 3>"$TEST_TMP/.ready" &
	test_ready_pid=$!
	echo "$test_ready_pid" >>"$TEST_TMP/.pids"
	# Started by a check, it ends with the check at the latest.
	[ -z "${test_in_check_:-}" ] || test_when_finished "test_end $test_ready_pid"
	test_ready_=
	read -r test_ready_ <"$TEST_TMP/.ready"
	[ "$test_ready_" = READY=1 ] && return 0
	echo "not ready: $*" >&2
	cat "$test_ready_err_" >&2
	return 1
}

# sbin NAME: the path of a system program Debian keeps in /usr/sbin or
# /sbin (ldconfig, runuser), which a minimal PATH without sbin directories
# (env -i, some CI runners) does not search.
sbin() {
	command -v "$1" && return 0
	for sbin_dir_ in /usr/sbin /sbin; do
		[ -x "$sbin_dir_/$1" ] && echo "$sbin_dir_/$1" && return 0
	done
	echo "no $1 in PATH, /usr/sbin or /sbin" >&2
	return 1
}

# ms: the time in milliseconds, to measure that something took at least
# so long (an upper bound on wall time belongs in make bench: a busy
# machine or the sanitizers make any of them flaky).
ms() {
	echo $(($(date +%s%N) / 1000000))
}

# tick_watch [OPTION...]: start task-tick --watch and return once it is
# armed (READY=1 on $NOTIFY_SOCKET), its output in wout and werr; its pid
# goes to the file watcher.
tick_watch() {
	test_start_ready wout werr task-tick --watch "$@" &&
	echo "$test_ready_pid" >watcher
}

# tick_stop: SIGTERM to that watcher, which must exit 0; else what it said.
tick_stop() {
	kill -TERM "$(cat watcher)" && wait "$(cat watcher)" && return 0
	echo "the watcher did not exit 0; it said:" >&2
	cat werr >&2
	return 1
}

# lines FILE N: FILE has at least N lines (a missing file has none), for
# test_until.
lines() {
	[ "$(cat "$1" 2>/dev/null | wc -l)" -ge "$2" ]
}

# in_s N: the instant N seconds from now, RFC 3339 UTC.
in_s() {
	rfc3339 $(($(date +%s) + $1))
}

# keep_a_day_from T: the config keeps a day of runs (keep = 1d), and the
# clock stands at T (TASK_NOW, exported); now is T in seconds since the
# epoch, for the instants a check moves on to (rfc3339).
keep_a_day_from() {
	test_config "keep = 1d" &&
	TASK_NOW=$1 && export TASK_NOW &&
	now=$(date -u -d "$1" +%s)
}

# rows_in TABLE: how many rows the store's TABLE holds.
rows_in() {
	store_sql "SELECT count(*) FROM $1"
}

# rfc3339 SECONDS: that second since the epoch, RFC 3339 UTC.
rfc3339() {
	date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ
}

# filler_runs TASK N FROM: N manual runs of TASK that succeeded, a second
# apart after FROM (seconds since the epoch), rows ids r1..rN: more than
# are kept, so that pruning takes the older runs.
filler_runs() {
	store_sql "INSERT INTO runs (id, task_id, slot, trigger, status, started_at, ended_at)
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $2)
		SELECT 'r' || i, '$1', NULL, 'manual', 'success', $3 + i, $3 + 1 + i FROM n"
}

# alive PID: a live process (a zombie is not).
alive() {
	alive_state_=$(cut -d" " -f3 "/proc/$1/stat" 2>/dev/null) && [ "$alive_state_" != Z ]
}

# uuids: stdin to stdout with every UUID written <uuid>.
uuids() {
	sed "s/[0-9a-f]\{8\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}/<uuid>/g"
}

# client ARG...: tests/tools/mcp-client, an MCP client driven by a script,
# bounded to a minute.
client() {
	"$AC_BUILD/tools/mcp-client" -t 60 "$@"
}

# provider_start DIR KEY [IDLE [MAX]]: the stand-in model provider
# (tests/tools/fake-provider) in the background, its logs in DIR; prints
# the port it listens on.  Requests must carry KEY ("": none).  It ends
# with the test file, or after IDLE seconds without a request (default
# 300), or MAX in all (default 900): long enough for a file's checks
# between two requests under the sanitizers on a busy machine.
provider_start() {
	FAKE_PROVIDER_KEY=$2 "$AC_BUILD/tools/fake-provider" -d "$TEST_TMP/$1" -i "${3:-300}" \
		-t "${4:-900}" || return 1
	cat "$TEST_TMP/$1/pid" >>"$TEST_TMP/.pids"
}

# openai_stand_in: the stand-in provider (tests/tools/fake-provider, its
# record in $TEST_TMP/fp) started, OPENAI_BASE_URL exported for it, its
# port in $port.
openai_stand_in() {
	port=$(provider_start fp "" 300 900) || return 1
	OPENAI_BASE_URL=http://127.0.0.1:$port/v1
	export OPENAI_BASE_URL
}

# links: how many tasks follow another (--after).
links() {
	store_sql "SELECT count(*) FROM tasks WHERE after_tasks IS NOT NULL"
}

# loop_race F1 F2 JUDGE: 40 rounds of F1 and F2 (commands or functions)
# started together, each closing half of a loop of --after: a round may
# leave one link made, never both, and JUDGE (reading out1, err1, out2,
# err2 and the statuses $r1 and $r2) must take its outcome.  The links
# are undone after each round.
loop_race() {
	loop_race_i_=0
	while test $loop_race_i_ -lt 40; do
		"$1" >out1 2>err1 &
		loop_race_p_=$!
		"$2" >out2 2>err2
		r2=$?
		wait $loop_race_p_
		r1=$?
		test "$(links)" = 1 && "$3" || { cat out1 err1 out2 err2; return 1; }
		store_sql "UPDATE tasks SET after_tasks = NULL" >/dev/null || return 1
		loop_race_i_=$((loop_race_i_ + 1))
	done
}

# watcher_said FILE: what a task-tick --watch wrote to standard error
# (FILE), but the line it always writes when it starts and the one when it
# stops (0409 checks those).
watcher_said() {
	sed '/^task-tick: watching store /d; /^task-tick: stopped watching store /d' "$1"
}

# fake_llm_call DIR: an llm-call in DIR (to put first in PATH) that logs to
# $GATE_LOG when it starts and ends ("start|end TASK_ID MODEL SECONDS
# HOST"), takes $GATE_SLEEP seconds (0.3) and answers ok; in_flight_max
# [MODEL]: the most of its runs (of MODEL) in flight at once, from that log.
fake_llm_call() {
	mkdir -p "$1" && cat >"$1/llm-call" <<-\EOF && chmod +x "$1/llm-call"
	#!/bin/sh
	echo "start $TASK_ID ${TASK_MODEL:-none} $(date +%s.%N) $(hostname)" >>"$GATE_LOG"
	sleep "${GATE_SLEEP:-0.3}"
	echo "end $TASK_ID ${TASK_MODEL:-none} $(date +%s.%N) $(hostname)" >>"$GATE_LOG"
	echo ok
	EOF
}
in_flight_max() {
	awk -v m="${1:-}" 'm == "" || $3 == m { print ($1 == "start" ? 1 : -1), $4 }' "$GATE_LOG" |
		sort -k2,2n -k1,1n | awk '{ c += $1; if (c > n) n = c } END { print n + 0 }'
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
}

# run_logger [--input]: ./ex, an executor that notes each run in ./log,
# "NAME TRIGGER" (with --input: "NAME TRIGGER SLOT <its input, | for each
# line end>"), and answers "answer of NAME" (with --input: "... at SLOT").
run_logger() {
	if [ "${1:-}" = --input ]; then
		cat >ex <<-\EOT
		#!/bin/sh
		in=$(cat | tr '\n' '|')
		echo "$TASK_NAME $TASK_TRIGGER $TASK_SLOT <$in>" >>log
		echo "answer of $TASK_NAME at $TASK_SLOT"
		EOT
	else
		cat >ex <<-\EOT
		#!/bin/sh
		echo "$TASK_NAME $TASK_TRIGGER" >>log
		echo "answer of $TASK_NAME"
		EOT
	fi
	chmod +x ex
}

# npm_once NAME FILE: the node packages tests/NAME/package.json lists,
# installed into build/NAME once for both runs of the suite: again only
# when that list changed or FILE (a path below build/NAME that the install
# makes) is missing.  What npm said when it fails.
npm_once() {
	npm_dir_=$AC_TOP/build/$1
	mkdir -p "$AC_TOP/build" || return 1
	# The two passes of the suite run side by side: one installs while the
	# other waits, then finds it installed (never removed under its feet).
	(
		flock 9 || exit 1
		cmp -s "$AC_TOP/tests/$1/package.json" "$npm_dir_/package.json" && test -e "$npm_dir_/$2" &&
			exit 0
		rm -rf "$npm_dir_/node_modules" && mkdir -p "$npm_dir_" &&
		cp "$AC_TOP/tests/$1/package.json" "$npm_dir_/" &&
		(cd "$npm_dir_" && npm install --no-audit --no-fund --loglevel=error >npm.log 2>&1) ||
		{ cat "$npm_dir_/npm.log"; exit 1; }
	) 9>"$AC_TOP/build/$1.lock"
}
