// SPDX-License-Identifier: GPL-2.0-only
/*
 * benchrun: run a command N times (stdout to /dev/null) and print
 * "WALL_MS RSS_KIB MIN_MS MAX_MS CPU_MS": the median wall time, the median
 * peak RSS, the fastest and slowest run and the median CPU time (user +
 * system, which a busy machine disturbs less than wall time), from the
 * monotonic clock and wait4()'s rusage, so that the figures do not include
 * a shell or /usr/bin/time: benchrun N CMD [ARG...].
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfbot/util/yaml.h"

#define MAX_RUNS 101

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* One run: wall and CPU time (ms), peak RSS (KiB); -1 when it failed. */
static int run_once(char **argv, double *ms, double *cpu, long *kb)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status, fd;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	*kb = ru.ru_maxrss;
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	double ms[MAX_RUNS], cpu[MAX_RUNS];
	long kb[MAX_RUNS], n, i;

	if (argc < 3 || parse_long(argv[1], 1, MAX_RUNS, &n)) {
		fprintf(stderr, "usage: benchrun N CMD [ARG...]\n");
		return 64;
	}
	for (i = 0; i < n; i++)
		if (run_once(argv + 2, &ms[i], &cpu[i], &kb[i])) {
			fprintf(stderr, "benchrun: '%s' failed\n", argv[2]);
			return 1;
		}
	qsort(ms, (size_t)n, sizeof(ms[0]), cmp_double);
	qsort(cpu, (size_t)n, sizeof(cpu[0]), cmp_double);
	qsort(kb, (size_t)n, sizeof(kb[0]), cmp_long);
	printf("%.1f %ld %.1f %.1f %.1f\n", ms[n / 2], kb[n / 2], ms[0],
	       ms[n - 1], cpu[n / 2]);
	return 0;
}
