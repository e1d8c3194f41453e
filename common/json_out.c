#include <stdio.h>
#include <stdlib.h>

#include "json_out.h"
#include "task_json.h"

void
json_put_line(cJSON *o)
{
	char *s = json_print_line(o);
	puts(s);
	free(s);
	cJSON_Delete(o);
}
