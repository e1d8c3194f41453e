#!/bin/sh
# Every field of a task and of a run, as the tables of common/task_fields.c
# list them, through JSON and through this pass's store: a file, or the
# PostgreSQL server of the PostgreSQL pass (tests/unit/t-fields.c).
. "$AC_TOP/tests/lib.sh"
"$AC_BUILD/tests/t-fields"
