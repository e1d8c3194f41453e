/* llm_options.h: llm-call's command line read into its settings: the
 * session's (llm_session.h), the tools and MCP servers offered, the
 * limits of a tool conversation, and the fallback models. */
#ifndef AC_LLM_OPTIONS_H
#define AC_LLM_OPTIONS_H

#include <stddef.h>

#include "llm_session.h"
#include "util.h"

#define LLM_DEFAULT_ROUNDS 20             /* --max-rounds */
#define LLM_MAX_RUN_TOKENS 1000000000L    /* --max-run-tokens, at most */

struct llm_options {
	struct llm_session s;       /* the call's own settings */
	const char *tools;
	struct buf mcp, allow;      /* --mcp and --mcp-allow, comma-joined */
	int json, stream, no_log, list_tools;
	struct llm_limits lim;
	const char **fallback;      /* --fallback-model, in order */
	size_t nfallback;
};

enum { LLM_OPTIONS_HELP = -1, LLM_OPTIONS_VERSION = -2, LLM_OPTIONS_USAGE = -3 };

/* Read the options into o (s.attach and fallback with room for argc).
 * ST_OK, LLM_OPTIONS_HELP or _VERSION when asked, LLM_OPTIONS_USAGE
 * (an unknown option or a missing value: e says which), else a status
 * with e naming the flag.  optind is left at the first operand. */
int llm_options_parse(int argc, char **argv, struct llm_options *o, struct err *e);

#endif
