/* load-shared.c — loads FILE bound to one processor (the caches checked in one piece) and then free to use two (the check shared with a thread while a processor is free) several times, in process and isolated: every load must give the one-processor load's outcome, word for word. */
/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tprof/capture.h>

/* The thread the check runs on, caught on its way to the C library's
 * pthread_create(): the first started with attributes (the load pins its
 * thread to another processor; the isolated open's heap scan, started
 * when the helper is slow, has none). The load keeps that thread for the
 * next, so what tells a shared load is the processor time the thread
 * spent in it. */
static pthread_t worker;
static int threads_started;

int
pthread_create (pthread_t             *thread,
                const pthread_attr_t  *attr,
                void                *(*start) (void *),
                void                  *arg)
{
  static int (*next) (pthread_t *, const pthread_attr_t *, void *(*) (void *), void *);
  int failed;

  if (next == NULL)
    *(void **) &next = dlsym (RTLD_NEXT, "pthread_create");
  failed = next (thread, attr, start, arg);
  if (failed == 0 && attr != NULL && __atomic_add_fetch (&threads_started, 1, __ATOMIC_RELAXED) == 1)
    worker = *thread;
  return failed;
}

/* The processor time the load's thread has used, in ns: 0 before it is
 * started. */
static int64_t
worker_cpu_ns (void)
{
  clockid_t clock;
  struct timespec t;

  if (__atomic_load_n (&threads_started, __ATOMIC_RELAXED) == 0 || pthread_getcpuclockid (worker, &clock) != 0
      || clock_gettime (clock, &t) != 0)
    return 0;
  return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A load shared its check when the thread worked this long in it: a
 * share of 10^4 operations' check is some hundreds of microseconds, a
 * wake-up that finds its job taken back some microseconds. */
#define SHARED_NS 100000

#define N_LOADS 2
#define ATTEMPTS 10

/* FILE loaded by @load: its refusal into @message ("loaded" when none). */
static void
load_once (TprofProfiledTime *(*load) (const char *, TprofError *),
           const char        *path,
           char              *message,
           size_t             size)
{
  TprofError error = { 0 };
  TprofProfiledTime *pt = load (path, &error);

  snprintf (message, size, "%s", pt != NULL ? "loaded" : error.message);
  tprof_profiled_time_free (pt);
}

int
main (int argc, char **argv)
{
  TprofProfiledTime *(*const loads[N_LOADS]) (const char *, TprofError *) = {
    tprof_profiled_time_load, tprof_profiled_time_load_isolated,
  };
  const char *const load_names[N_LOADS] = { "in process", "isolated" };
  char serial[N_LOADS][sizeof ((TprofError *) NULL)->message], shared[sizeof serial[0]];
  cpu_set_t allowed, one;
  int repeat, status = 0, here = sched_getcpu ();

  if (argc != 3 || (repeat = atoi (argv[2])) < 1)
    {
      fprintf (stderr, "usage: %s FILE REPEAT\n"
                       "  prints the outcome of a load in process and of one isolated, bound to one\n"
                       "  processor, then how many loads of each kind free to use two shared the check\n"
                       "  with a thread (up to REPEAT, in 10 x REPEAT loads at most: only while a\n"
                       "  processor is free); exit 0 when every one gave its kind's outcome; 77 with\n"
                       "  one processor\n",
               argv[0]);
      return 2;
    }
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0 || CPU_COUNT (&allowed) < 2 || here < 0)
    {
      printf ("one processor: nothing to share\n");
      return 77;
    }
  CPU_ZERO (&one);
  CPU_SET (here, &one);
  if (sched_setaffinity (0, sizeof one, &one) != 0)
    return 3;
  for (size_t l = 0; l < N_LOADS; l++)
    load_once (loads[l], argv[1], serial[l], sizeof serial[l]);
  if (threads_started != 0)
    {
      printf ("bound to one processor, the loads started %d thread(s)\n", threads_started);
      return 1;
    }
  if (sched_setaffinity (0, sizeof allowed, &allowed) != 0)
    return 3;
  for (size_t l = 0; l < N_LOADS; l++)
    printf ("%s: %s\n", load_names[l], serial[l]);
  /* a load shares its check only while a processor is free: tried
   * until REPEAT loads did, or ATTEMPTS were made */
  for (size_t l = 0; l < N_LOADS; l++)
    {
      int shared_loads = 0;

      for (int i = 0; i < ATTEMPTS * repeat && shared_loads < repeat; i++)
        {
          int64_t before = worker_cpu_ns ();

          load_once (loads[l], argv[1], shared, sizeof shared);
          if (strcmp (shared, serial[l]) != 0)
            {
              printf ("%s, load %d: %s\n", load_names[l], i + 1, shared);
              status = 1;
            }
          if (worker_cpu_ns () - before >= SHARED_NS)
            shared_loads++;
          else
            usleep (2000);
        }
      printf ("%s: %d shared\n", load_names[l], shared_loads);
    }
  return status;
}
