#!/bin/sh
# The text filter on PostgreSQL: a store whose role may install pg_trgm
# gets a trigram index of names and prompts (schema step 21, on a table of
# their own since step 23, kept by triggers: a claim or a run's end writes
# neither); a role that
# may not (no CREATE on the database) gets its schema all the same,
# without the index, and the filter gives the same tasks in the same
# order; the server uses the index for a rare text; a store of schema 20
# is brought up to date.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

role=plain$$
pg_psql postgres -c "CREATE ROLE $role LOGIN" >/dev/null || exit 1
plain=$(pg_new_db) || exit 1
pg_psql "$(pg_db_of "$plain")" -c "GRANT CREATE ON SCHEMA public TO $role" >/dev/null || exit 1
plain=$(printf '%s\n' "$plain" | sed "s/user=postgres/user=$role/")

# The schema version this agentcron gives a new store: its numbered steps
# and the columns of its fields (task_fields.h).
schema=$(d=$(new_store schema) && TASK_DB=$d task-add --manual --name v x >/dev/null &&
	TASK_DB=$d store_sql "SELECT max(version) FROM agentcron_schema") || exit 1

# fill: the same tasks in the store TASK_DB names.
fill() {
	TASK_NOW=2026-12-01T00:00:00Z task-add --manual --name "Quarterly report" "Write the REPORT" >/dev/null &&
	TASK_NOW=2026-12-01T00:00:00Z task-add --manual --name "café menu" "list the dishes" >/dev/null &&
	TASK_NOW=2026-12-01T00:00:00Z task-add --cron "0 9 * * *" --name "walrus watch" "count 100% of them" >/dev/null &&
	TASK_NOW=2026-12-01T00:00:00Z task-add --cron "0 8 * * *" --name "otters" "report_on otters" >/dev/null &&
	TASK_NOW=2026-12-01T00:00:00Z task-add --manual --name "to the trash" "a report on badgers" >/dev/null &&
	task-rm "to the trash" >/dev/null
}
# names TEXT: the names task-web's /api/tasks gives for ?q=TEXT, in order.
names() {
	curl -s --max-time 20 -H "Authorization: Bearer $tok" "$url/api/tasks?q=$1" |
		tr "{" "\n" | sed -n "s/.*\"name\":\"\([^\"]*\)\".*/\1/p"
}

test_expect_success 'a role that may install pg_trgm: the extension and the index' '
	fill &&
	store_sql "SELECT (SELECT count(*) FROM pg_extension WHERE extname = '\''pg_trgm'\''),
	    (SELECT count(*) FROM pg_indexes WHERE indexname = '\''task_text_trgm'\''),
	    (SELECT count(*) FROM pg_indexes WHERE tablename = '\''tasks'\'' AND indexdef LIKE '\''% USING gin %'\''),
	    (SELECT max(version) FROM agentcron_schema)" >actual &&
	echo "1|1|0|$schema" >expect && test_cmp expect actual
'

test_expect_success 'a role that may not: the schema without the index, no error' '
	TASK_DB=$plain fill 2>err &&
	test ! -s err &&
	TASK_DB=$plain task-ls | cut -f2 | sort >actual &&
	printf "Quarterly report\ncafé menu\notters\nwalrus watch\n" | sort >expect &&
	test_cmp expect actual &&
	pg_psql "$(pg_db_of "$plain")" -c "SELECT (SELECT count(*) FROM pg_extension WHERE extname = '\''pg_trgm'\''),
	    (SELECT count(*) FROM pg_indexes WHERE indexname = '\''task_text_trgm'\''),
	    (SELECT max(version) FROM agentcron_schema)" >actual &&
	echo "0|0|$schema" >expect && test_cmp expect actual
'

task-web --new-token t >tok 2>/dev/null && tok=$(cat tok)
web_start
for q in report REPORT rep re r walrus "100%25" "_on" "%C3%A9" CAFÉ badgers nothing; do
	names "$q" >"with.$q"
done
kill "$web_pid" && wait "$web_pid" 2>/dev/null
TASK_DB=$plain task-web --new-token t >tok 2>/dev/null && tok=$(cat tok)
TASK_DB=$plain web_start
for q in report REPORT rep re r walrus "100%25" "_on" "%C3%A9" CAFÉ badgers nothing; do
	names "$q" >"without.$q"
done
kill "$web_pid" && wait "$web_pid" 2>/dev/null

