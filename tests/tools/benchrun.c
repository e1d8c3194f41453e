/* benchrun: run a command N times (stdout to /dev/null) and print the wall
 * time of one run (min, median, max), the largest peak memory seen and the
 * median CPU time (user and system) of one run, which a machine busy with
 * other work changes less than the wall time, and of that the median the
 * command's own process spent on a CPU, without its children's (Linux's
 * /proc/PID/schedstat, read before the process is reaped; -1 elsewhere).
 *   benchrun N COMMAND [ARG...]
 *   benchrun N COMMAND [ARG...] --vs OTHER [ARG...]
 * Output: "min 1.73 ms  median 1.97 ms  max 2.63 ms  peak 3504 KB  cpu 1.10 ms
 * self 0.90 ms".  With
 * --vs the two commands take turns, so that a machine whose speed drifts
 * slows both alike: a line for each, then "first minus second: median X
 * ms, self Y ms" over the pairs (wall, and the commands' own CPU).  Exits 1 if any run fails. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The ms pid (a zombie not yet reaped) spent on a CPU, or -1. */
static double
own_cpu(pid_t pid)
{
	char path[64];
	unsigned long long ns;
	snprintf(path, sizeof path, "/proc/%ld/schedstat", (long)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fscanf(f, "%llu", &ns) == 1;
	fclose(f);
	return ok ? (double)ns / 1e6 : -1;
}

/* One run of argv: its wall time in ms, or -1 if it failed; *cpu its CPU
 * time, *self its own process's. */
static double
run_once(char **argv, long *peak, double *cpu, double *self)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid_t pid = fork();
	if (pid < 0) {
		perror("benchrun: fork");
		return -1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[0], argv);
		perror("benchrun: exec");
		_exit(127);
	}
	int st;
	struct rusage ru;
	siginfo_t si;
	*self = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) == 0 ? own_cpu(pid) : -1;
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("benchrun: wait");
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "benchrun: %s failed\n", argv[0]);
		return -1;
	}
	if (ru.ru_maxrss > *peak)
		*peak = ru.ru_maxrss;
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static void
report(double *ms, double *cpu, double *self, int n, long peak)
{
	qsort(ms, (size_t)n, sizeof *ms, cmp);
	qsort(cpu, (size_t)n, sizeof *cpu, cmp);
	qsort(self, (size_t)n, sizeof *self, cmp);
	printf("min %.2f ms  median %.2f ms  max %.2f ms  peak %ld KB  cpu %.2f ms  self %.2f ms\n",
	    ms[0], ms[n / 2], ms[n - 1], peak, cpu[n / 2], self[n / 2]);
}

int
main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: benchrun N COMMAND [ARG...] [--vs OTHER [ARG...]]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	if (n < 1)
		n = 1;
	char **other = NULL;
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], "--vs") == 0) {
			argv[i] = NULL;
			other = argv + i + 1;
			break;
		}
	if (other && !*other) {
		fprintf(stderr, "benchrun: nothing after --vs\n");
		return 2;
	}
	double *ms = calloc((size_t)n, sizeof *ms), *ms2 = calloc((size_t)n, sizeof *ms2),
	    *diff = calloc((size_t)n, sizeof *diff), *cpu = calloc((size_t)n, sizeof *cpu),
	    *cpu2 = calloc((size_t)n, sizeof *cpu2), *self = calloc((size_t)n, sizeof *self),
	    *self2 = calloc((size_t)n, sizeof *self2), *selfdiff = calloc((size_t)n, sizeof *selfdiff);
	if (!ms || !ms2 || !diff || !cpu || !cpu2 || !self || !self2 || !selfdiff) {
		perror("benchrun");
		return 1;
	}
	long peak = 0, peak2 = 0;
	for (int i = 0; i < n; i++) {
		/* Alternate which goes first, so neither always runs warm. */
		if (other && i % 2 && (ms2[i] = run_once(other, &peak2, &cpu2[i], &self2[i])) < 0)
			return 1;
		if ((ms[i] = run_once(argv + 2, &peak, &cpu[i], &self[i])) < 0)
			return 1;
		if (other && !(i % 2) && (ms2[i] = run_once(other, &peak2, &cpu2[i], &self2[i])) < 0)
			return 1;
		diff[i] = ms[i] - ms2[i];
		selfdiff[i] = self[i] - self2[i];
	}
	report(ms, cpu, self, n, peak);
	if (other) {
		report(ms2, cpu2, self2, n, peak2);
		qsort(diff, (size_t)n, sizeof *diff, cmp);
		qsort(selfdiff, (size_t)n, sizeof *selfdiff, cmp);
		printf("first minus second: median %.2f ms, self %.2f ms\n", diff[n / 2],
		    selfdiff[n / 2]);
	}
	free(ms);
	free(ms2);
	free(diff);
	free(cpu);
	free(cpu2);
	free(self);
	free(self2);
	free(selfdiff);
	return 0;
}
