/* llm-call's command line (llm_options.h): each option checked as it is
 * read, so a bad value is reported with its flag before anything starts. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "llm_options.h"
#include "opt.h"

int
llm_options_parse(int argc, char **argv, struct llm_options *o, struct err *e)
{
	enum { O_PROVIDER = 256, O_BASE_URL, O_KEY_FILE, O_TOOLS, O_MAX_ROUNDS, O_MAX_TOKENS, O_JSON,
		O_STREAM,
		O_NO_STREAM, O_TIMEOUT, O_CONNECT_TIMEOUT, O_RETRIES, O_MCP, O_MCP_ALLOW, O_MCP_TIMEOUT,
		O_LIST_TOOLS, O_HELP, O_VERSION, O_DEADLINE, O_FALLBACK };
	static const struct option longopts[] = {
		{"system", required_argument, NULL, 's'},
		{"model", required_argument, NULL, 'm'},
		{"attach", required_argument, NULL, 'a'},
		{"option", required_argument, NULL, 'o'},
		{"provider", required_argument, NULL, 'p'},
		{"base-url", required_argument, NULL, O_BASE_URL},
		{"key-file", required_argument, NULL, O_KEY_FILE},
		{"context", required_argument, NULL, 'c'},
		{"tools", optional_argument, NULL, O_TOOLS},
		{"max-rounds", required_argument, NULL, O_MAX_ROUNDS},
		{"max-run-tokens", required_argument, NULL, O_MAX_TOKENS},
		{"mcp", required_argument, NULL, O_MCP},
		{"mcp-allow", required_argument, NULL, O_MCP_ALLOW},
		{"mcp-timeout", required_argument, NULL, O_MCP_TIMEOUT},
		{"list-tools", no_argument, NULL, O_LIST_TOOLS},
		{"fallback-model", required_argument, NULL, O_FALLBACK},
		{"json", no_argument, NULL, O_JSON},
		{"stream", no_argument, NULL, O_STREAM},
		{"no-stream", no_argument, NULL, O_NO_STREAM},
		{"timeout", required_argument, NULL, O_TIMEOUT},
		{"deadline", required_argument, NULL, O_DEADLINE},
		{"connect-timeout", required_argument, NULL, O_CONNECT_TIMEOUT},
		{"retries", required_argument, NULL, O_RETRIES},
		{"no-log", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, O_HELP},
		{"version", no_argument, NULL, O_VERSION},
		{NULL, 0, NULL, 0},
	};
	char msg[128];
	double t;
	long n;
	int c, rc = ST_OK;
	while (!rc && (c = opt_next(argc, argv, ":s:m:a:o:p:c:n", longopts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 's': o->s.system = optarg; break;
		case 'm': o->s.model = optarg; break;
		case 'a': o->s.attach[o->s.nattach++] = optarg; break;
		case 'o': rc = llm_session_option(o->s.options, optarg, e); break;
		case 'p':
			if (llm_provider_parse(optarg) < 0)
				rc = opt_bad(e, "--provider", optarg, "openai, anthropic or echo");
			o->s.provider = optarg;
			break;
		case O_BASE_URL:
			if (str_casecmp_prefix(optarg, "http://") && str_casecmp_prefix(optarg, "https://"))
				rc = opt_bad(e, "--base-url", optarg, "an http or https URL");
			o->s.base_url = optarg;
			break;
		case O_KEY_FILE: o->s.key_file = optarg; break;
		case 'c': o->s.context = optarg; break;
		case O_TOOLS: o->tools = optarg ? optarg : "native"; break;
		case O_MCP:
		case O_MCP_ALLOW: {
			struct buf *b = c == O_MCP ? &o->mcp : &o->allow;
			buf_printf(b, "%s%s", b->len ? "," : "", optarg);
			break;
		}
		case O_MCP_TIMEOUT:
			if (!(rc = opt_seconds("--mcp-timeout", optarg, 86400, &t, e)))
				o->s.mcp_timeout_ms = (long)(t * 1000);
			break;
		case O_MAX_ROUNDS:
			if (!(rc = opt_number("--max-rounds", optarg, NULL, 1, 1000, &n, e)))
				o->lim.max_rounds = (int)n;
			break;
		case O_MAX_TOKENS:
			if (!(rc = opt_number("--max-run-tokens", optarg, "tokens", 1, LLM_MAX_RUN_TOKENS, &n,
			    e)))
				o->lim.max_tokens = n;
			break;
		case O_LIST_TOOLS: o->list_tools = 1; break;
		case O_FALLBACK:
			if (str_empty(optarg) || strpbrk(optarg, ", \t\n"))
				rc = opt_bad(e, "--fallback-model", optarg, "a model name");
			o->fallback[o->nfallback++] = optarg;
			break;
		case O_JSON: o->json = 1; break;
		case O_STREAM: o->stream = 1; break;
		case O_NO_STREAM: o->stream = 0; break;
		case O_TIMEOUT: rc = opt_seconds("--timeout", optarg, 86400, &o->s.timeout, e); break;
		case O_DEADLINE: rc = opt_seconds("--deadline", optarg, 86400 * 7, &o->s.deadline, e); break;
		case O_CONNECT_TIMEOUT:
			rc = opt_seconds("--connect-timeout", optarg, 86400, &o->s.connect_timeout, e);
			break;
		case O_RETRIES:
			if (!(rc = opt_number("--retries", optarg, NULL, 0, 20, &n, e)))
				o->s.retries = (int)n;
			break;
		case 'n': o->no_log = 1; break;
		case O_HELP: return LLM_OPTIONS_HELP;
		case O_VERSION: return LLM_OPTIONS_VERSION;
		default:
			snprintf(e->msg, sizeof e->msg, "%s", msg);
			return LLM_OPTIONS_USAGE;
		}
	}
	return rc;
}
