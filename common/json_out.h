/* json_out.h: a JSON value printed as one line on standard output. */
#ifndef AC_JSON_OUT_H
#define AC_JSON_OUT_H

#include <cjson/cJSON.h>

/* json_out.c */
void json_put_line(cJSON *o);  /* as json_print_line prints it; o freed */

#endif
