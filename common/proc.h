/* proc.h: processes as /proc shows them. */
#ifndef AC_PROC_H
#define AC_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

/* proc.c */
int proc_start_time(pid_t pid, int64_t *ticks); /* field 22 of /proc/PID/stat; -1: no such live process */
int proc_boot_id(char out[40]);                 /* this boot's id; -1 unknown */
/* Where a pid means this process: the boot and the pid namespace (two
 * containers on one kernel share a boot, not a namespace), or TASK_HOST_ID
 * when set.  -1 unknown. */
int proc_node_id(char *out, size_t n);
int proc_group_alive(pid_t pgid);               /* a member of the group that is not a zombie */
/* Become a subreaper (PR_SET_CHILD_SUBREAPER): what a child leaves behind,
 * even in a session of its own, is reparented here, not to init.  -1: not. */
int proc_subreaper(void);
/* Every child of this process, and each descendant as it is reparented
 * here, gets SIGTERM, then SIGKILL after grace_ms; all are reaped.
 * Returns how many were ended. */
int proc_end_children(long grace_ms);
/* This process's children that are not its own commands (ours(pid, arg)
 * says which are) but were left to it as subreaper: those whose
 * environment holds name=value get SIGKILL (a setsid or an ignored SIGTERM
 * does not save them), their own children in turn as they are left here;
 * all are reaped, and so are such children already ended.  Those still in
 * process group `group` (ended with it) are reaped, not counted.  Returns
 * how many were killed. */
int proc_end_left_children(const char *name, const char *value, pid_t group,
    int (*ours)(pid_t pid, void *arg), void *arg);
/* SIGKILL every process of this user whose environment holds name=value
 * (a run's TASK_RUN_ID): what a dead task-tick left behind.  Returns how many. */
int proc_kill_tagged(const char *name, const char *value);
/* This program's file (/proc/self/exe, else fallback) into path, and the
 * directory it is in into dir ("" when unknown); each n bytes. */
void proc_self(const char *fallback, char *path, char *dir, size_t n);

#endif
