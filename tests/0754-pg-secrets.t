#!/bin/sh
# The PostgreSQL password in every form a URI may carry it (user:PASSWORD@,
# password=, a percent-encoded key, sslpassword=, a malformed URI that
# libpq quotes whole) never printed: not in errors, not in --print-cron,
# not in TASK_DB; executors still reach the store (PGPASSWORD).
. "$AC_TOP/tests/lib.sh"
TASK_DB=$(pg_new_db) || exit 1
export TASK_DB
db=$(pg_db_of "$TASK_DB")
base="postgresql://pwuser@/$db?host=$AC_PG_DIR"

test_expect_success 'every form of a wrong password: one line, the password nowhere' '
	for uri in "postgresql://pwuser:Wr0ngPw@/$db?host=$AC_PG_DIR" \
		"$base&password=Wr0ngPw" "$base&pass%77ord=Wr0ngPw" "$base&%70assword=Wr%30ngPw" \
		"$base&sslpassword=Wr0ngPw&password=Wr0ngPw"; do
		test_expect_code 1 env TASK_DB="$uri" task-ls 2>err && test_one_line err &&
		! grep -q -e Wr0ngPw -e Wr%30ngPw err &&
		grep -q "^task-ls: cannot connect to the PostgreSQL store .*password authentication failed" err ||
		return 1
	done
'

test_expect_success 'a malformed URI that libpq quotes whole: the password masked in the quote' '
	test_expect_code 1 env TASK_DB="postgresql://pwuser:Wr0ngPw@[::1/$db" task-ls 2>err &&
	test_one_line err && ! grep -q Wr0ngPw err &&
	echo "task-ls: cannot connect to the PostgreSQL store '\''postgresql://pwuser@[::1/$db'\'': end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"postgresql://pwuser@[::1/$db\"" >expect &&
	test_cmp expect err &&
	test_expect_code 1 env TASK_DB="postgresql://pwuser:Wr0ngPw@/$db?host=$AC_PG_DIR&password" task-ls 2>err &&
	test_one_line err && ! grep -q Wr0ngPw err
'

test_expect_success 'the names a store goes by drop every secret parameter, in any spelling' '
	TASK_DB="$base&pass%77ord=s3cret&sslpassword=Ssl0Pw&%73slpassword=Ssl1Pw&connect_timeout=5" \
		task-tick --print-cron >cron &&
	grep -q "TASK_DB=.*connect_timeout=5" cron &&
	! grep -q -e s3cret -e Ssl0Pw -e Ssl1Pw -e password cron &&
	for u in "postgresql://u:p?ss@h/db" "postgresql://u:p%40ss@h/db?password=x&sslmode=require" \
		"postgres://h/db?PassWord=zz&pass%57ord=yy&application_name=a" "postgresql://u@h/db?%ZZ=q"; do
		TASK_DB=$u task-tick --print-cron | grep -o "TASK_DB=[^ ]*" || return 1
	done >actual &&
	cat >expect <<-\EOF &&
	TASK_DB='\''postgresql://u@h/db'\''
	TASK_DB='\''postgresql://u@h/db?sslmode=require'\''
	TASK_DB='\''postgres://h/db?application_name=a'\''
	TASK_DB='\''postgresql://u@h/db'\''
	EOF
	test_cmp expect actual
'

test_expect_success 'executors get TASK_DB without the password and reach the store with it' '
	printf "#!/bin/sh\necho \"\$TASK_DB\"\ntask-show --json \"\$TASK_ID\" | grep -c secret-run\n" >show-db &&
	chmod +x show-db &&
	for uri in "postgresql://pwuser:s3cret@/$db?host=$AC_PG_DIR" "$base&pass%77ord=s3cret"; do
		id=$(TASK_DB=$uri TASK_NOW=2026-11-23T06:00:00Z task-add --at 2026-11-23T07:00:00Z \
			--exec "$PWD/show-db" --name secret-run x) &&
		TASK_DB=$uri TASK_NOW=2026-11-23T07:00:00Z task-tick >out 2>err &&
		test ! -s err && ! grep -q s3cret out &&
		TASK_DB=$uri task-log "$(TASK_DB=$uri task-log --task "$id" | cut -f1)" >log &&
		sed -n "/^output:/,/^error:/p" log >actual &&
		printf "output:\n  %s\n  1\nerror:\n" "$base" >expect &&
		test_cmp expect actual || return 1
	done &&
	pg_sql "SELECT count(*) FROM runs WHERE output LIKE '\''%s3cret%'\''" >n &&
	echo 0 >expect && test_cmp expect n
'

test_done
