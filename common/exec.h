/* exec.h: executors started without a shell.  A command line is split into
 * words with shell-style quoting and its first word looked up in PATH; the
 * child runs in its own process group with the input on its standard input;
 * standard output and error are read together with poll (neither pipe can
 * fill and block it) and kept up to a cap while the rest is drained; past a
 * timeout the whole group gets SIGTERM, then SIGKILL after a grace.  Any
 * number of children are supervised from one loop (a pool). */
#ifndef AC_EXEC_H
#define AC_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

#define EXEC_CAP (1024 * 1024)     /* bytes kept per stream */
#define EXEC_KILL_GRACE_MS 2000    /* SIGTERM to SIGKILL */
#define EXEC_DRAIN_MS 200          /* reading on after the child exited */
/* The executor contract's "retrying will not help": a run that exits with
 * it is failed at once, without the retries of a one-shot (EX_CONFIG). */
#define EXEC_EXIT_PERMANENT 78

struct exec_cmd {
	char *const *argv;         /* argv[0]: a path, or a name looked up in PATH */
	char *const *envp;         /* the whole environment; NULL: the caller's */
	const char *search_dir;    /* looked in after PATH, or NULL */
	const char *input;         /* standard input, or NULL for none */
	size_t ninput;
	int64_t timeout_ms;        /* 0: none */
	int64_t kill_grace_ms;     /* 0: EXEC_KILL_GRACE_MS */
	int64_t drain_ms;          /* 0: EXEC_DRAIN_MS */
	size_t cap;                /* 0: EXEC_CAP */
	int die_with_parent;       /* SIGKILL the child if the caller dies */
};

enum { EXEC_EXITED, EXEC_SIGNALED, EXEC_TIMEOUT, EXEC_NOTFOUND, EXEC_STARTFAIL };

struct exec_result {
	void *tag;                 /* as given to exec_pool_start */
	int how;                   /* EXEC_* */
	int code;                  /* exit status (EXITED) or signal (SIGNALED, TIMEOUT: -1 if it exited) */
	int stopped;               /* ended by exec_pool_stop */
	int leftovers;             /* processes of its group outlived it and were killed */
	int no_resources;          /* EXEC_STARTFAIL for lack of descriptors, processes or memory */
	pid_t pid;                 /* 0 if it never started */
	char *out, *err;           /* kept output, NUL-terminated, ending in a mark when cut */
	size_t nout, nerr;
	size_t dropped_out, dropped_err;
	int64_t duration_ms;
	char why[ERR_MAX + 64];    /* how it ended, one line: "exited with status 3", ... */
};

struct exec_pool;

/* exec_spawn.c */
/* Split a command line: words separated by blanks, '...' literal, "..."
 * with \\ \" \$ \` escapes, a backslash outside quotes escapes the next
 * character.  No expansions.  ST_INVALID on an unterminated quote or an
 * empty line.  *argv is NULL-terminated; free with exec_argv_free. */
int exec_split(const char *line, char ***argv, struct err *e);
void exec_argv_free(char **argv);
int exec_check(const char *line, struct err *e); /* exec_split's verdict alone */
/* Find an executable: a name with a slash as is, else each PATH directory
 * then dir (may be NULL).  ST_NOTFOUND, naming it as what:
 * "executor 'x' not found in PATH". */
int exec_find(const char *what, const char *name, const char *dir, char **path, struct err *e);
/* Start a child the one way agentcron starts any (executors, notify hooks,
 * MCP servers): argv[0] found by exec_find (what names it in errors), no
 * shell, its own process group, every signal at its default and none
 * blocked, envp (NULL: the caller's), standard input, output and error on
 * pipes whose other ends come back in p, non-blocking and close-on-exec;
 * die: SIGKILLed if the caller dies first.  ST_NOTFOUND as exec_find;
 * ST_ERR when it cannot start ("cannot run executor 'x': Permission
 * denied"), *no_resources set when for lack of descriptors, processes or
 * memory. */
struct exec_proc {
	pid_t pid;
	int in, out, err;
};
int exec_spawn(const char *what, char *const *argv, char *const *envp, const char *dir, int die,
    struct exec_proc *p, int *no_resources, struct err *e);

/* exec.c */
struct exec_pool *exec_pool_new(void);
void exec_pool_free(struct exec_pool *p);       /* SIGKILLs and reaps what still runs */
size_t exec_pool_count(const struct exec_pool *p); /* started and not yet returned */
/* 1 if pid is a command of p's, not yet returned (its to reap). */
int exec_pool_has_pid(const struct exec_pool *p, pid_t pid);
/* 1 if match(tag, arg) holds for a command started and not yet returned. */
int exec_pool_find(const struct exec_pool *p, int (*match)(void *tag, void *arg), void *arg);
/* Start c (copied).  A command that cannot start is not an error here: its
 * result (EXEC_NOTFOUND or EXEC_STARTFAIL, with why) comes from
 * exec_pool_wait like any other. */
void exec_pool_start(struct exec_pool *p, const struct exec_cmd *c, void *tag);
/* A command that failed before it could start (a bad command line): its
 * result comes back like any other, with how and why. */
void exec_pool_fail(struct exec_pool *p, void *tag, int how, const char *why);
/* Supervise the children for up to timeout_ms (-1: no limit).  Returns 1
 * with *r filled (free with exec_result_free) when one has finished; 0 when
 * the time is up or one of fds is readable. */
int exec_pool_wait(struct exec_pool *p, int64_t timeout_ms, const int *fds, int nfds,
    struct exec_result *r);
void exec_pool_stop(struct exec_pool *p);       /* SIGTERM every group; SIGKILL after the grace */
void exec_pool_stop_within(struct exec_pool *p, int64_t grace_ms); /* the same, grace at most grace_ms */
void exec_pool_stop_tag(struct exec_pool *p, void *tag); /* the same for the one started with tag */
void exec_result_free(struct exec_result *r);
void exec_run(const struct exec_cmd *c, struct exec_result *r); /* one, to the end */

#endif
