/* run_file.h: the temporary files of one run (its outcome file, its
 * payload), named after the run so that whoever recovers the run once its
 * ticker died removes them too. */
#ifndef AC_RUN_FILE_H
#define AC_RUN_FILE_H

#include "util.h"

/* A new file "agentcron-KIND-RUNID-XXXXXX", 0600, in TMPDIR (else /tmp),
 * open for writing: *fd and *path (malloc'd). */
int run_file_new(const char *kind, const char *run_id, int *fd, char **path, struct err *e);
/* Remove what run_file_new made for run_id in this process's temporary
 * directory: regular files of this user only; the number removed. */
int run_files_remove(const char *run_id);

#endif
