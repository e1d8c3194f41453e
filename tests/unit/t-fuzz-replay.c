/* t-fuzz-replay: run the fuzz targets over their checked-in corpora without
 * libFuzzer, so `make check` (and its sanitizer pass) replays every seed and
 * every crash that was ever fixed.  Usage: t-fuzz-replay CORPUS_DIR. */
#include <dirent.h>
#include <stdlib.h>

#define FUZZ_REPLAY 1
#include "../fuzz/fuzz-agent-input.c"
#include "../fuzz/fuzz-cron.c"
#include "../fuzz/fuzz-deliver-text.c"
#include "../fuzz/fuzz-llm-reply.c"
#include "../fuzz/fuzz-mcp-result.c"
#include "../fuzz/fuzz-task-json.c"
#include "../fuzz/fuzz-web-form.c"
#include "../fuzz/fuzz-when.c"
#include "tap.h"

static int
replay(const char *dir, const char *target, int (*fn)(const uint8_t *, size_t))
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, target);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char file[8192];
		snprintf(file, sizeof file, "%s/%s", path, de->d_name);
		FILE *f = fopen(file, "rb");
		if (!f)
			continue;
		static uint8_t buf[1 << 16];
		size_t len = fread(buf, 1, sizeof buf, f);
		fclose(f);
		fn(buf, len); /* an assertion failure aborts the test */
		n++;
	}
	closedir(d);
	return n;
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/fuzz/corpus";
	static const struct { const char *name; int (*fn)(const uint8_t *, size_t); } targets[] = {
		{"fuzz-cron", fuzz_cron_one}, {"fuzz-when", fuzz_when_one},
		{"fuzz-agent-input", fuzz_agent_input_one}, {"fuzz-deliver-text", fuzz_deliver_text_one},
		{"fuzz-llm-reply", fuzz_llm_reply_one}, {"fuzz-mcp-result", fuzz_mcp_result_one},
		{"fuzz-task-json", fuzz_task_json_one}, {"fuzz-web-form", fuzz_web_form_one},
	};
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		int n = replay(dir, targets[i].name, targets[i].fn);
		check(n > 0, "%s replays its corpus (%d inputs)", targets[i].name, n);
	}
	zones_free(fuzz_task_zones);
	for (int k = 0; k < 3; k++)
		tz_free(fuzz_cron_zones[k]);
	for (int k = 0; k < 2; k++)
		tz_free(fuzz_when_zones[k]);
	return tap_done();
}
