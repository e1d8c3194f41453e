#!/bin/sh
# task-log --diff: what changed between two runs' answers, by line (as
# diff -u) or by word; a notify hook told of a change gets the diff too.
. "$AC_TOP/tests/lib.sh"

cat >hook <<EOF2
#!/bin/sh
cat >>"$PWD/hook.log"
EOF2
chmod +x hook

# The id of task NAME's newest run.
last_run() {
	task-log --json --task "$1" | head -n 1 | sed 's/.*"id":"\([^"]*\)".*/\1/'
}

test_expect_success 'a run compared with its task'\''s success before it, line by line' '
	printf "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n" >answer &&
	task-add --manual --name d --exec "cat $PWD/answer" --notify-on change --notify "$PWD/hook" \
		x >/dev/null &&
	TASK_NOW=2026-11-29T01:00:00Z task-run d >/dev/null && last_run d >first &&
	printf "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\n" >answer &&
	TASK_NOW=2026-11-29T01:01:00Z task-run d >/dev/null && last_run d >second &&
	task-log --diff "$(cat second)" >actual &&
	cat >expect <<-EOT &&
	--- run $(cut -c1-8 first) (manual, 2026-11-29T01:00:00Z)
	+++ run $(cut -c1-8 second) (manual, 2026-11-29T01:01:00Z)
	@@ -1,5 +1,5 @@
	 a
	-b
	+B
	 c
	 d
	 e
	@@ -8,3 +8,4 @@
	 h
	 i
	 j
	+k
	EOT
	test_cmp expect actual &&
	task-log --diff "$(cat first)" "$(cat second)" >actual2 &&
	test_cmp expect actual2
'

test_expect_success 'the notify hook told of the change carries the diff' '
	tail -n 1 hook.log >last &&
	grep "\"event\":\"change\"" last >/dev/null &&
	sed "s/.*\"diff\":\"\([^\"]*\)\".*/\1/" last >actual &&
	{ awk -v ORS="\\\\n" 1 expect; echo; } >want &&
	test_cmp want actual
'

test_expect_success 'by word, inline; as JSON; the same answers differ in nothing' '
	echo "the quick brown fox" >answer &&
	TASK_NOW=2026-11-29T01:02:00Z task-run d >/dev/null &&
	echo "the slow brown dog" >answer &&
	TASK_NOW=2026-11-29T01:03:00Z task-run d >/dev/null && last_run d >fourth &&
	task-log --diff --words "$(cat fourth)" >actual &&
	echo "the [-quick-]{+slow+} brown [-fox-]{+dog+}" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-29T01:04:00Z task-run d >/dev/null && last_run d >fifth &&
	task-log --diff "$(cat fifth)" >actual &&
	test ! -s actual &&
	task-log --diff --json "$(cat fifth)" >actual &&
	echo "{\"from\":\"$(cat fourth)\",\"to\":\"$(cat fifth)\",\"changed\":false,\"diff\":\"\"}" >expect &&
	test_cmp expect actual
'

test_expect_success 'bad input: one line, the documented status' '
	test_expect_code 3 task-log --diff "$(cat first)" >out 2>err && test_one_line err &&
	test ! -s out &&
	test_expect_code 3 task-log --diff 00000000 2>err && test_one_line err &&
	test_expect_code 2 task-log --diff 2>err && test_one_line err &&
	test_expect_code 2 task-log --words "$(cat first)" 2>err && test_one_line err &&
	test_expect_code 2 task-log --diff a b c 2>err && test_one_line err &&
	test_expect_code 2 task-log --diff --task d "$(cat first)" 2>err && test_one_line err
'

test_done
