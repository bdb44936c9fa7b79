/* bench-thread-cost.c — a thread's instructions (perf_event_open) and CPU time (clock_gettime, /proc/self/task/TID/schedstat) for the benchmarks. */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench-thread-cost.h"

int
bench_instructions_open (void)
{
  struct perf_event_attr attr = {
    .type = PERF_TYPE_HARDWARE,
    .size = sizeof attr,
    .config = PERF_COUNT_HW_INSTRUCTIONS,
    .exclude_kernel = 1,
    .exclude_hv = 1,
  };

  return (int) syscall (SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

uint64_t
bench_instructions_close (int fd)
{
  uint64_t count = 0;

  if (fd < 0)
    return 0;
  if (read (fd, &count, sizeof count) != (ssize_t) sizeof count)
    count = 0;
  close (fd);
  return count;
}

static double
clock_ns (clockid_t id)
{
  struct timespec ts;

  clock_gettime (id, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double
bench_thread_cpu_ns (void)
{
  return clock_ns (CLOCK_THREAD_CPUTIME_ID);
}

double
bench_process_cpu_ns (void)
{
  return clock_ns (CLOCK_PROCESS_CPUTIME_ID);
}

/* The first line of /proc/self/task/@tid/@file into @buf. */
static bool
read_task_file (const char *tid, const char *file, char *buf, size_t size)
{
  char path[300];  /* a d_name is at most 255 bytes */
  FILE *f;
  bool ok;

  snprintf (path, sizeof path, "/proc/self/task/%s/%s", tid, file);
  if ((f = fopen (path, "r")) == NULL)
    return false;
  ok = fgets (buf, (int) size, f) != NULL;
  fclose (f);
  return ok;
}

double
bench_named_thread_cpu_ns (const char *name)
{
  DIR *dir = opendir ("/proc/self/task");
  struct dirent *e;
  double ns = -1;

  while (dir != NULL && ns < 0 && (e = readdir (dir)) != NULL)
    {
      char comm[64], stat[128];

      if (e->d_name[0] == '.' || !read_task_file (e->d_name, "comm", comm, sizeof comm))
        continue;
      comm[strcspn (comm, "\n")] = '\0';
      /* schedstat: time on a CPU (ns), time waiting for one, slices */
      if (strcmp (comm, name) == 0 && read_task_file (e->d_name, "schedstat", stat, sizeof stat))
        ns = strtod (stat, NULL);
    }
  if (dir != NULL)
    closedir (dir);
  return ns;
}
