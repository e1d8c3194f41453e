/* llm.h: one model call over a provider's own wire format: OpenAI-compatible
 * Chat Completions (OpenAI, Ollama, llama.cpp, vLLM, OpenRouter, ...) and
 * Anthropic Messages; plain or streamed (server-sent events), with tool
 * calls, timeouts and retries.  Conversations are kept as the provider's own
 * JSON messages, built with the llm_msg_* helpers, so a tool loop sends back
 * exactly what the provider expects.  Nothing here prints; keys go into
 * request headers only and are scrubbed from every message in struct err. */
#ifndef AC_LLM_H
#define AC_LLM_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "util.h"

/* LLM_ECHO answers locally, without a network or a key (llm_echo.c). */
enum llm_provider { LLM_OPENAI, LLM_ANTHROPIC, LLM_ECHO, LLM_PROVIDER_COUNT };

#define LLM_OPENAI_MODEL "gpt-4o-mini"
#define LLM_ANTHROPIC_MODEL "claude-3-5-haiku-latest"
#define LLM_OPENAI_URL "https://api.openai.com/v1"
#define LLM_ANTHROPIC_URL "https://api.anthropic.com"
#define LLM_ANTHROPIC_VERSION "2023-06-01"
#define LLM_MAX_TOKENS 1024         /* Anthropic requires max_tokens */

typedef void (*llm_text_fn)(const char *text, size_t n, void *arg);

struct guard;
struct http;

struct llm_config {
	int provider;               /* LLM_* */
	struct http *http;          /* the connection to reuse; NULL: one of the call's own */
	const char *base_url;       /* NULL: the provider's default */
	const char *api_key;        /* NULL or "": no authentication header */
	const char *key_hint;       /* where the key comes from, for 401s: "OPENAI_API_KEY" */
	const char *model;
	const char *system;         /* system prompt or NULL */
	const cJSON *options;       /* object merged into the request body, or NULL */
	long connect_timeout_ms;    /* 0: 10 s */
	long timeout_ms;            /* whole attempt; 0: 300 s */
	int64_t deadline_ms;        /* mono_ms() past which no attempt goes on; 0: none */
	int retries;                /* further attempts after the first */
	long retry_base_ms;         /* first backoff; 0: 500 ms, doubling, with jitter */
	long retry_max_wait_ms;     /* longest wait asked by Retry-After; 0: 60 s */
	void (*wait)(long ms, void *arg); /* the wait between attempts; NULL: sleep */
	void *wait_arg;
	int stream;                 /* ask for server-sent events */
	llm_text_fn on_text;        /* streamed text as it arrives, or NULL */
	void *arg;
};

struct llm_tool_call {
	char *id, *name;
	char *args;                 /* JSON text of the arguments */
};

struct llm_result {
	char *text;                 /* the answer ("" when only tool calls) */
	char *finish_reason;        /* the provider's: stop, length, end_turn, tool_calls, ... */
	char *model;                /* as the provider reports it */
	long input_tokens, output_tokens; /* -1 unknown */
	struct llm_tool_call *calls;
	size_t ncalls;
	long http_status;
	int attempts;
	int model_gone;             /* refused: the model does not exist or is retired */
};

struct llm_image {
	const char *mime;           /* image/png, image/jpeg, image/gif, image/webp */
	const unsigned char *data;
	size_t len;
};

/* An attachment: a text file (inlined with its name) or an image. */
struct llm_attachment {
	char *name;                 /* as given: a path or a URL */
	const char *mime;           /* an image's type, NULL for text */
	unsigned char *data;        /* NUL-terminated */
	size_t len;
};
#define LLM_ATTACH_MAX (10L * 1024 * 1024)

struct llm;

