/* The inputs of chained and event runs, as their executors get them
 * (fire_input.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fire_env.h"
#include "fire_input.h"
#include "run_file.h"
#include "store_chain.h"
#include "store_web.h"
#include "utf8.h"

/* The payload in a file of its own: a long one does not fit the environment. */
static int
payload_file(const char *run_id, const char *text, char **file, struct err *e)
{
	int fd;
	char *path;
	int rc = run_file_new("payload", run_id, &fd, &path, e);
	if (rc)
		return rc;
	size_t n = strlen(text), off = 0;
	while (off < n) {
		ssize_t w = write(fd, text + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = errno;
			close(fd);
			unlink(path);
			free(path);
			return err_set(e, ST_ERR, "cannot write a payload file: %s", strerror(err));
		}
		off += (size_t)w;
	}
	if (close(fd) != 0) {
		int err = errno;
		unlink(path);
		free(path);
		return err_set(e, ST_ERR, "cannot write a payload file: %s", strerror(err));
	}
	*file = path;
	return ST_OK;
}

int
fire_input_load(struct store *st, const struct run *r, struct run_input *in, int *found,
    struct err *e)
{
	*found = 0;
	memset(in, 0, sizeof *in);
	if (r->trigger != TRIGGER_AFTER && r->trigger != TRIGGER_EVENT && r->trigger != TRIGGER_REPLAY)
		return ST_OK;
	int rc = store_input_find(st, INPUT_OF_RUN, NULL, r->id, in, found, e);
	if (rc || !*found) {
		run_input_free(in);
		*found = 0;
	}
	return rc;
}

int
fire_input_apply(const struct run_input *in, const char *run_id, int named, char **text,
    char ***envp, char **file, struct err *e)
{
	*file = NULL;
	const char *s = in->text ? in->text : "";
	/* A replay's request goes to llm-call whole, in a file. */
	if (in->kind == INPUT_REPLAY) {
		int rc = payload_file(run_id, s, file, e);
		if (!rc)
			fire_env_set(envp, "TASK_REPLAY_FILE", *file);
		return rc;
	}
	if (*s && !named) {
		char *both = xasprintf("%s%s%s", *text, **text ? "\n\n" : "", s);
		free(*text);
		*text = both;
	}
	if (in->kind == INPUT_AFTER) {
		fire_env_set(envp, "TASK_INPUT_RUN", in->upstream_run);
		return ST_OK;
	}
	fire_env_set(envp, "TASK_PAYLOAD", strlen(s) <= FIRE_PAYLOAD_ENV_MAX ? s : "");
	int rc = payload_file(run_id, s, file, e);
	if (!rc)
		fire_env_set(envp, "TASK_PAYLOAD_FILE", *file);
	return rc;
}

int
fire_payload_check(const char *s, size_t n, struct err *e)
{
	if (n > FIRE_PAYLOAD_MAX)
		return err_set(e, ST_INVALID, "payload: %zu bytes, more than the %d allowed", n,
		    FIRE_PAYLOAD_MAX);
	if (memchr(s, 0, n))
		return err_set(e, ST_INVALID, "payload: holds a NUL byte; it must be text");
	if (!utf8_valid(s, n))
		return err_set(e, ST_INVALID, "payload: not valid UTF-8 text");
	return ST_OK;
}

int
fire_payload_read(const char *arg, char **out, struct err *e)
{
	*out = NULL;
	if (arg[0] != '@' && strcmp(arg, "-") != 0) {
		int rc = fire_payload_check(arg, strlen(arg), e);
		if (!rc)
			*out = xstrdup(arg);
		return rc;
	}
	int fd = strcmp(arg, "-") == 0 ? 0 : open(arg + 1, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, ST_INVALID, "payload '%.200s': %s", arg + 1, strerror(errno));
	struct buf b = {0};
	errno = 0;
	int r = buf_read_fd(&b, fd, FIRE_PAYLOAD_MAX);
	int err = errno;
	if (fd)
		close(fd);
	if (r < 0) {
		buf_free(&b);
		/* buf_read_fd stops past max without an errno of its own. */
		return err == 0 ? err_set(e, ST_INVALID, "payload: more than the %d bytes allowed",
		    FIRE_PAYLOAD_MAX) : err_set(e, ST_INVALID, "payload '%.200s': %s", arg, strerror(err));
	}
	int rc = fire_payload_check(b.data ? b.data : "", b.len, e);
	if (rc) {
		buf_free(&b);
		return rc;
	}
	*out = b.data ? b.data : xstrdup("");
	return ST_OK;
}

int
fire_event_key(const char *key, char **out, struct err *e)
{
	*out = NULL;
	if (key) {
		size_t n = strlen(key);
		if (!n || n > FIRE_EVENT_KEY_MAX || !utf8_valid(key, n))
			return err_set(e, ST_INVALID, "key: 1 to %d bytes of UTF-8 text", FIRE_EVENT_KEY_MAX);
		*out = xasprintf("key:%s", key);
		return ST_OK;
	}
	char id[37];
	if (uuid4(id) != 0)
		return err_set(e, ST_ERR, "cannot make an event's id: no randomness");
	*out = xasprintf("id:%s", id);
	return ST_OK;
}

int
fire_event_had(struct store *st, const char *id, const char *key, const char *body_sha256,
    int64_t now, int *had, char run_id[37], struct err *e)
{
	struct run_input in;
	int found = 0, seen = 0, rc = ST_OK;
	*had = 0;
	run_id[0] = 0;
	/* A made id is new by making: only a key given is kept past its run. */
	if (strncmp(key, "key:", 4) == 0)
		rc = store_hook_event(st, id, key, body_sha256, now, &seen, e);
	if (rc)
		return rc;
	/* The input, while kept, names the run; an event queued before its
	 * key was recorded is there alone. */
	run_input_init(&in);
	rc = store_input_find(st, INPUT_BY_KEY, id, key, &in, &found, e);
	if (!rc)
		*had = found ? FIRE_HAD_INPUT : seen ? FIRE_HAD_KEY : 0;
	if (!rc && found)
		snprintf(run_id, 37, "%s", in.run_id);
	run_input_free(&in);
	return rc;
}

int
fire_event_queue(struct store *st, const char *id, const char *payload, const char *key,
    int64_t now, int *dup, char run_id[37], struct err *e)
{
	struct run_input in;
	run_input_init(&in);
	*dup = 0;
	run_id[0] = 0;
	int rc = fire_event_key(key, &in.key, e), added = 0;
	if (rc)
		return rc;
	if (uuid4(in.id) != 0) {
		free(in.key);
		return err_set(e, ST_ERR, "cannot make an event's id: no randomness");
	}
	memcpy(in.task_id, id, sizeof in.task_id);
	in.kind = INPUT_EVENT;
	in.text = (char *)payload;
	in.created_at = now;
	rc = store_begin(st, e);
	if (!rc)
		rc = fire_event_had(st, id, in.key, NULL, now, dup, run_id, e);
	if (!rc && !*dup)
		rc = store_input_add(st, &in, &added, e);
	if (!rc && added)
		rc = store_task_queue(st, id, now, e);
	if (!rc)
		rc = store_commit(st, e);
	if (rc)
		store_rollback(st);
	free(in.key);
	return rc;
}
