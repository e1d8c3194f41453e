/* rm-plans: task-rm itself (cmd/task-rm.c, built in) on an SQLite store,
 * then the plan SQLite makes of each statement it ran, those that write
 * included (sql-plans.h): what emptying the trash reads.
 *   rm-plans [TASK-RM OPTION...] */
#define main task_rm_main
#include "../../cmd/task-rm.c"
#undef main

#include "sql-plans.h"

int
main(int argc, char **argv)
{
	seen.writes = 1;
	return sql_plans("rm-plans", task_rm_main, argc, argv);
}
