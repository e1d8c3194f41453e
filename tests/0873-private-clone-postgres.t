#!/bin/sh
# store: none
# The suite's PostgreSQL pass from a clone under a private directory (mode
# 0700, as root's home or a mktemp -d folder is): as root the server runs
# as the postgres user, who cannot reach the build tree there, so the pass
# puts its server where that user can; as an ordinary user the server runs
# as the user.  Either way tests/run's pass starts its server and passes.
. "$AC_TOP/tests/lib.sh"

test_expect_success 'a clone in a 0700 directory: the postgres pass starts its server and passes' '
	mkdir -m 700 home && mkdir -p home/agentcron/tests &&
	for f in run pg-server lib.sh lib-pg.sh; do
		cp "$AC_TOP/tests/$f" home/agentcron/tests/ || return 1
	done &&
	cat >home/agentcron/tests/0001-store.t <<-\EOF &&
	#!/bin/sh
	. "$AC_TOP/tests/lib.sh"
	test_expect_success "a task in a PostgreSQL store" "
		task-add --daily 09:00 --exec true --name daily p >id &&
		task-ls >out && grep -q daily out
	"
	test_done
	EOF
	chmod +x home/agentcron/tests/0001-store.t &&
	(cd home/agentcron && env -u TMPDIR -u AC_PG_DIR -u PG_TEMPLATE -u TASK_DB -u TESTS \
		tests/run "$AC_BIN" "$PWD/build" postgres) >out 2>err &&
	tail -n 1 out >actual && echo "postgres: 1 passed, 0 failed" >expect &&
	test_cmp expect actual &&
	if [ "$(id -u)" = 0 ]; then
		test ! -e home/agentcron/build/pg-template
	fi
'

test_done
