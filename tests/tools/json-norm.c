/* json-norm: JSON lines made comparable as a whole.
 *
 *   json-norm [-t] <lines
 *
 * Copies standard input to standard output byte for byte, except that each
 * distinct UUID becomes <id1>, <id2>... in order of first appearance (so a
 * test still sees which records refer to which), every "duration_ms" value
 * becomes <ms>, and with -t every RFC 3339 instant becomes <time> (for
 * outputs stamped by the real clock).  Every line must be one valid JSON
 * value: anything else is reported with its line number and exit 1. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util.h"

#define MAX_IDS 4096

struct ids {
	char id[MAX_IDS][37];
	int n;
};

/* Is s a lower-case UUID ("8-4-4-4-12" hex digits)? */
static int
is_uuid(const char *s)
{
	for (int i = 0; i < 36; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? s[i] != '-' : !(isdigit((unsigned char)s[i]) || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	}
	return !isalnum((unsigned char)s[36]);
}

/* Length of the RFC 3339 instant at s (2026-11-23T07:00:00Z, optional
 * fraction, Z or +hh:mm), or 0. */
static size_t
instant_len(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t i = 0;
	for (; shape[i]; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
			return 0;
	if (s[i] == '.')
		for (i++; isdigit((unsigned char)s[i]); i++)
			;
	if (s[i] == 'Z')
		return i + 1;
	if ((s[i] == '+' || s[i] == '-') && isdigit((unsigned char)s[i + 1]) &&
	    isdigit((unsigned char)s[i + 2]) && s[i + 3] == ':' && isdigit((unsigned char)s[i + 4]) &&
	    isdigit((unsigned char)s[i + 5]))
		return i + 6;
	return 0;
}

static int
id_number(struct ids *ids, const char *s)
{
	for (int i = 0; i < ids->n; i++)
		if (memcmp(ids->id[i], s, 36) == 0)
			return i + 1;
	if (ids->n == MAX_IDS) {
		fprintf(stderr, "json-norm: more than %d distinct ids\n", MAX_IDS);
		exit(1);
	}
	memcpy(ids->id[ids->n], s, 36);
	ids->id[ids->n][36] = 0;
	return ++ids->n;
}

static void
normalise(const char *s, struct ids *ids, int times, FILE *out)
{
	static const char dkey[] = "\"duration_ms\":";
	while (*s) {
		size_t n;
		if (strlen(s) >= 36 && is_uuid(s)) {
			fprintf(out, "<id%d>", id_number(ids, s));
			s += 36;
		} else if (strncmp(s, dkey, sizeof dkey - 1) == 0) {
			fputs(dkey, out);
			s += sizeof dkey - 1;
			if (*s == '-' || isdigit((unsigned char)*s)) {
				fputs("<ms>", out);
				s += strspn(s, "-0123456789.eE+");
			}
		} else if (times && (n = instant_len(s))) {
			fputs("<time>", out);
			s += n;
		} else {
			fputc(*s++, out);
		}
	}
}

int
main(int argc, char **argv)
{
	int times = argc == 2 && strcmp(argv[1], "-t") == 0;
	if (argc > 2 || (argc == 2 && !times)) {
		fprintf(stderr, "usage: json-norm [-t] <lines\n");
		return 2;
	}
	struct ids *ids = xcalloc(1, sizeof *ids);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long no = 0;
	int status = 0;
	while ((len = getline(&line, &cap, stdin)) > 0) {
		int nl = line[len - 1] == '\n';
		no++;
		if (nl)
			line[--len] = 0;
		const char *end = NULL;
		cJSON *j = cJSON_ParseWithOpts(line, &end, 1);
		if (!j || (size_t)(end - line) != (size_t)len) {
			fprintf(stderr, "json-norm: line %ld is not one JSON value: %s\n", no, line);
			status = 1;
		}
		cJSON_Delete(j);
		normalise(line, ids, times, stdout);
		if (nl)
			putchar('\n');
	}
	free(line);
	free(ids);
	return status;
}