test_expect_success 'with the index and without: the same tasks, in the same order' '
	printf "otters\nQuarterly report\n" >expect && test_cmp expect with.report &&
	test_cmp expect with.REPORT &&
	echo otters >expect && test_cmp expect with._on &&
	echo "walrus watch" >expect && test_cmp expect with.100%25 &&
	test ! -s with.badgers && test ! -s with.nothing &&
	for q in report REPORT rep re r walrus "100%25" "_on" "%C3%A9" CAFÉ badgers nothing; do
		test_cmp "with.$q" "without.$q" || return 1
	done
'

test_expect_success 'among 5,000 tasks the server reads a rare text through the index' '
	store_sql "CREATE TEMP TABLE f AS SELECT t.* FROM tasks t, generate_series(1, 5000) i
	    WHERE t.name = '\''otters'\''; CREATE TEMP SEQUENCE n;
	    UPDATE f SET id = gen_random_uuid()::text, name = '\''filler'\'', prompt = '\''nothing here'\'',
	    seq = seq + 1000000 + nextval('\''n'\''), dedup = NULL;
	    INSERT INTO tasks SELECT * FROM f" >/dev/null &&
	store_sql "VACUUM ANALYZE tasks" &&
	store_sql "VACUUM ANALYZE task_text" &&
	p="'\''%walrus%'\'' ESCAPE '\''\\'\''" &&
	store_sql "EXPLAIN SELECT id FROM tasks WHERE deleted_at IS NULL
	    AND (name ILIKE $p OR prompt ILIKE $p)
	    AND id IN (SELECT id FROM task_text WHERE name ILIKE $p OR prompt ILIKE $p)" >plan &&
	grep -q "Bitmap Index Scan on task_text_trgm" plan &&
	! grep -q "Seq Scan on tasks" plan
'

test_expect_success 'runs write nothing of the text; an edit, a new task and a purge do' '
	before=$(store_sql "SELECT x.xmin FROM task_text x JOIN tasks USING (id) WHERE tasks.name = '\''otters'\''") &&
	TASK_NOW=2026-12-01T00:00:00Z task-add --manual --exec true --name quick "a quick one" >/dev/null &&
	for i in 1 2 3; do task-run otters --exec true >/dev/null 2>&1; task-run quick >/dev/null || return 1; done &&
	after=$(store_sql "SELECT x.xmin FROM task_text x JOIN tasks USING (id) WHERE tasks.name = '\''otters'\''") &&
	test "$before" = "$after" &&
	task-edit otters --name "sea otters" --prompt "count the otters" >/dev/null &&
	task-web --new-token t2 >tok 2>/dev/null && tok=$(cat tok) &&
	web_start && test_when_finished "web_stop" &&
	names "sea%20ott" >actual && echo "sea otters" >expect && test_cmp expect actual &&
	names "report_on" >actual && test ! -s actual &&
	names "the%20otters" >actual && test_cmp expect actual &&
	task-rm quick >/dev/null && task-rm --purge >/dev/null &&
	store_sql "SELECT count(*) FROM task_text WHERE name = '\''quick'\''" >actual &&
	echo 0 >expect && test_cmp expect actual &&
	store_sql "SELECT count(*) FROM tasks t FULL JOIN task_text x USING (id)
	    WHERE x.id IS NULL OR t.id IS NULL OR x.name IS DISTINCT FROM t.name
	    OR x.prompt IS DISTINCT FROM t.prompt" >actual &&
	echo 0 >expect && test_cmp expect actual
'

test_expect_success 'a store of schema 20 is brought up to date' '
	store_sql "DROP TRIGGER task_text_add ON tasks; DROP TRIGGER task_text_edit ON tasks;
	    DROP TRIGGER task_text_drop ON tasks; DROP TABLE task_text; DROP EXTENSION pg_trgm;
	    UPDATE agentcron_schema SET version = 20" &&
	task-ls >/dev/null &&
	store_sql "SELECT (SELECT count(*) FROM pg_indexes WHERE indexname = '\''task_text_trgm'\''),
	    (SELECT count(*) FROM pg_indexes WHERE indexname = '\''tasks_text'\''),
	    (SELECT count(*) FROM task_text),
	    (SELECT max(version) FROM agentcron_schema)" >actual &&
	echo "1|0|$(store_sql "SELECT count(*) FROM tasks")|$schema" >expect && test_cmp expect actual
'

pg_psql postgres -c "DROP DATABASE $(pg_db_of "$plain") WITH (FORCE)" -c "DROP ROLE $role" >/dev/null
test_done
