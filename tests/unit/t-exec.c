/* Unit tests for executors: how exec_split reads a command line (the
 * quoting of the executor contract), how a child that cannot start is
 * said (exec_spawn and exec_run: not found, not executable, a bad
 * interpreter, no descriptors left), what a started child gets (its own
 * process group, no signal ignored or blocked, its input, its output and
 * status), and how a run's length is written in its error text.  exec.c is
 * compiled in, so its static helpers can be checked. */
#include "exec.c"

#include <sys/resource.h>

#include "tap.h"

/* A command line's words joined by '|', or "error: " and the message. */
static void
split_words(const char *line, char *out, size_t n)
{
	char **argv;
	struct err e;
	if (exec_split(line, &argv, &e)) {
		snprintf(out, n, "error: %s", e.msg);
		return;
	}
	struct buf b = {0};
	buf_puts(&b, "");
	for (char **a = argv; *a; a++)
		buf_printf(&b, "%s%s", a == argv ? "" : "|", *a);
	snprintf(out, n, "%s", b.data);
	buf_free(&b);
	exec_argv_free(argv);
}

static void
test_split(void)
{
	static const struct { const char *line, *want; } t[] = {
		{"echo hi", "echo|hi"},
		{"  echo \t hi\n ", "echo|hi"},
		{"echo 'a  b'", "echo|a  b"},
		{"echo \"a  b\"", "echo|a  b"},
		{"echo 'it'\\''s'", "echo|it's"},
		{"echo \"say \\\"hi\\\"\"", "echo|say \"hi\""},
		{"echo \"\\$HOME \\`x\\` \\\\\"", "echo|$HOME `x` \\"},
		{"echo \"a\\b\"", "echo|a\\b"},
		{"echo 'a\\b'", "echo|a\\b"},
		{"echo a\\ b \\'", "echo|a b|'"},
		{"echo '' \"\"", "echo||"},
		{"echo $HOME *.c ~ a;b", "echo|$HOME|*.c|~|a;b"},
		{"a\"b\"'c'd", "abcd"},
		{"echo a\\", "echo|a"},
		{"/usr/bin/env FOO=1 llm-call -m 'gpt 4'", "/usr/bin/env|FOO=1|llm-call|-m|gpt 4"},
		{"echo \"a", "error: unterminated quote in command line 'echo \"a'"},
		{"echo 'a", "error: unterminated quote in command line 'echo 'a'"},
		{"echo \"a\\\"", "error: unterminated quote in command line 'echo \"a\\\"'"},
		{"", "error: empty command line"},
		{" \t\n", "error: empty command line"},
		{NULL, "error: empty command line"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char got[ERR_MAX + 16], shown[64];
		split_words(t[i].line, got, sizeof got);
		/* The line in the test's name, on one line. */
		snprintf(shown, sizeof shown, "%s", t[i].line ? t[i].line : "NULL");
		for (char *q = shown; *q; q++)
			*q = *q == '\n' ? '~' : *q == '\t' ? '_' : *q;
		check_str(got, t[i].want, "exec_split(%s)", shown);
	}
}

/* A file in dir with mode and text; its path in buf. */
static const char *
make_file(const char *dir, const char *name, const char *text, mode_t mode, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", dir, name);
	FILE *f = fopen(buf, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	chmod(buf, mode);
	return buf;
}

static void
test_start_failures(const char *dir)
{
	char script[512], plain[512], badint[512], missing[512];
	make_file(dir, "plain", "not a program\n", 0644, plain, sizeof plain);
	make_file(dir, "badint", "#!/no/such/interpreter\n", 0755, badint, sizeof badint);
	snprintf(missing, sizeof missing, "%s/missing", dir);
	make_file(dir, "ok", "#!/bin/sh\nexit 0\n", 0755, script, sizeof script);
	char want[3][1024];
	snprintf(want[0], sizeof want[0], "executor '%s' is not an executable file", plain);
	snprintf(want[1], sizeof want[1], "cannot run executor '%s': No such file or directory", badint);
	snprintf(want[2], sizeof want[2], "executor '%s' not found", missing);
	const struct { const char *cmd; int rc, how; const char *why; } t[] = {
		{"no-such-executor-here", ST_NOTFOUND, EXEC_NOTFOUND,
			"executor 'no-such-executor-here' not found in PATH"},
		{"", ST_NOTFOUND, EXEC_NOTFOUND, "empty executor name"},
		{"/", ST_NOTFOUND, EXEC_NOTFOUND, "executor '/' is not an executable file"},
		{plain, ST_NOTFOUND, EXEC_NOTFOUND, want[0]},
		{missing, ST_NOTFOUND, EXEC_NOTFOUND, want[2]},
		{badint, ST_ERR, EXEC_STARTFAIL, want[1]},
		{"ok", ST_OK, EXEC_EXITED, ""},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char *argv[] = {(char *)t[i].cmd, NULL};
		struct exec_proc p;
		struct err e = {""};
		int no_res = -1;
		/* "ok" is found in dir, after PATH. */
		int rc = exec_spawn("executor", argv, NULL, dir, 0, &p, &no_res, &e);
		check_int(rc, t[i].rc, "exec_spawn(%s): status", t[i].cmd);
		check_str(rc ? e.msg : "", t[i].why, "exec_spawn(%s): message", t[i].cmd);
		check_int(no_res, 0, "exec_spawn(%s): not for lack of resources", t[i].cmd);
		if (!rc) {
			close(p.in);
			close(p.out);
			close(p.err);
			waitpid(p.pid, NULL, 0);
		}
		struct exec_cmd c = {.argv = argv, .search_dir = dir};
		struct exec_result r;
		exec_run(&c, &r);
		check_int(r.how, t[i].how, "exec_run(%s): how it ended", t[i].cmd);
		check_str(r.how == EXEC_EXITED ? "" : r.why, t[i].why, "exec_run(%s): why", t[i].cmd);
		exec_result_free(&r);
	}
}

/* No descriptors left: a start failure that is not the command's fault. */
static void
test_no_descriptors(void)
{
	struct rlimit old, low;
	getrlimit(RLIMIT_NOFILE, &old);
	int fd = dup(0);
	low = old;
	low.rlim_cur = (rlim_t)fd + 2; /* room for one pipe of the four */
	close(fd);
	setrlimit(RLIMIT_NOFILE, &low);
	char *argv[] = {"true", NULL};
	struct exec_proc p;
	struct err e = {""};
	int no_res = 0;
	int rc = exec_spawn("executor", argv, NULL, NULL, 0, &p, &no_res, &e);
	setrlimit(RLIMIT_NOFILE, &old);
	check_int(rc, ST_ERR, "no descriptors: cannot start");
	check_int(no_res, 1, "no descriptors: for lack of resources");
	check_str(e.msg, "cannot start 'true': Too many open files", "no descriptors: message");
	int after = dup(0);
	check_int(after, fd, "no descriptors: none of its pipes left open");
	close(after);
}

/* What a started child gets. */
static void
test_child(void)
{
	static const struct {
		const char *argv[4];
		const char *input, *out, *err;
		int code;
	} t[] = {
		{{"sh", "-c", "echo out; echo err >&2; exit 3"}, NULL, "out\n", "err\n", 3},
		{{"cat"}, "the prompt\n", "the prompt\n", "", 0},
		/* Its own process group: its pid is its group's id. */
		{{"sh", "-c", "test \"$(cut -d' ' -f5 /proc/$$/stat)\" = $$ && echo own"}, NULL, "own\n",
			"", 0},
	};
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	sigset_t usr;
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr, NULL);
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct exec_cmd c = {.argv = (char *const *)t[i].argv, .input = t[i].input,
			.ninput = t[i].input ? strlen(t[i].input) : 0, .timeout_ms = 30000};
		struct exec_result r;
		exec_run(&c, &r);
		check_int(r.how, EXEC_EXITED, "%s: exited", t[i].argv[0]);
		check_int(r.code, t[i].code, "%s: status", t[i].argv[0]);
		check_str(r.out ? r.out : "", t[i].out, "%s: standard output", t[i].argv[0]);
		check_str(r.err ? r.err : "", t[i].err, "%s: standard error", t[i].argv[0]);
		exec_result_free(&r);
	}
	/* Nothing ignored or blocked, whatever the caller ignores: of the
	 * signals 1 to 31, since glibc keeps two real-time ones for itself
	 * and will not let them be reset. */
	char *const argv[] = {"grep", "^Sig\\(Ign\\|Blk\\):", "/proc/self/status", NULL};
	struct exec_cmd c = {.argv = argv, .timeout_ms = 30000};
	struct exec_result r;
	exec_run(&c, &r);
	unsigned long long blk = ~0ULL, ign = ~0ULL;
	check(r.out && sscanf(r.out, "SigBlk: %llx SigIgn: %llx", &blk, &ign) == 2,
	    "the child's signal masks read");
	check_int(blk & 0x7fffffff, 0, "no signal blocked");
	check_int(ign & 0x7fffffff, 0, "no signal ignored");
	exec_result_free(&r);
	sigprocmask(SIG_UNBLOCK, &usr, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
}

static void
test_secs(void)
{
	static const struct { int64_t ms; const char *want; } t[] = {
		{1000, "1"}, {1500, "1.5"}, {250, "0.25"}, {600000, "600"},
		{3600000, "3600"}, {86400000, "86400"}, {604800000, "604800"}, {1234567, "1234.567"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char buf[32];
		fmt_secs(buf, sizeof buf, t[i].ms);
		check_str(buf, t[i].want, "%lld ms", (long long)t[i].ms);
	}
}

int
main(void)
{
	char dir[] = "/tmp/t-exec.XXXXXX";
	const char *tmp = getenv("TMPDIR");
	char *d = tmp && *tmp ? xasprintf("%s/t-exec.XXXXXX", tmp) : xstrdup(dir);
	if (!mkdtemp(d)) {
		printf("Bail out! no scratch directory\n");
		return 1;
	}
	test_split();
	test_start_failures(d);
	test_no_descriptors();
	test_child();
	test_secs();
	char *rm = xasprintf("rm -rf '%s'", d);
	if (system(rm) != 0)
		printf("# could not remove %s\n", d);
	free(rm);
	free(d);
	return tap_done();
}
