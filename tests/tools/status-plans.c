/* status-plans: task-status itself (cmd/task-status.c, built in) on an SQLite store,
 * then the plan SQLite makes of each statement it ran (sql-plans.h).
 *   status-plans [TASK-STATUS OPTION...] */
#define main task_status_main
#include "../../cmd/task-status.c"
#undef main

#include "sql-plans.h"

int
main(int argc, char **argv)
{
	return sql_plans("status-plans", task_status_main, argc, argv);
}
