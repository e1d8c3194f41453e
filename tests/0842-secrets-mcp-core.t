#!/bin/sh
# The store's password reaches no stdio MCP server but agentcron's own
# task-mcp (so `--mcp agentcron` works on a password-protected PostgreSQL
# store, in a scheduled run too); llm-call holding a key dumps no core and
# is closed to other processes of the user; PostgreSQL service files are
# never attached, like ~/.pgpass.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY" 120 300) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export TASK_NOW OPENAI_BASE_URL OPENAI_API_KEY
mkdir -p "$XDG_CONFIG_HOME/agentcron"
# spy: a stdio "MCP server" that notes what it was given and what it can
# see of llm-call, its parent, then ends.
cat >spy <<'EOF'
#!/bin/sh
{
	echo "TASK_DB=$TASK_DB"
	echo "PGPASSWORD=${PGPASSWORD-unset}"
	grep "^Max core file size" /proc/$PPID/limits | tr -s " " | sed "s/ $//"
	if cat /proc/$PPID/environ >/dev/null 2>&1; then echo environ open; else echo environ closed; fi
} >"$HOME/spy.out"
EOF
chmod +x spy
cat >"$XDG_CONFIG_HOME/agentcron/mcp.json" <<EOF
{"mcpServers": {"spy": {"command": "$PWD/spy"}, "agentcron": {"command": "task-mcp"},
 "impostor": {"command": "$PWD/task-mcp"}}}
EOF
cp spy task-mcp
chmod 600 "$XDG_CONFIG_HOME/agentcron/mcp.json"

test_expect_success 'llm-call with a key: no core dump, its memory closed to the user'\''s processes' '
	(ulimit -c 4096 && test_expect_code 1 llm-call --mcp spy hi >out 2>err) &&
	grep "^Max core file size" spy.out >actual &&
	echo "Max core file size 0 0 bytes" >expect &&
	test_cmp expect actual &&
	if test "$(id -u)" != 0; then
		grep -q "^environ closed$" spy.out
	fi
'

test_expect_success 'PostgreSQL service files are never attached, like ~/.pgpass' '
	mkdir sys &&
	for f in .pg_service.conf my-service.conf sys/pg_service.conf; do
		printf "[db]\npassword=svc-secret\n" >"$f" || return 1
	done &&
	for f in .pg_service.conf my-service.conf sys/pg_service.conf; do
		PGSERVICEFILE=$PWD/my-service.conf PGSYSCONFDIR=$PWD/sys \
			test_expect_code 2 llm-call -a "$f" hi >out 2>err || return 1
		echo "llm-call: attachment '\''$f'\'' is never sent to a model: it is agentcron'\''s config or store, a key file, a PostgreSQL password or service file or a file of /proc" >expect &&
		test_cmp expect err || return 1
	done &&
	! grep -rq svc-secret fp
'

if test "$AC_STORE" = postgres; then
db=$(pg_db_of "$TASK_DB")
pwdb="postgresql://pwuser:s3cret@/$db?host=$AC_PG_DIR"
plain="postgresql://pwuser@/$db?host=$AC_PG_DIR"

test_expect_success 'a stdio server gets TASK_DB without the password, and no PGPASSWORD' '
	TASK_DB=$pwdb task-ls >/dev/null &&
	TASK_DB=$pwdb test_expect_code 1 llm-call --mcp spy hi >out 2>err &&
	sed -n "1,2p" spy.out >actual &&
	printf "TASK_DB=%s\nPGPASSWORD=unset\n" "$plain" >expect &&
	test_cmp expect actual &&
	TASK_DB=$plain PGPASSWORD=s3cret test_expect_code 1 llm-call --mcp impostor hi >out 2>err &&
	sed -n "1,2p" spy.out >actual &&
	test_cmp expect actual
'

test_expect_success '--mcp agentcron works on a password-protected store, by hand and scheduled' '
	TASK_DB=$pwdb task-add --manual --name listed "a task to list" >/dev/null &&
	TASK_DB=$pwdb llm-call --mcp agentcron "[[call mcp__agentcron__task_list {}]] go" >out &&
	grep -q "^tool results: Found 1 task:" out &&
	TASK_DB=$pwdb task-add --at 2026-03-01T13:00:00Z --exec "llm-call --mcp agentcron" \
		--name sched "[[call mcp__agentcron__task_list {}]] go" >/dev/null &&
	TASK_DB=$pwdb TASK_NOW=2026-03-01T13:00:00Z task-tick >out 2>err &&
	test ! -s err &&
	grep -q "\"status\":\"success\"" out &&
	pg_sql "SELECT output FROM runs" >actual &&
	grep -q "^tool results: Found 2 tasks:" actual &&
	! grep -q s3cret actual
'
fi

test_done
