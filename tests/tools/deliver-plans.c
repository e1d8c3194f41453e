/* deliver-plans: task-deliver itself (cmd/task-deliver.c, built in) on an
 * SQLite store, then the plan SQLite makes of each statement it ran
 * (sql-plans.h).
 *   deliver-plans [TASK-DELIVER OPTION...] */
#define main task_deliver_main
#include "../../cmd/task-deliver.c"
#undef main

#include "sql-plans.h"

int
main(int argc, char **argv)
{
	return sql_plans("deliver-plans", task_deliver_main, argc, argv);
}
