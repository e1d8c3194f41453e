/* What a run reports it achieved (outcome.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "exec.h"
#include "oneline.h"
#include "outcome.h"
#include "run_file.h"
#include "store.h"
#include "utf8.h"

static const char *const names[OUTCOME_COUNT] = {"", "done", "nothing_to_do", "blocked", "failed"};

const char *
outcome_name(int o)
{
	return o > OUTCOME_NONE && o < OUTCOME_COUNT ? names[o] : "";
}

int
outcome_parse(const char *s)
{
	for (int o = OUTCOME_DONE; s && o < OUTCOME_COUNT; o++)
		if (strcmp(s, names[o]) == 0)
			return o;
	return -1;
}

char *
outcome_summary(const char *s, size_t n)
{
	char *clean = utf8_clean(s, n);
	char *line = oneline(clean, OUTCOME_SUMMARY_MAX, ONELINE_CONTROLS);
	free(clean);
	return line;
}

char *
outcome_json(int o, const char *summary)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "status", outcome_name(o));
	if (summary)
		cJSON_AddStringToObject(j, "summary", summary);
	char *s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	if (!s)
		abort();
	return s;
}

int
outcome_parse_json(const char *text, size_t n, int *o, char **summary, struct err *e)
{
	*o = OUTCOME_NONE;
	*summary = NULL;
	size_t lead = 0;
	while (lead < n && (text[lead] == ' ' || text[lead] == '\t' || text[lead] == '\n' ||
	    text[lead] == '\r'))
		lead++;
	if (lead == n)
		return ST_OK;
	cJSON *j = cJSON_ParseWithLength(text, n);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		return err_set(e, ST_INVALID, "not a JSON object like {\"status\": \"done\", \"summary\":"
		    " \"...\"}");
	}
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
	const cJSON *sm = cJSON_GetObjectItemCaseSensitive(j, "summary");
	int rc = ST_OK, got = cJSON_IsString(st) ? outcome_parse(st->valuestring) : -1;
	if (got < 0) {
		char was[64];
		utf8_quote(was, sizeof was, cJSON_IsString(st) ? st->valuestring : "",
		    cJSON_IsString(st) ? strlen(st->valuestring) : 0);
		rc = err_set(e, ST_INVALID, "bad status '%s': expected done, nothing_to_do, blocked or"
		    " failed", was);
	} else if (sm && !cJSON_IsString(sm) && !cJSON_IsNull(sm)) {
		rc = err_set(e, ST_INVALID, "the summary is not a string");
	} else {
		*o = got;
		if (cJSON_IsString(sm))
			*summary = outcome_summary(sm->valuestring, strlen(sm->valuestring));
	}
	cJSON_Delete(j);
	return rc;
}

int
outcome_file_new(const char *run_id, char **path, struct err *e)
{
	/* mkstemp makes it 0600: the run's own, no other user reads or fakes it. */
	int fd;
	int rc = run_file_new("outcome", run_id, &fd, path, e);
	if (!rc)
		close(fd);
	return rc;
}

int
outcome_file_read(const char *path, int *o, char **summary, struct err *e)
{
	*o = OUTCOME_NONE;
	*summary = NULL;
	/* Not following a link the executor may have put in its place. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? ST_OK : err_set(e, ST_INVALID, "cannot read it: %s",
		    strerror(errno));
	struct buf b = {0};
	errno = 0;
	int r = buf_read_fd(&b, fd, OUTCOME_FILE_MAX);
	int err = errno;
	close(fd);
	int rc;
	if (r < 0 && err)
		rc = err_set(e, ST_INVALID, "cannot read it: %s", strerror(err));
	else if (r < 0)
		rc = err_set(e, ST_INVALID, "more than %d bytes", OUTCOME_FILE_MAX);
	else
		rc = outcome_parse_json(b.data ? b.data : "", b.len, o, summary, e);
	buf_free(&b);
	return rc;
}

int
outcome_file_write(const char *path, int o, const char *summary, struct err *e)
{
	char *s = outcome_json(o, summary);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	size_t n = strlen(s), off = 0;
	int err = 0;
	if (fd < 0)
		err = errno;
	while (!err && off < n) {
		ssize_t w = write(fd, s + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err = errno ? errno : EIO;
		else
			off += (size_t)w;
	}
	if (fd >= 0 && close(fd) != 0 && !err)
		err = errno;
	free(s);
	if (err)
		return err_set(e, ST_ERR, "cannot write the outcome to %s '%.200s': %s", OUTCOME_ENV,
		    path, strerror(err));
	return ST_OK;
}

void
outcome_apply(struct run *r, const struct exec_result *x, const char *path)
{
	if (!path || x->how != EXEC_EXITED || x->stopped ||
	    (r->status != RUN_SUCCESS && r->status != RUN_FAILED))
		return;
	int o;
	char *summary;
	struct err e;
	if (outcome_file_read(path, &o, &summary, &e)) {
		char *why = xasprintf("its outcome (%s) is not understood: %s", OUTCOME_ENV, e.msg);
		free(r->error);
		r->error = why;
		r->status = RUN_FAILED;
		return;
	}
	static const char *const said[OUTCOME_COUNT] = {"", "", OUTCOME_IDLE, "reported blocked",
		"reported failed"};
	static const int status[OUTCOME_COUNT] = {0, 0, RUN_SKIPPED, RUN_BLOCKED, RUN_FAILED};
	if (o != OUTCOME_NONE && o != OUTCOME_DONE) {
		free(r->error);
		r->error = summary ? xasprintf("%s: %s", said[o], summary) : xstrdup(said[o]);
		r->status = status[o];
	}
	free(summary);
}
