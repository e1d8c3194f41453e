/* The key of a model call, read and checked (llm_session.h). */
#include <string.h>

#include "config.h"
#include "llm_session.h"

int
llm_key_file_read(const char *path, char **key, struct err *e)
{
	struct buf b = {0};
	unsigned mode;
	int rc = config_read_private("key file", path, 16384, &b, &mode, e);
	/* A key file that cannot be used fails every run the same way. */
	if (rc)
		return ST_INVALID;
	if ((rc = config_private_secret("key file", path, mode, "a key", e))) {
		buf_wipe(&b);
		return rc;
	}
	char *nl = strchr(b.data, '\n');
	if (nl)
		*nl = 0;
	str_trim(b.data);
	if (!*b.data)
		rc = err_set(e, ST_INVALID, "key file '%s' is empty", path);
	*key = xstrdup(b.data);
	buf_wipe(&b);
	return rc;
}

int
llm_key_clean(const char *k)
{
	for (; *k; k++)
		if ((unsigned char)*k < 0x21 || *k == 0x7f)
			return 0;
	return 1;
}
