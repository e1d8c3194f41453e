/* llm_ask.h: one llm-call from its options to its record: everything
 * before the first request (settings, prompt, store, conversation, tools,
 * MCP servers, the model's price and what the run's budget leaves), the
 * requests until the model answers (a model the provider says is gone
 * replaced by its fallback, and asked again), each request's spend into
 * the ledger as it arrives, and the call and its exchange into the store.
 * The secrets are kept out of what it hands back, stores and streams.
 * Nothing here prints: the streamed text and the fallback notice go to
 * the caller's callbacks. */
#ifndef AC_LLM_ASK_H
#define AC_LLM_ASK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "llm.h"
#include "llm_options.h"
#include "scrub.h"
#include "util.h"

struct config;
struct store;

/* Fill o (parse the options into k->o) after llm_ask_init; the rest is
 * the functions' own; llm_ask_free releases all of it. */
struct llm_ask {
	struct llm_options o;
	struct config *cf;
	struct store *st;
	struct llm *l;
	struct buf prompt;
	struct llm_result r;
	struct scrub scrub;         /* the secrets kept out of what is printed and stored */
	struct scrub_stream ss;     /* the streamed answer's, held back in case one begins */
	struct timespec t0;
	int64_t now;
	int called, answered;
	char *fallback_from;        /* the model asked first, refused as gone */
	char *tried;                /* the models asked so far, comma-separated */
	char *model_own;            /* the fallback asked, which lc.model points to */
	long latency;
	long long id;               /* the record's */
	double cost;                /* dollars, -1: no price */
	double ledger_dollars;      /* what the requests wrote to the spend ledger */
	long long ledger_tokens;
	int reaper;                 /* this process is its MCP servers' subreaper */

	/* The caller's, set before llm_ask_prepare: each piece of the
	 * answer as it streams, without the secrets (NULL: no streaming);
	 * each model refused as gone, with the one asked instead. */
	void (*on_text)(const char *text, size_t n, void *arg);
	void (*on_fallback)(const char *gone, const char *next, void *arg);
	void *arg;
};

/* llm_ask.c */
/* k's defaults, with room for argc attachments and fallback models. */
void llm_ask_init(struct llm_ask *k, int argc);
/* Everything before the first request; argv's argc words are the
 * prompt.  A setting that cannot work (no key, a config or key file that
 * cannot be used) is EXEC_EXIT_PERMANENT: a scheduled run would fail the
 * same way every time. */
int llm_ask_prepare(struct llm_ask *k, int argc, char **argv, struct err *e);
/* The requests, until the model answers: k->r with its text cleaned and
 * without the secrets, k->latency.  A reply that no retry can change
 * (llm_status_permanent) is EXEC_EXIT_PERMANENT; so is a model the
 * provider says is gone when no fallback is left. */
int llm_ask_run(struct llm_ask *k, struct err *e);
/* What the stream held back, in case it began a secret, into out. */
void llm_ask_stream_end(struct llm_ask *k, struct buf *out);
/* The call into the store (unless --no-log) and the exchange into its
 * context: k->cost, k->id.  rc is the call's status so far, e its
 * message (scrubbed here); returns rc, else the failure to record. */
int llm_ask_record(struct llm_ask *k, int rc, struct err *e);
/* --list-tools: the --mcp servers (else TASK_MCP) started, their tools
 * that --mcp-allow matches in k->o.s.offered.  No key, prompt or store. */
int llm_ask_list_tools(struct llm_ask *k, struct err *e);
void llm_ask_free(struct llm_ask *k);

#endif
