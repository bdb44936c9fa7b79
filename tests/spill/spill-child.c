/* spill-child.c — a process that spills what the spill tests tell it to record, then exits, crashes or waits for a signal. */
/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tprof/capture.h>

/* Usage: spill-child DIR INTERVAL THREADS N
 * Each of THREADS threads records N samples of "step" (thread t's k-th
 * lasts (t * 1e6 + k + 1) microseconds, given as seconds) and N regions
 * "scoped" (TPROF_SCOPE: raw ticks). Then the child prints "ready PATH"
 * and reads commands on stdin, one a line:
 *   more N     records N more of each per thread, prints "ready PATH"
 *   loop       records "step" without end, in batches (for kill -9)
 *   segv       dereferences NULL        abort   calls abort()
 *   dump FILE  writes "scoped"'s durations (get_time) to FILE as f64
 *   exit       frees the manager (the spill's clean end) and exits 0
 *   end PATH   tprof_time_manager_end_spill (tm, PATH), then as exit
 *   clear      tprof_time_manager_clear (tm)
 *   fork       forks a child that aborts (its handler must leave the
 *              parent's file alone), waits for it, prints "forked"
 * $SPILL_CHILD_LIMIT: a sample limit set before recording.
 * End of input: as exit. */

static TprofTimeManager *tm;
static long long recorded[64];  /* per thread: samples of "step" so far */

typedef struct
{
  int       thread;
  long long n;
} Work;

static void *
record (void *data)
{
  Work *w = data;

  tprof_time_manager_enable (tm);
  for (long long i = 0; i < w->n; i++)
    {
      long long k = recorded[w->thread]++;

      tprof_time_manager_append_time (tm, "step", ((double) w->thread * 1e6 + (double) k + 1) * 1e-6);
      {
        TPROF_SCOPE ("scoped");
        __asm__ volatile ("" ::: "memory");
      }
    }
  tprof_time_manager_disable (tm);
  return NULL;
}

/* Records @n of each on @threads threads: thread 0 is this one, so that a
 * single-threaded run has one recording thread. */
static void
record_all (int threads, long long n)
{
  pthread_t tids[64];
  Work work[64];

  for (int t = 0; t < threads; t++)
    work[t] = (Work) { t, n };
  for (int t = 1; t < threads; t++)
    pthread_create (&tids[t], NULL, record, &work[t]);
  record (&work[0]);
  for (int t = 1; t < threads; t++)
    pthread_join (tids[t], NULL);
}

static void
loop (void)
{
  Work w = { 0, 1000 };

  for (;;)
    {
      record (&w);
      nanosleep (&(struct timespec) { 0, 1000000 }, NULL);
    }
}

static void
dump (const char *path)
{
  double *times = NULL;
  size_t n = tprof_time_manager_get_time (tm, "scoped", &times);
  FILE *f = fopen (path, "wb");

  if (f == NULL || fwrite (times, sizeof *times, n, f) != n)
    {
      perror (path);
      exit (3);
    }
  fclose (f);
  free (times);
}

/* A real segmentation fault: a store into a page that allows no access
 * (not to address 0, which UndefinedBehaviorSanitizer reports itself). */
static void
fault (void)
{
  volatile int *page = mmap (NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (page == MAP_FAILED)
    abort ();
  *page = 1;
}

int
main (int argc, char **argv)
{
  TprofError error = { 0 };
  char line[4096];
  int threads;

  if (argc != 5)
    {
      fputs ("usage: spill-child DIR INTERVAL THREADS N\n", stderr);
      return 2;
    }
  threads = atoi (argv[3]);
  tm = tprof_time_manager_new ();
  if (getenv ("SPILL_CHILD_LIMIT") != NULL)
    tprof_time_manager_set_sample_limit (tm, (size_t) atoll (getenv ("SPILL_CHILD_LIMIT")));
  if (tprof_time_manager_set_spill (tm, argv[1], atof (argv[2]), &error) != 0)
    {
      fprintf (stderr, "spill-child: %s\n", error.message);
      return 1;
    }
  record_all (threads, atoll (argv[4]));
  printf ("ready %s\n", tprof_time_manager_get_spill_path (tm));
  fflush (stdout);
  while (fgets (line, sizeof line, stdin) != NULL)
    {
      line[strcspn (line, "\n")] = '\0';
      if (strncmp (line, "more ", 5) == 0)
        {
          record_all (threads, atoll (line + 5));
          printf ("ready %s\n", tprof_time_manager_get_spill_path (tm));
          fflush (stdout);
        }
      else if (strcmp (line, "loop") == 0)
        loop ();
      else if (strcmp (line, "segv") == 0)
        fault ();
      else if (strcmp (line, "abort") == 0)
        abort ();
      else if (strncmp (line, "dump ", 5) == 0)
        dump (line + 5);
      else if (strncmp (line, "end ", 4) == 0)
        {
          tprof_time_manager_end_spill (tm, line + 4);
          break;
        }
      else if (strcmp (line, "clear") == 0)
        tprof_time_manager_clear (tm);
      else if (strcmp (line, "fork") == 0)
        {
          pid_t pid = fork ();
          int status;

          if (pid == 0)
            {
              record_all (1, 100);
              abort ();
            }
          waitpid (pid, &status, 0);
          printf ("forked %d\n", WIFSIGNALED (status) ? WTERMSIG (status) : -1);
          fflush (stdout);
        }
      else if (strcmp (line, "exit") == 0)
        break;
    }
  tprof_time_manager_free (tm);
  return 0;
}