/* llm.c */
const char *llm_provider_name(int provider);            /* "openai", "anthropic", "echo" */
int llm_provider_parse(const char *s);                  /* -1 if unknown */
int llm_provider_for_model(const char *model);          /* claude-* anthropic, gpt-* o1.. openai; -1 neither */
const char *llm_default_model(int provider);
const char *llm_default_url(int provider);
const char *llm_key_env(int provider);                  /* "OPENAI_API_KEY" */
const char *llm_image_type(const unsigned char *p, size_t n); /* MIME type by magic bytes, or NULL */
int llm_url_is_local(const char *url);                  /* loopback host: a key is optional */
int llm_new(const struct llm_config *c, struct llm **out, struct err *e); /* c must outlive it */
void llm_free(struct llm *l);
/* One request with retries: messages is the conversation (provider's
 * format, without the system prompt); tools NULL or from llm_tools_convert.
 * res is filled on success and zeroed first; on failure e has one line and
 * res only http_status (of the last reply, 0 if none) and attempts. */
int llm_send(struct llm *l, const cJSON *messages, const cJSON *tools, struct llm_result *res,
    struct err *e);
/* A reply of HTTP status with body[0..n) (server-sent events when sse),
 * read as llm_send reads one that arrived in pieces ending at
 * cuts[0..ncuts) (ascending): res and e as llm_send's after one attempt.
 * What the network hands over reads the same in any pieces (tests and
 * fuzz-llm-reply). */
int llm_reply_read(const struct llm_config *c, long status, int sse, const char *body, size_t n,
    const size_t *cuts, size_t ncuts, struct llm_result *res, struct err *e);
void llm_result_free(struct llm_result *r);
/* A reply no retry can change: the request is refused as it stands
 * (400, 413, 422), unauthorised (401, 403) or names nothing there (404). */
int llm_status_permanent(long http_status);
/* An error reply (status, parsed body or NULL) says the model asked for
 * does not exist or was retired: 404 or 410, an error code model_not_found
 * or *_decommissioned / *_deprecated, or a 400 whose message says deprecated,
 * decommissioned or retired. */
int llm_model_gone(long http_status, const cJSON *body);
void llm_redact(char *s, size_t cap, const char *key); /* scrub the key and key-like words, in place */

/* llm_attach.c */
/* What an agent-made task's attachments may reach, read when they are
 * opened: files under dirs only, opened component by component without
 * following a link; URLs only on public addresses, or on those of allow
 * ("ADDR", "ADDR/BITS", "ADDR:PORT", "[V6ADDR]:PORT"). */
struct llm_attach_rules {
	int agent_made;
	char **dirs;                /* agent_attach_dirs, resolved */
	size_t ndirs;
	char **allow;               /* agent_url_allow */
	size_t nallow;
};
/* Read a file or fetch an http(s) URL through h (at most LLM_ATTACH_MAX
 * bytes, within timeout_ms), within rules (NULL: none).  ST_INVALID:
 * unreadable, too large, a file the guard refuses (guard.h) or the rules
 * do, or neither UTF-8 text nor a PNG, JPEG, GIF or WebP image; ST_ERR: the
 * fetch failed (or went where the rules refuse). */
int llm_attach_load(struct http *h, const char *spec, long timeout_ms, const struct guard *g,
    const struct llm_attach_rules *rules, struct llm_attachment *a, struct err *e);
/* An entry of agent_url_allow is well formed. */
int llm_attach_allow_ok(const char *entry);
void llm_attach_free(struct llm_attachment *a);

/* Conversation building, in the provider's format. */
void llm_msg_user(int provider, cJSON *messages, const char *text, const struct llm_image *img,
    size_t nimg);
void llm_msg_assistant(int provider, cJSON *messages, const struct llm_result *r);
void llm_msg_assistant_text(int provider, cJSON *messages, const char *text);
/* One result per call of r, in order. */
struct llm_tool_result {
	const char *text;
	int is_error;
	const struct llm_image *img; /* images the tool returned, or NULL */
	size_t nimg;
};
void llm_msg_tool_results(int provider, cJSON *messages, const struct llm_result *r,
    const struct llm_tool_result *res);
/* MCP tools ({name, description, inputSchema}) in the provider's format.
 * Names a provider refuses (outside [A-Za-z0-9_-]{1,64}) are mapped; *names
 * gets pairs {wire name, tool name}; the caller frees both with cJSON_Delete. */
cJSON *llm_tools_convert(int provider, const cJSON *mcp_tools, cJSON **names);
const char *llm_tool_name(const cJSON *names, const char *wire); /* back to the tool's own name */

#endif
