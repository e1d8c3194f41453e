/* tick-plans: task-tick itself (cmd/task-tick.c, built in) on an SQLite store,
 * then the plan SQLite makes of each statement it ran (sql-plans.h).
 *   tick-plans [TASK-TICK OPTION...] */
#define main task_tick_main
#include "../../cmd/task-tick.c"
#undef main

#include "sql-plans.h"

int
main(int argc, char **argv)
{
	return sql_plans("tick-plans", task_tick_main, argc, argv);
}
