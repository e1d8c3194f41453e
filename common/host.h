/* host.h: the name of this host, as the store's records give it. */
#ifndef AC_HOST_H
#define AC_HOST_H

#include <stddef.h>

void history_host(char *buf, size_t n);   /* TASK_HOST_ID, else the hostname */

#endif
