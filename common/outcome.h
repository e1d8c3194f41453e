/* outcome.h: what a run says it achieved, beside its exit status.  An
 * executor writes {"status": ..., "summary": ...} to the file named by
 * TASK_OUTCOME_FILE (llm-call does, for its report_outcome tool):
 * nothing_to_do is recorded as a skip, blocked (a person is needed) as a
 * run of its own status, failed as a failure, each with the summary as
 * the run's reason.  The summary is untrusted text: one line of valid
 * UTF-8, controls removed, at most OUTCOME_SUMMARY_MAX bytes. */
#ifndef AC_OUTCOME_H
#define AC_OUTCOME_H

#include <stddef.h>

#include "util.h"

struct run;
struct exec_result;

#define OUTCOME_ENV "TASK_OUTCOME_FILE"
#define OUTCOME_SUMMARY_MAX 300        /* bytes of a summary kept */
#define OUTCOME_FILE_MAX (64 * 1024)   /* bytes of an outcome file read */
#define OUTCOME_IDLE "reported nothing to do" /* a skip's reason starts so */

enum outcome { OUTCOME_NONE, OUTCOME_DONE, OUTCOME_NOTHING, OUTCOME_BLOCKED, OUTCOME_FAILED,
	OUTCOME_COUNT };

/* outcome.c */
const char *outcome_name(int o);                  /* "done", "nothing_to_do", ... */
int outcome_parse(const char *s);                 /* OUTCOME_*, or -1 */
/* s[0..n) as a summary: valid UTF-8, controls and runs of blanks as one
 * space, trimmed, cut between characters at OUTCOME_SUMMARY_MAX bytes. */
char *outcome_summary(const char *s, size_t n);
/* The JSON of an outcome, {"status":..., "summary":...}, one line
 * (malloc'd). */
char *outcome_json(int o, const char *summary);
/* An outcome's JSON text: ST_OK with *o (OUTCOME_NONE for empty text) and
 * *summary (malloc'd, cleaned, or NULL); ST_INVALID with a message. */
int outcome_parse_json(const char *text, size_t n, int *o, char **summary, struct err *e);
/* A new empty file for run_id's, 0600, in TMPDIR (else /tmp), named after
 * the run (run_file.h): *path malloc'd. */
int outcome_file_new(const char *run_id, char **path, struct err *e);
/* The outcome in path, read back (at most OUTCOME_FILE_MAX bytes). */
int outcome_file_read(const char *path, int *o, char **summary, struct err *e);
/* Write it to path (truncating). */
int outcome_file_write(const char *path, int o, const char *summary, struct err *e);
/* Run r, as its executor ended it (x), told what it achieved by the file
 * at path: nothing_to_do, blocked and failed replace the status of a run
 * that exited (not one that timed out, was interrupted or stopped), with
 * the summary as its reason; done leaves the exit status's verdict; a file
 * that cannot be read or understood fails the run, saying why. */
void outcome_apply(struct run *r, const struct exec_result *x, const char *path);

#endif
