/* What llm-call asks (llm_input.h): the prompt from its operands or its
 * standard input, checked as text, or a recorded request to send again. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "llm_input.h"
#include "llm_request.h"
#include "utf8.h"

int
llm_input_prompt(int argc, char **argv, struct buf *prompt, struct err *e)
{
	if (argc > 0) {
		for (int i = 0; i < argc; i++) {
			if (i)
				buf_puts(prompt, " ");
			buf_puts(prompt, argv[i]);
		}
	} else {
		if (isatty(0))
			return err_set(e, ST_INVALID, "no prompt: give it as arguments or on standard input");
		errno = 0;
		if (buf_read_fd(prompt, 0, (size_t)LLM_PROMPT_MAX) != 0)
			return errno ? err_set(e, ST_ERR, "cannot read the prompt: %s", strerror(errno))
				     : err_set(e, ST_INVALID, "the prompt is larger than %ld MiB",
					 LLM_PROMPT_MAX >> 20);
	}
	if (str_empty(prompt->data))
		return err_set(e, ST_INVALID, "the prompt is empty");
	if (memchr(prompt->data, 0, prompt->len))
		return err_set(e, ST_INVALID, "the prompt holds a NUL byte; it must be text");
	if (!utf8_valid(prompt->data, prompt->len))
		return err_set(e, ST_INVALID, "the prompt is not UTF-8 text");
	return ST_OK;
}

/* The request in file replaces the prompt, system prompt, context,
 * attachments, options and stream of the call; without a model of its
 * own (a replay on another provider) the provider's from the config. */
int
llm_input_replay(const char *file, const struct config *cf, struct llm_session *s,
    struct buf *prompt_out, int *stream_opt, struct err *e)
{
	struct buf text = {0};
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	errno = 0;
	if (fd < 0 || buf_read_fd(&text, fd, (size_t)LLM_PROMPT_MAX * 4) != 0) {
		int en = errno;
		if (fd >= 0)
			close(fd);
		buf_free(&text);
		return err_set(e, ST_ERR, "cannot read the request to replay '%s': %s", file,
		    en ? strerror(en) : "too large");
	}
	close(fd);
	const char *prompt;
	int stream;
	int rc = llm_request_load(s, text.data ? text.data : "", &prompt, &stream, e);
	buf_free(&text);
	if (rc)
		return rc;
	prompt_out->len = 0;
	buf_puts(prompt_out, prompt);
	if (stream >= 0 && *stream_opt < 0)
		*stream_opt = stream;
	if (!s->model && s->provider) {
		char key[64];
		snprintf(key, sizeof key, "%s_model", s->provider);
		const char *m = config_get(cf, key);
		int p = llm_provider_parse(s->provider);
		s->model = m && *m ? m : p >= 0 ? llm_default_model(p) : NULL;
	}
	return ST_OK;
}
