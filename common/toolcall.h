/* toolcall.h: tool calls as agents print them outside any protocol, read
 * leniently (task-mcp --call): agent-zero's {"tool_name", "tool_args"},
 * function calling's {"name", "arguments"} with the arguments maybe a JSON
 * string, LangChain's {"action", "action_input"}; a call may span lines,
 * sit in a Markdown fence and carry the trailing commas agent-zero's own
 * examples have, as agent-zero's lenient parser accepts them. */
#ifndef AC_TOOLCALL_H
#define AC_TOOLCALL_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "util.h"

/* A stream of calls.  Fill with toolcall_in_init; the fields below f are
 * for reading only. */
struct toolcall_in {
	FILE *f;
	size_t max;      /* bytes of one call kept */
	long line;       /* lines read so far */
	long first;      /* the line the last call began on */
	int too_long;    /* the last call was longer than max (its text is cut) */
	int held;        /* lbuf holds a line read that begins the next call */
	size_t hlen;     /* its length (it may hold a NUL) */
	char *lbuf;
	size_t lcap;
};

/* A call read: name and arguments point into root (or parsed). */
struct toolcall {
	const char *name;
	const cJSON *args; /* an object, a string a tool reads itself, or NULL: none */
	cJSON *root, *parsed;
};

/* toolcall.c */
void toolcall_in_init(struct toolcall_in *in, FILE *f, size_t max);
void toolcall_in_free(struct toolcall_in *in);
/* The text of the next call, from its first line that is not blank (nor a
 * fence) until its braces balance; a fence, or a line starting with a
 * brace in its first column, ends an unbalanced call early, so one broken
 * call does not swallow the rest.  1 read, 0 end of input (ferror(in->f)
 * tells a read error). */
int toolcall_next(struct toolcall_in *in, struct buf *text);
/* Read one call's text: ST_OK and c filled (toolcall_free it), or
 * ST_INVALID and a message ("invalid JSON", "not a JSON object", "no tool
 * name ...").  Bytes that are not UTF-8 become U+FFFD. */
int toolcall_parse(const char *text, size_t len, struct toolcall *c, struct err *e);
void toolcall_free(struct toolcall *c);
/* Drop the commas right before a closing bracket, outside strings. */
void toolcall_relax(struct buf *b);

#endif
