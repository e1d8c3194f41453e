/* task-mcp: the scheduler as tools for agents.  By default a Model Context
 * Protocol server on standard input and output: JSON-RPC 2.0, one message a
 * line, nothing but protocol on stdout and diagnostics on stderr, until end
 * of input (common/mcp_server.c holds the protocol).  With --call it runs tool
 * calls written the way agents emit them without MCP (agent-zero's
 * {"tool_name", "tool_args"}, function-call {"name", "arguments"},
 * LangChain's {"action", "action_input"}; common/toolcall.c reads them
 * leniently) and prints each result. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mcp_server.h"
#include "opt.h"
#include "prog.h"
#include "store.h"
#include "task_json.h"
#include "toolcall.h"
#include "tools.h"

static const char prog[] = "task-mcp";

static int
write_line(const char *s)
{
	errno = 0;
	if (fputs(s, stdout) == EOF || putchar('\n') == EOF || fflush(stdout) == EOF) {
		fprintf(stderr, "%s: cannot write the reply: %s\n", prog,
		    errno ? strerror(errno) : "the client went away");
		return ST_ERR;
	}
	return ST_OK;
}

static int
serve(struct tools *tl)
{
	struct mcp_server *m = mcp_server_new(tl);
	struct buf line = {0};
	int too_long, got, rc = ST_OK;
	while (rc == ST_OK && (got = mcp_server_read_line(stdin, &line, MCP_LINE_MAX, &too_long)) == 1) {
		char *reply = NULL;
		struct err e;
		if (too_long) {
			reply = mcp_server_too_large(line.data);
			fprintf(stderr, "%s: refused a message longer than %u bytes\n", prog, MCP_LINE_MAX);
		} else if (mcp_server_handle(m, line.data, line.len, &reply, &e) != ST_OK) {
			fprintf(stderr, "%s: %s\n", prog, e.msg);
		}
		if (reply)
			rc = write_line(reply);
		free(reply);
	}
	if (rc == ST_OK && got < 0) {
		fprintf(stderr, "%s: cannot read standard input\n", prog);
		rc = ST_ERR;
	}
	buf_free(&line);
	mcp_server_free(m);
	return rc;
}

/* One call: ST_OK with the result printed (a tool error too, *failed set),
 * ST_INVALID for a call that cannot be read, ST_ERR when the store failed. */
static int
call_one(struct tools *tl, const struct buf *text, int json, int *failed, struct err *e)
{
	struct toolcall call;
	char *result = NULL;
	int is_error, rc;
	if ((rc = toolcall_parse(text->data, text->len, &call, e)))
		return rc;
	if ((rc = tools_call(tl, call.name, call.args, &result, &is_error, e)))
		goto out;
	*failed |= is_error;
	if (json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "tool", call.name);
		cJSON_AddBoolToObject(o, "is_error", is_error);
		cJSON_AddStringToObject(o, "text", result);
		char *s = json_print_line(o);
		rc = write_line(s);
		free(s);
		cJSON_Delete(o);
	} else {
		size_t n = strlen(result);
		if (n && result[n - 1] == '\n')
			result[n - 1] = 0;
		rc = write_line(result);
	}
out:
	free(result);
	toolcall_free(&call);
	return rc;
}

static int
call_loop(struct tools *tl, int json)
{
	struct buf b = {0};
	struct toolcall_in in;
	int status = ST_OK, failed = 0;
	toolcall_in_init(&in, stdin, MCP_LINE_MAX);
	while (toolcall_next(&in, &b) == 1) {
		struct err e;
		int rc;
		if (in.too_long)
			rc = err_set(&e, ST_INVALID, "call longer than %u bytes", MCP_LINE_MAX);
		else
			rc = call_one(tl, &b, json, &failed, &e);
		if (rc == ST_INVALID) {
			fprintf(stderr, "%s: stdin:%ld: %s\n", prog, in.first, e.msg);
			status = ST_INVALID;
		} else if (rc) {
			fprintf(stderr, "%s: %s\n", prog, e.msg);
			status = ST_ERR;
			break;
		}
	}
	if (ferror(stdin)) {
		fprintf(stderr, "%s: cannot read standard input\n", prog);
		status = ST_ERR;
	}
	toolcall_in_free(&in);
	buf_free(&b);
	return status ? status : failed ? ST_INVALID : ST_OK;
}

static void
list_tools(struct tools *tl)
{
	cJSON *list = tools_list(tl);
	const cJSON *t;
	cJSON_ArrayForEach(t, list)
		printf("%s\t%s\n", cJSON_GetObjectItem(t, "name")->valuestring,
		    cJSON_GetObjectItem(t, "description")->valuestring);
	cJSON_Delete(list);
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-mcp [-p PROFILE]...\n"
	    "       task-mcp [-p PROFILE]... --call [--json]\n"
	    "       task-mcp [-p PROFILE]... --list-tools\n"
	    "  Serves the scheduler's tools over MCP on standard input and output.\n"
	    "  -p, --profile NAME  tool set: native (the default), oneclaw, agent-zero, kai,\n"
	    "                      toolpack, wooster or all; repeat or comma-separate to combine\n"
	    "  -c, --call          run the tool calls on standard input ({\"tool_name\": ...,\n"
	    "                      \"tool_args\": {...}} or {\"name\": ..., \"arguments\": {...}})\n"
	    "                      and print each result\n"
	    "  -j, --json          with --call: each result as a JSON line\n"
	    "  -l, --list-tools    print each tool's name and description\n"
	    "  -h, --help, -V, --version\n");
}

static int
task_mcp(int argc, char **argv)
{
	static const struct option opts[] = {
		{"profile", required_argument, NULL, 'p'},
		{"call", no_argument, NULL, 'c'},
		{"json", no_argument, NULL, 'j'},
		{"list-tools", no_argument, NULL, 'l'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0, 0, 0, 0},
	};
	struct err e = {{0}};
	struct buf profiles = {0};
	int call = 0, json = 0, list = 0, c, rc = ST_OK;
	unsigned bits = TOOLS_NATIVE;
	char msg[128];
	while ((c = opt_next(argc, argv, ":p:cjlhV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'p': buf_printf(&profiles, "%s%s", profiles.len ? "," : "", optarg); break;
		case 'c': call = 1; break;
		case 'j': json = 1; break;
		case 'l': list = 1; break;
		case 'h': usage(stdout); buf_free(&profiles); return 0;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); buf_free(&profiles); return 0;
		default:
			buf_free(&profiles);
			return usage_error(prog, "%s", msg);
		}
	}
	if (optind < argc) {
		buf_free(&profiles);
		return usage_error(prog, "unexpected argument '%s'", argv[optind]);
	}
	if (call && list)
		rc = err_set(&e, ST_INVALID, "give --call or --list-tools, not both");
	else if (json && !call)
		rc = err_set(&e, ST_INVALID, "--json goes with --call");
	else if (profiles.len)
		rc = tools_profiles_parse(profiles.data, &bits, &e);
	buf_free(&profiles);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return rc;
	}
	/* A client that goes away shows as a write error, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	struct store *st = NULL;
	struct tools *tl = NULL;
	/* Listing creates nothing: the store is made at the first change. */
	if ((rc = store_open(NULL, STORE_READ, &st, &e)) || (rc = tools_open(st, bits, &tl, &e))) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		store_close(st);
		return rc;
	}
	if (list)
		list_tools(tl);
	else
		rc = call ? call_loop(tl, json) : serve(tl);
	tools_close(tl);
	store_close(st);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_mcp(argc, argv));
}
